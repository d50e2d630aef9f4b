// "Money reconciles, always": what an attacker with an ordinary account tried, through the real HTTP
// API, the sync protocol and the local Stripe (stripe-node over HTTP, signed webhooks).
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { prepareDocument } from '../../src/db/index.ts';
import { dealBalance } from '../../sync-server/payments/ledger.ts';
import { completeDeal, startMoneyFixture, type MoneyFixture } from './money-fixture.ts';
import type { TestUser } from '../support/test-server.ts';

let f: MoneyFixture;
beforeAll(async () => {
  f = await startMoneyFixture();
});
afterAll(() => f?.close());

const balance = (dealId: string) => f.server.db.asService((tx) => dealBalance(tx, dealId));
const waitFor = async (check: () => Promise<boolean>) => {
  for (let i = 0; i < 200; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('condition never met');
};
const payment = async (user: TestUser, dealId: string) =>
  (await f.api(user, 'GET', `/api/deals/${dealId}/payment`)).body;

/** What Stripe captured and refunded for the deal: every charge the local Stripe made with its deal id. */
async function stripeTotals(dealId: string) {
  await f.localStripe.idle();
  const ids = f.localStripe.events
    .filter((e) => e.type === 'charge.succeeded' && (e.data.object.metadata as { deal_id?: string }).deal_id === dealId)
    .map((e) => e.data.object.id);
  let captured = 0;
  let refunded = 0;
  for (const id of ids) {
    const charge = await f.stripe.charges.retrieve(id);
    captured += charge.amount_captured;
    refunded += charge.amount_refunded;
  }
  return { captured, refunded };
}

/**
 * The ledger reconciles with Stripe and with the escrow: every captured cent is a charge row, every
 * refunded cent a refund row, and the captured charges are what funds the escrow plus what went back.
 */
async function expectReconciled(dealId: string, opts: { escrowRefunded?: boolean } = {}) {
  const stripe = await stripeTotals(dealId);
  const ledger = await balance(dealId);
  expect(ledger.chargeCents).toBe(stripe.captured);
  expect(ledger.refundCents).toBe(stripe.refunded);
  const { rows } = await f.server.db.pool.query(
    `select amount_cents + service_fee_cents as total, funded_at from public.deal_escrows where deal_id = $1`,
    [dealId],
  );
  const funded = rows[0]?.funded_at ? Number(rows[0].total) : 0;
  if (opts.escrowRefunded) expect(ledger.chargeCents).toBe(ledger.refundCents);
  else expect(ledger.chargeCents).toBe(funded + ledger.refundCents);
  return ledger;
}

/** The brand changes the deal's amount on its device; resolves with the refusal's code, if any. */
async function changeAmount(brand: TestUser, dealId: string, amountCents: number) {
  const deal = (await f.pulled(brand, 'deals', dealId))!;
  return f.pushed(brand, 'deals', { ...deal, amount_cents: amountCents }, deal);
}

async function setDealStatus(user: TestUser, dealId: string, status: string) {
  const deal = (await f.pulled(user, 'deals', dealId))!;
  return f.pushed(user, 'deals', { ...deal, status }, deal);
}

test('once a checkout exists the amount is frozen; cancelling the checkout unfreezes it and the old link cannot be paid', async () => {
  const brand = await f.server.createUser({ role: 'brand' });
  const creator = await f.server.createUser({ role: 'creator' });
  const dealId = await f.dealWithAcceptedCreator(brand, creator, 10_000);
  const checkout = await f.api(brand, 'POST', `/api/deals/${dealId}/fund`);
  expect(checkout.status).toBe(200);

  // The attack: raise the amount while the smaller checkout is open, then pay that checkout.
  expect(await changeAmount(brand, dealId, 100_000)).toBe('amount_frozen');
  expect((await f.pulled(brand, 'deals', dealId))!.amount_cents).toBe(10_000);
  expect(await payment(brand, dealId)).toMatchObject({ checkoutOpen: true, canCancelCheckout: true, canFund: true });
  expect(await payment(creator, dealId)).toMatchObject({ checkoutOpen: true, canCancelCheckout: false });

  expect((await f.api(creator, 'POST', `/api/deals/${dealId}/fund/cancel`)).status).toBe(403);
  const cancelled = await f.api(brand, 'POST', `/api/deals/${dealId}/fund/cancel`);
  expect(cancelled).toMatchObject({ status: 200, body: { checkoutOpen: false } });
  expect((await f.api(brand, 'POST', `/api/deals/${dealId}/fund/cancel`)).body).toMatchObject({
    code: 'no_open_checkout',
  });
  const stale = await f.payOnHostedPage(String(checkout.body.url), '4242 4242 4242 4242');
  expect(stale.status).toBe(402);
  expect(stale.html).toContain('This checkout session is no longer open.');
  expect((await f.stripe.checkout.sessions.retrieve(String(checkout.body.url).split('/').pop()!)).status).toBe(
    'expired',
  );

  expect(await changeAmount(brand, dealId, 20_000)).toBeUndefined();
  await f.fundDeal(brand, dealId);
  // Funded: the amount is the escrow's for good.
  expect(await changeAmount(brand, dealId, 30_000)).toBe('deal_funded');
  // Escrow funds the creator's agreed price (fixed when they were accepted), not the listing's amount.
  expect(await payment(creator, dealId)).toMatchObject({ amountCents: 10_000, chargedCents: 11_200 });
  await expectReconciled(dealId);
});

test('a new checkout expires the earlier one: the older, smaller checkout cannot be paid', async () => {
  const brand = await f.server.createUser({ role: 'brand' });
  const creator = await f.server.createUser({ role: 'creator' });
  const dealId = await f.dealWithAcceptedCreator(brand, creator, 10_000);
  const first = await f.api(brand, 'POST', `/api/deals/${dealId}/fund`);
  const second = await f.api(brand, 'POST', `/api/deals/${dealId}/fund`);
  expect(second.status).toBe(200);
  expect(second.body.url).not.toBe(first.body.url);
  expect((await f.payOnHostedPage(String(first.body.url), '4242 4242 4242 4242')).status).toBe(402);
  await f.localStripe.idle();
  expect(await f.escrowStatus(dealId)).toBe('none');
  expect((await f.payOnHostedPage(String(second.body.url), '4242 4242 4242 4242')).status).toBe(303);
  await waitFor(async () => (await f.escrowStatus(dealId)) === 'pending');
  expect(await expectReconciled(dealId)).toMatchObject({ chargeCents: 11_200, refundCents: 0, heldCents: 10_000 });
});

test('a checkout paid while a new one is being made: the new one waits; that payment funds the deal once', async () => {
  const brand = await f.server.createUser({ role: 'brand' });
  const creator = await f.server.createUser({ role: 'creator' });
  const dealId = await f.dealWithAcceptedCreator(brand, creator, 10_000);
  const first = await f.api(brand, 'POST', `/api/deals/${dealId}/fund`);
  f.localStripe.setDelivery('manual');
  const from = f.localStripe.events.length;
  try {
    expect((await f.payOnHostedPage(String(first.body.url), '4242 4242 4242 4242')).status).toBe(303);
    const again = await f.api(brand, 'POST', `/api/deals/${dealId}/fund`);
    expect(again).toMatchObject({ status: 409, body: { code: 'payment_in_progress' } });
  } finally {
    f.localStripe.setDelivery('auto');
  }
  for (const event of f.localStripe.events.slice(from)) expect(await f.localStripe.deliver(event)).toBe(200);
  expect(await f.escrowStatus(dealId)).toBe('pending');
  expect(await expectReconciled(dealId)).toMatchObject({ chargeCents: 11_200, heldCents: 10_000 });
});

test('any other captured payment of the deal is refunded at once, and both movements are in the ledger', async () => {
  const brand = await f.server.createUser({ role: 'brand' });
  const creator = await f.server.createUser({ role: 'creator' });
  const dealId = await f.dealWithAcceptedCreator(brand, creator, 10_000);
  await f.fundDeal(brand, dealId);
  const { rows } = await f.server.db.pool.query(
    `select stripe_customer_id from public.billing_accounts where user_id = $1`,
    [brand.id],
  );
  // A second checkout of the deal paid (the one the race above would leave, or one made at Stripe).
  const payExtra = async (amount: number) => {
    const session = await f.stripe.checkout.sessions.create({
      mode: 'payment',
      customer: rows[0].stripe_customer_id,
      line_items: [
        { quantity: 1, price_data: { currency: 'usd', unit_amount: amount, product_data: { name: 'Deal' } } },
      ],
      payment_intent_data: { transfer_group: `deal_${dealId}`, metadata: { kind: 'deal_escrow', deal_id: dealId } },
      metadata: { kind: 'deal_escrow', deal_id: dealId },
      success_url: 'http://127.0.0.1/done',
    });
    expect((await f.payOnHostedPage(session.url!, '4242 4242 4242 4242')).status).toBe(303);
    await f.localStripe.idle();
  };
  await payExtra(11_200);
  await payExtra(50_000);
  expect(await f.escrowStatus(dealId)).toBe('pending');
  const ledger = await expectReconciled(dealId);
  expect(ledger).toMatchObject({ chargeCents: 11_200 + 11_200 + 50_000, refundCents: 61_200, heldCents: 10_000 });
  const { rows: entries } = await f.server.db.pool.query(
    `select kind, amount_cents::int as amount, memo from public.ledger_entries where deal_id = $1 and kind in ('charge', 'refund') order by id`,
    [dealId],
  );
  expect(entries).toEqual([
    { kind: 'charge', amount: 11_200, memo: 'Brand funded the deal' },
    { kind: 'charge', amount: 11_200, memo: 'Extra payment: the deal was already funded' },
    { kind: 'refund', amount: 11_200, memo: 'Extra payment refunded automatically' },
    { kind: 'charge', amount: 50_000, memo: 'Extra payment: the deal was already funded' },
    { kind: 'refund', amount: 50_000, memo: 'Extra payment refunded automatically' },
  ]);
  // Replayed webhooks change nothing.
  for (const event of f.localStripe.events.filter(
    (e) =>
      e.type === 'checkout.session.completed' && (e.data.object.metadata as { deal_id?: string }).deal_id === dealId,
  ))
    await f.localStripe.deliver({ ...event, id: `${event.id}_replay` });
  expect(await expectReconciled(dealId)).toEqual(ledger);
  // Both sides see what was actually charged for the escrow, and what went back.
  for (const user of [brand, creator])
    expect(await payment(user, dealId)).toMatchObject({
      amountCents: 10_000,
      chargedCents: 11_200,
      extraPaymentsRefundedCents: 61_200,
      escrowStatus: 'pending',
    });
  // The release is paid from the escrow's own charge.
  await f.setUpPayouts(creator);
  await completeDeal(f.server, dealId);
  expect((await f.api(brand, 'POST', '/api/release-escrow', { dealId })).body).toMatchObject({ transferCents: 9_500 });
  expect(await expectReconciled(dealId)).toMatchObject({ heldCents: 0 });
});

test("the escrow's own checkout paid at an amount that no longer matches the deal is refunded, not funded", async () => {
  const brand = await f.server.createUser({ role: 'brand' });
  const creator = await f.server.createUser({ role: 'creator' });
  const dealId = await f.dealWithAcceptedCreator(brand, creator, 10_000);
  const checkout = await f.api(brand, 'POST', `/api/deals/${dealId}/fund`);
  // Only the server can move the agreed price under an open checkout; the payment must still not fund it.
  await f.server.db.asService((tx) =>
    tx.query(`update public.applications set agreed_price_cents = 90000 where deal_id = $1`, [dealId]),
  );
  expect((await f.payOnHostedPage(String(checkout.body.url), '4242 4242 4242 4242')).status).toBe(303);
  await f.localStripe.idle();
  expect(await f.escrowStatus(dealId)).toBe('none');
  expect(await expectReconciled(dealId)).toMatchObject({ chargeCents: 11_200, refundCents: 11_200, heldCents: 0 });
  expect(await payment(brand, dealId)).toMatchObject({
    lastPaymentError: 'The amount paid did not match the deal, so it was refunded.',
    chargedCents: 0,
    extraPaymentsRefundedCents: 11_200,
    canFund: true,
  });
});

test('a funded deal in progress: the brand cannot cancel it or drop its creator; the creator agrees, then it is refunded', async () => {
  const brand = await f.server.createUser({ role: 'brand' });
  const creator = await f.server.createUser({ role: 'creator' });
  const stranger = await f.server.createUser({ role: 'creator' });
  const dealId = await f.dealWithAcceptedCreator(brand, creator, 40_000);
  await f.fundDeal(brand, dealId);

  expect(await setDealStatus(brand, dealId, 'cancelled')).toBe('cancel_needs_consent');
  const { rows: apps } = await f.server.db.pool.query(`select id from public.applications where deal_id = $1`, [
    dealId,
  ]);
  const application = (await f.pulled(brand, 'applications', apps[0].id))!;
  expect(await f.pushed(brand, 'applications', { ...application, status: 'rejected' }, application)).toBe(
    'creator_on_funded_deal',
  );
  await f.server.app.pactaPayments!.jobs.run();
  expect(await f.escrowStatus(dealId)).toBe('pending');
  expect((await f.pulled(brand, 'deals', dealId))!.status).toBe('in_progress');

  expect((await f.api(creator, 'POST', `/api/deals/${dealId}/cancellation/consent`)).body).toMatchObject({
    code: 'no_cancel_request',
  });
  expect((await f.api(creator, 'POST', `/api/deals/${dealId}/cancellation`)).status).toBe(403);
  expect((await f.api(brand, 'POST', `/api/deals/${dealId}/cancellation`)).status).toBe(200);
  expect(await payment(brand, dealId)).toMatchObject({
    cancellation: { consentedByMe: false },
    canRequestCancel: false,
  });
  expect(await payment(creator, dealId)).toMatchObject({ canConsentCancel: true });
  const { rows: told } = await f.server.db.pool.query(
    `select user_id from public.notifications where type = 'cancel_requested' and data->>'deal_id' = $1`,
    [dealId],
  );
  expect(told).toEqual([{ user_id: creator.id }]);
  // Asking is not cancelling: the deal stays funded until the creator agrees.
  expect(await setDealStatus(brand, dealId, 'cancelled')).toBe('cancel_needs_consent');
  expect((await f.api(stranger, 'POST', `/api/deals/${dealId}/cancellation/consent`)).status).toBe(403);

  expect((await f.api(creator, 'POST', `/api/deals/${dealId}/cancellation/consent`)).body).toMatchObject({
    cancelled: true,
  });
  await waitFor(async () => (await f.escrowStatus(dealId)) === 'refunded');
  expect(await expectReconciled(dealId, { escrowRefunded: true })).toMatchObject({
    chargeCents: 44_800,
    refundCents: 44_800,
    heldCents: 0,
  });
});

test('a disputed deal cannot be cancelled by the brand; staff decide it', async () => {
  const brand = await f.server.createUser({ role: 'brand' });
  const creator = await f.server.createUser({ role: 'creator' });
  const dealId = await f.dealWithAcceptedCreator(brand, creator, 10_000);
  await f.fundDeal(brand, dealId);
  expect(
    (await f.api(creator, 'POST', `/api/deals/${dealId}/dispute`, { reason: 'The brand wants out after the work.' }))
      .status,
  ).toBe(200);
  expect(await setDealStatus(brand, dealId, 'cancelled')).toBe('deal_disputed');
  expect((await f.api(brand, 'POST', `/api/deals/${dealId}/cancellation`)).body).toMatchObject({
    code: 'deal_disputed',
  });
});

test('disputes come only from the parties: not an applicant, not a creator the completed deal does not pay', async () => {
  const brand = await f.server.createUser({ role: 'brand' });
  const creator = await f.server.createUser({ role: 'creator' });
  const second = await f.server.createUser({ role: 'creator' });
  const applicant = await f.server.createUser({ role: 'creator' });
  const dealId = randomUUID();
  await f.server.db.asService(async (tx) => {
    await tx.query(
      `insert into public.deals (id, brand_id, title, description, amount_cents, niches) values ($1, $2, 'Duo reel', 'Two creators', 10000, '{fitness}')`,
      [dealId, brand.id],
    );
    const ids: string[] = [];
    for (const who of [creator, second, applicant]) {
      const { rows } = await tx.query(
        `insert into public.applications (id, deal_id, creator_id, pitch) values (gen_random_uuid(), $1, $2, 'Me') returning id`,
        [dealId, who.id],
      );
      ids.push(rows[0].id);
    }
    // One after the other: the first accepted creator is the one a completion pays.
    for (const id of ids.slice(0, 2))
      await tx.query(`update public.applications set status = 'accepted' where id = $1`, [id]);
  });
  await f.fundDeal(brand, dealId);
  const reason = 'I want this payout frozen for no reason.';
  expect((await f.api(applicant, 'POST', `/api/deals/${dealId}/dispute`, { reason })).status).toBe(403);
  // Nor through a support ticket of kind dispute pushed from the applicant's device: no device files
  // one (disputes come only from the server's dispute path).
  const ticket = prepareDocument('support_tickets', {
    id: randomUUID(),
    user_id: applicant.id,
    subject: 'Dispute',
    message: reason,
    kind: 'dispute',
    deal_id: dealId,
  });
  expect(await f.pushed(applicant, 'support_tickets', { ...ticket, _deleted: false })).toBe('dispute_from_deal');
  // Completed with the first creator as the winner: the other accepted creator is not paid by it.
  await completeDeal(f.server, dealId);
  expect((await f.api(second, 'POST', `/api/deals/${dealId}/dispute`, { reason })).status).toBe(403);
  expect(await payment(second, dealId)).toMatchObject({ canDispute: false });
  expect(await f.escrowStatus(dealId)).toBe('pending');
  expect((await f.api(creator, 'POST', `/api/deals/${dealId}/dispute`, { reason })).status).toBe(200);
});
