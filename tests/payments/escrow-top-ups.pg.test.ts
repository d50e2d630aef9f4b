// A funded deal takes another creator, whose agreed price a top-up funds (docs/decisions/048):
// the parties act through /sync/v1 as their devices do, money moves through the real HTTP API and
// the local Stripe (hosted checkout, signed webhooks), and the ledger is compared with what Stripe
// captured, refunded and transferred.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { dealPaymentSummary } from '../../src/domain/fees.ts';
import { dealBalance } from '../../sync-server/payments/ledger.ts';
import { completeDeal, startMoneyFixture, type MoneyFixture, type SyncDoc } from './money-fixture.ts';
import type { TestUser } from '../support/test-server.ts';

let f: MoneyFixture;
let brand: TestUser;
beforeAll(async () => {
  f = await startMoneyFixture();
  brand = await f.server.createUser({ role: 'brand' });
});
afterAll(() => f?.close());

const q = (sql: string, params: unknown[] = []) => f.server.db.pool.query(sql, params);
const balance = (dealId: string) => f.server.db.asService((tx) => dealBalance(tx, dealId));
const payment = async (user: TestUser, dealId: string) =>
  (await f.api(user, 'GET', `/api/deals/${dealId}/payment`)).body;
async function until(check: () => Promise<boolean>) {
  for (let i = 0; i < 200; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('condition never met');
}

type App = { id: string; dealId: string; creator: TestUser };

async function append(user: TestUser, app: App, event: Record<string, unknown>) {
  const doc = {
    id: randomUUID(),
    application_id: app.id,
    deal_id: app.dealId,
    author_id: user.id,
    _deleted: false,
    ...event,
  } as SyncDoc;
  return { id: doc.id, refused: await f.pushed(user, 'deal_events', doc) };
}

/** A deal of $500 with room for `maxCreators`. */
async function deal(maxCreators: number) {
  const dealId = randomUUID();
  await q(
    `insert into public.deals (id, brand_id, title, description, amount_cents, niches, deliverables, max_creators)
     values ($1, $2, 'Team launch', 'One reel each', 50000, '{fitness}', '{Instagram Post}', $3)`,
    [dealId, brand.id, maxCreators],
  );
  return dealId;
}

/** A creator applies at `priceCents`; resolves with the application and whether accepting it was refused. */
async function apply(dealId: string, priceCents: number): Promise<App> {
  const creator = await f.server.createUser({ role: 'creator' });
  const app = { id: randomUUID(), dealId, creator };
  const refused = await f.pushed(creator, 'applications', {
    id: app.id,
    deal_id: dealId,
    creator_id: creator.id,
    pitch: 'Me',
    proposed_price_cents: priceCents,
    _deleted: false,
  } as SyncDoc);
  expect(refused).toBeUndefined();
  return app;
}

/** The brand accepts the creator's offer (which fixes their price); the rule's code when refused. */
const accept = async (app: App) => (await append(brand, app, { kind: 'offer_accepted', ref_id: null })).refused;

async function agreeTerms(app: App) {
  expect((await append(app.creator, app, { kind: 'terms_accepted', terms_version: 1 })).refused).toBeUndefined();
  expect((await append(brand, app, { kind: 'terms_accepted', terms_version: 1 })).refused).toBeUndefined();
}

const draft = (app: App) =>
  ({
    id: randomUUID(),
    application_id: app.id,
    deal_id: app.dealId,
    author_id: app.creator.id,
    kind: 'draft',
    deliverable_id: 'd1',
    links: ['https://v.example/draft'],
    _deleted: false,
  }) as SyncDoc;

/** The brand pays the open funding (a top-up on a funded deal) with the 4242 card. */
async function fund(dealId: string, waitFor: App) {
  const start = await f.api(brand, 'POST', `/api/deals/${dealId}/fund`);
  expect(start.status).toBe(200);
  expect((await f.payOnHostedPage(String(start.body.url), '4242 4242 4242 4242')).status).toBe(303);
  await until(async () => Boolean((await f.pulled(waitFor.creator, 'applications', waitFor.id))?.price_funded_at));
}

/**
 * Every charge the local Stripe made for the deal, oldest first: captured, refunded, and the creators
 * it funds (none for a payment that funded nothing and was refunded).
 */
async function stripeCharges(dealId: string) {
  await f.localStripe.idle();
  const ids = f.localStripe.events
    .filter((e) => e.type === 'charge.succeeded' && (e.data.object.metadata as { deal_id?: string }).deal_id === dealId)
    .map((e) => String(e.data.object.id));
  const { rows } = await q(
    `select charge_id, creator_ids from public.deal_escrow_charges where deal_id = $1 and funded_at is not null`,
    [dealId],
  );
  return Promise.all(
    ids.map(async (id) => {
      const charge = await f.stripe.charges.retrieve(id);
      const funds = rows.find((r) => r.charge_id === id)?.creator_ids as string[] | undefined;
      return { id, creatorIds: funds ?? [], amount: charge.amount, refunded: charge.amount_refunded };
    }),
  );
}

/** Every captured cent is a charge row of the ledger, every refunded cent a refund row. */
async function expectReconciled(dealId: string) {
  const charges = await stripeCharges(dealId);
  const ledger = await balance(dealId);
  expect(ledger.chargeCents).toBe(charges.reduce((t, c) => t + c.amount, 0));
  expect(ledger.refundCents).toBe(charges.reduce((t, c) => t + c.refunded, 0));
  for (const c of charges) expect(c.refunded).toBeLessThanOrEqual(c.amount);
  return { ledger, charges };
}

/**
 * A $500 deal funded for its first creator, then a second creator at $300 accepted. The others
 * (at $200, $100, …) applied while the deal was open, and wait.
 */
async function fundedThenSecond(maxCreators = 2, others = 1) {
  const dealId = await deal(maxCreators);
  const first = await apply(dealId, 50_000);
  const second = await apply(dealId, 30_000);
  const waiting: App[] = [];
  for (let i = 0; i < others; i++) waiting.push(await apply(dealId, 20_000 - i * 10_000));
  expect(await accept(first)).toBeUndefined();
  await agreeTerms(first);
  await fund(dealId, first);
  expect(await accept(second)).toBeUndefined();
  await agreeTerms(second);
  return { dealId, first, second, others: waiting };
}

describe('a funded deal takes another creator, funded by a top-up', () => {
  test("the second creator's draft waits for the top-up of their price plus the fee; then it goes through, and every cent is in the ledger", async () => {
    const { dealId, first, second } = await fundedThenSecond();
    // Both devices see who is funded: the first creator's price is, the second's waits.
    expect((await f.pulled(first.creator, 'applications', first.id))?.price_funded_at).toBeTruthy();
    expect((await f.pulled(brand, 'applications', second.id))?.price_funded_at).toBeNull();
    expect((await f.pulled(second.creator, 'applications', second.id))?.price_funded_at).toBeNull();

    const waiting = draft(second);
    expect(await f.pushed(second.creator, 'deal_events', waiting)).toBe('not_funded');
    // Kept by the server: a device that marks its own price funded is refused (400), and still waits.
    const mine = (await f.pulled(second.creator, 'applications', second.id))!;
    const claim = { ...mine, price_funded_at: new Date().toISOString() };
    await expect(f.pushed(second.creator, 'applications', claim, mine)).rejects.toThrow('400');
    expect(await f.pushed(second.creator, 'deal_events', { ...waiting, id: randomUUID() })).toBe('not_funded');
    expect(await f.pushed(first.creator, 'deal_events', draft(first))).toBeUndefined();

    const topUp = dealPaymentSummary(30_000, { creatorIsPro: false });
    expect(await payment(brand, dealId)).toMatchObject({
      escrowStatus: 'pending',
      amountCents: 50_000,
      canFund: true,
      topUp: {
        creators: [{ creatorId: second.creator.id, priceCents: 30_000 }],
        amountCents: 30_000,
        serviceFeeCents: topUp.serviceFeeCents,
        totalCents: topUp.brandTotalCents,
      },
    });
    // That creator reads their own price, not yet funded (the money held is the other creator's).
    expect(await payment(second.creator, dealId)).toMatchObject({
      canFund: false,
      canDispute: false,
      amountCents: 30_000,
      chargedCents: 0,
      topUp: { amountCents: 30_000 },
    });
    // The first creator is funded, and does not read the other creator's price.
    expect(await payment(first.creator, dealId)).toMatchObject({ canFund: false, topUp: null });

    await fund(dealId, second);
    expect(await f.pushed(second.creator, 'deal_events', waiting)).toBeUndefined();
    const first$ = dealPaymentSummary(50_000, { creatorIsPro: false });
    expect(await payment(brand, dealId)).toMatchObject({
      amountCents: 80_000,
      serviceFeeCents: first$.serviceFeeCents + topUp.serviceFeeCents,
      chargedCents: first$.brandTotalCents + topUp.brandTotalCents,
      extraPaymentsRefundedCents: 0,
      canFund: false,
      checkoutOpen: false,
      topUp: null,
    });
    const { ledger, charges } = await expectReconciled(dealId);
    expect(charges.map((c) => c.amount)).toEqual([first$.brandTotalCents, topUp.brandTotalCents]);
    expect(ledger).toMatchObject({ feeCents: first$.serviceFeeCents + topUp.serviceFeeCents, heldCents: 80_000 });
    const { rows: told } = await q(
      `select message from public.notifications where user_id = $1 and type = 'escrow_funded' and data->>'deal_id' = $2`,
      [second.creator.id, dealId],
    );
    expect(told.map((r) => r.message)).toEqual([
      '"Team launch" is funded with $300.00 — you will be paid on completion.',
    ]);
  });

  test('max_creators still holds; an open top-up checkout blocks another acceptance until it is cancelled', async () => {
    const { dealId, second, others } = await fundedThenSecond(3, 2);
    const [third, fourth] = others as [App, App];
    const start = await f.api(brand, 'POST', `/api/deals/${dealId}/fund`);
    expect(start.status).toBe(200);
    expect(await payment(brand, dealId)).toMatchObject({ checkoutOpen: true, canCancelCheckout: true });
    expect(await accept(third)).toBe('amount_frozen');
    expect((await f.api(brand, 'POST', `/api/deals/${dealId}/fund/cancel`)).status).toBe(200);
    // The cancelled link can no longer be paid.
    expect((await f.payOnHostedPage(String(start.body.url), '4242 4242 4242 4242')).status).not.toBe(303);
    expect(await accept(third)).toBeUndefined();
    // One top-up funds both waiting creators: their prices plus the fee computed from them.
    expect(await payment(brand, dealId)).toMatchObject({ topUp: { amountCents: 50_000 } });
    await fund(dealId, second);
    expect((await f.pulled(third.creator, 'applications', third.id))?.price_funded_at).toBeTruthy();
    expect(await accept(fourth)).toBe('max_creators_reached');
    const { ledger } = await expectReconciled(dealId);
    expect(ledger.heldCents).toBe(100_000);
  });

  test('each creator is paid from the charge that funded their price', async () => {
    const { dealId, first, second, others } = await fundedThenSecond(3);
    await fund(dealId, second);
    await f.setUpPayouts(first.creator);
    await f.setUpPayouts(second.creator);
    await completeDeal(f.server, dealId);
    const released = await f.api(brand, 'POST', '/api/release-escrow', { dealId });
    expect(released.status).toBe(200);
    const charges = await stripeCharges(dealId);
    const { rows: transfers } = await q(
      `select user_id, stripe_ref, amount_cents from public.ledger_entries where deal_id = $1 and kind = 'transfer'`,
      [dealId],
    );
    expect(transfers).toHaveLength(2);
    for (const row of transfers) {
      const transfer = await f.stripe.transfers.retrieve(row.stripe_ref);
      const funding = charges.find((c) => c.creatorIds.includes(row.user_id))!;
      expect(transfer.source_transaction).toBe(funding.id);
      expect(transfer.amount).toBe(Number(row.amount_cents));
    }
    const paid = Object.fromEntries(transfers.map((r) => [r.user_id, Number(r.amount_cents)]));
    expect(paid).toEqual({
      [first.creator.id]: dealPaymentSummary(50_000, { creatorIsPro: false }).creatorPayoutCents,
      [second.creator.id]: dealPaymentSummary(30_000, { creatorIsPro: false }).creatorPayoutCents,
    });
    const { ledger } = await expectReconciled(dealId);
    expect(ledger.heldCents).toBe(0);
    // Completed and paid out: no other creator joins.
    expect(await accept(others[0]!)).toBe('deal_closed');
  });

  test('a cancelled deal with two charges is refunded from both, each in full and no more', async () => {
    const { dealId, second } = await fundedThenSecond();
    await fund(dealId, second);
    await f.server.db.asService((tx) =>
      tx.query(`update public.deals set status = 'cancelled' where id = $1`, [dealId]),
    );
    await until(async () => (await f.escrowStatus(dealId)) === 'refunded');
    const { ledger, charges } = await expectReconciled(dealId);
    for (const c of charges) expect(c.refunded).toBe(c.amount);
    expect(ledger).toMatchObject({ feeCents: 0, heldCents: 0, refundCents: ledger.chargeCents });
  });

  test('staff resolve a dispute over two charges: the refund takes from each no more than it holds, the rest pays the creator', async () => {
    const { dealId, first, second, others } = await fundedThenSecond(3);
    await fund(dealId, second);
    await f.setUpPayouts(first.creator);
    const admin = await f.server.createUser({ role: 'admin' });
    const opened = await f.api(first.creator, 'POST', `/api/deals/${dealId}/dispute`, {
      reason: 'The brand asked for a second reel it never agreed to.',
    });
    expect(opened.status).toBe(200);
    // Disputed: no creator joins until staff decide.
    expect(await accept(others[0]!)).toBe('deal_disputed');
    const path = `/api/admin/deals/${dealId}/resolve-dispute`;
    expect((await f.api(admin, 'POST', path, { refundCents: 80_001 })).status).toBe(400);
    // $400 back: all of the $300 top-up and $100 of the first charge, each with its share of the fee.
    const resolved = await f.api(admin, 'POST', path, { refundCents: 40_000 });
    expect(resolved.status).toBe(200);
    expect(resolved.body).toMatchObject({ refundedCents: 33_600 + 11_200, escrowStatus: 'released' });
    const { ledger, charges } = await expectReconciled(dealId);
    expect(charges.map((c) => c.refunded)).toEqual([11_200, 33_600]);
    expect(ledger.heldCents).toBe(0);
    expect(ledger.transferCents + ledger.commissionCents).toBe(40_000);
  });

  test('a card dispute on the top-up freezes the deal; lost at the bank, it takes back that charge only, and staff decide the rest', async () => {
    const { dealId, first } = await fundedThenSecond();
    await f.setUpPayouts(first.creator);
    // The 0259 card pays the top-up and is then disputed with the bank.
    const start = await f.api(brand, 'POST', `/api/deals/${dealId}/fund`);
    expect((await f.payOnHostedPage(String(start.body.url), '4000000000000259')).status).toBe(303);
    await until(async () => (await f.escrowStatus(dealId)) === 'disputed');
    const { rows } = await q(`select stripe_dispute_id from public.deal_escrows where deal_id = $1`, [dealId]);
    await f.stripe.disputes.update(rows[0].stripe_dispute_id, { evidence: { uncategorized_text: 'losing_evidence' } });
    await until(async () => (await balance(dealId)).heldCents === 50_000);
    expect(await f.escrowStatus(dealId)).toBe('disputed');
    expect(await balance(dealId)).toMatchObject({
      chargeCents: 56_000 + 33_600,
      refundCents: 33_600,
      feeCents: 6_000,
    });
    const admin = await f.server.createUser({ role: 'admin' });
    const resolved = await f.api(admin, 'POST', `/api/admin/deals/${dealId}/resolve-dispute`, { refundCents: 0 });
    expect(resolved.body).toMatchObject({ escrowStatus: 'released', refundedCents: 0, transferCents: 47_500 });
    expect((await balance(dealId)).heldCents).toBe(0);
  });

  test('the brand may drop a creator whose top-up is not paid, never while its checkout is open; a funded one stays', async () => {
    const { dealId, first, second } = await fundedThenSecond();
    const reject = async (app: App) => {
      const doc = (await f.pulled(brand, 'applications', app.id))!;
      return f.pushed(brand, 'applications', { ...doc, status: 'rejected' }, doc);
    };
    expect(await reject(first)).toBe('creator_on_funded_deal');
    const start = await f.api(brand, 'POST', `/api/deals/${dealId}/fund`);
    expect(start.status).toBe(200);
    expect(await reject(second)).toBe('amount_frozen');
    expect((await f.api(brand, 'POST', `/api/deals/${dealId}/fund/cancel`)).status).toBe(200);
    expect(await reject(second)).toBeUndefined();
    expect(await payment(brand, dealId)).toMatchObject({ topUp: null, canFund: false, amountCents: 50_000 });
  });

  test('the first charge never pays a creator it did not fund: the funded creator left, the one accepted since is not paid from it', async () => {
    const dealId = await deal(2);
    const first = await apply(dealId, 50_000);
    const second = await apply(dealId, 50_000);
    expect(await accept(first)).toBeUndefined();
    await fund(dealId, first);
    const app = (await f.pulled(first.creator, 'applications', first.id))!;
    expect(await f.pushed(first.creator, 'applications', { ...app, status: 'withdrawn' }, app)).toBeUndefined();
    expect(await accept(second)).toBeUndefined();
    await f.setUpPayouts(second.creator);
    await completeDeal(f.server, dealId);
    const release = await f.api(brand, 'POST', '/api/release-escrow', { dealId });
    expect(release.body).toMatchObject({ code: 'amount_mismatch' });
    expect(await balance(dealId)).toMatchObject({ transferCents: 0, heldCents: 50_000 });
  });

  test('a top-up paid for a creator who left meanwhile is refunded at once, not funded', async () => {
    const { dealId, second } = await fundedThenSecond();
    const start = await f.api(brand, 'POST', `/api/deals/${dealId}/fund`);
    // The creator leaves the deal while the checkout is open.
    const app = (await f.pulled(second.creator, 'applications', second.id))!;
    expect(await f.pushed(second.creator, 'applications', { ...app, status: 'withdrawn' }, app)).toBeUndefined();
    expect((await f.payOnHostedPage(String(start.body.url), '4242 4242 4242 4242')).status).toBe(303);
    await until(async () => (await payment(brand, dealId)).extraPaymentsRefundedCents === 33_600);
    const { ledger } = await expectReconciled(dealId);
    expect(ledger.heldCents).toBe(50_000);
  });
});
