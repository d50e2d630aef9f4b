import { afterAll, beforeAll, expect, test } from 'vitest';
import { dealBalance } from '../../sync-server/payments/ledger.ts';
import { completeDeal, startMoneyFixture, type MoneyFixture } from './money-fixture.ts';

let f: MoneyFixture;
beforeAll(async () => {
  f = await startMoneyFixture();
});
afterAll(() => f?.close());

const balance = (dealId: string) => f.server.db.asService((tx) => dealBalance(tx, dealId));
const transfersOf = async (dealId: string) => {
  const { rows } = await f.server.db.pool.query(`select transfer_id from public.deal_escrows where deal_id = $1`, [
    dealId,
  ]);
  return rows[0]?.transfer_id ? [await f.stripe.transfers.retrieve(rows[0].transfer_id)] : [];
};
const waitFor = async (check: () => Promise<boolean>) => {
  for (let i = 0; i < 200; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('condition never met');
};

test('a declined card leaves escrow unfunded and says why; a good card then funds it', async () => {
  const brand = await f.server.createUser({ role: 'brand' });
  const creator = await f.server.createUser({ role: 'creator' });
  const dealId = await f.dealWithAcceptedCreator(brand, creator, 10_000);
  const start = await f.api(brand, 'POST', `/api/deals/${dealId}/fund`);
  expect(start.status).toBe(200);
  const declined = await f.payOnHostedPage(String(start.body.url), '4000 0000 0000 0002');
  expect(declined.status).toBe(402);
  expect(declined.html).toContain('Your card was declined.');
  await f.localStripe.idle();
  expect(await f.escrowStatus(dealId)).toBe('none');
  const view = await f.api(brand, 'GET', `/api/deals/${dealId}/payment`);
  expect(view.body).toMatchObject({
    escrowStatus: 'none',
    lastPaymentError: 'Your card was declined.',
    canFund: true,
    brandTotalCents: 11_200,
  });
  expect((await balance(dealId)).chargeCents).toBe(0);

  const paid = await f.payOnHostedPage(String(start.body.url), '4242 4242 4242 4242');
  expect(paid.status).toBe(303);
  expect(paid.location).toContain(`/deals/${dealId}?funding=success`);
  await waitFor(async () => (await f.escrowStatus(dealId)) === 'pending');
  expect(await balance(dealId)).toMatchObject({ chargeCents: 11_200, feeCents: 1_200, heldCents: 10_000 });
  const creatorView = await f.api(creator, 'GET', `/api/deals/${dealId}/payment`);
  expect(creatorView.body).toMatchObject({
    escrowStatus: 'pending',
    lastPaymentError: null,
    creatorPayoutCents: 9_500,
    viewer: 'creator',
  });
});

test('release: only the brand or an admin (403 for the creator, 404 for a stranger), only when completed and payouts are set up; pays once', async () => {
  const brand = await f.server.createUser({ role: 'brand' });
  const creator = await f.server.createUser({ role: 'creator' });
  const stranger = await f.server.createUser({ role: 'brand' });
  const dealId = await f.dealWithAcceptedCreator(brand, creator, 100_000);
  await f.fundDeal(brand, dealId);

  // A stranger is told what a missing deal would tell them; the deal's creator, that it is not theirs to release.
  const hidden = await f.api(stranger, 'POST', '/api/release-escrow', { dealId });
  expect(hidden.status).toBe(404);
  expect(hidden.body).toMatchObject({ code: 'deal_not_found' });
  const refused = await f.api(creator, 'POST', '/api/release-escrow', { dealId });
  expect(refused.status).toBe(403);
  expect(refused.body).toMatchObject({ code: 'not_deal_owner' });
  expect((await f.api(brand, 'POST', '/api/release-escrow', { dealId })).body).toMatchObject({
    code: 'deal_not_completed',
    message: 'The deal is not completed yet.',
  });
  await completeDeal(f.server, dealId);
  const noPayouts = await f.api(brand, 'POST', '/api/release-escrow', { dealId });
  expect(noPayouts.status).toBe(409);
  expect(noPayouts.body).toMatchObject({
    code: 'payouts_not_set_up',
    message: 'The creator has not set up payouts yet.',
  });
  expect(await f.escrowStatus(dealId)).toBe('pending');

  await f.setUpPayouts(creator);
  // A double click: two requests at once.
  const [a, b] = await Promise.all([
    f.api(brand, 'POST', '/api/release-escrow', { dealId }),
    f.api(brand, 'POST', '/api/release-escrow', { dealId }),
  ]);
  expect([a.status, b.status]).toEqual([200, 200]);
  expect([a.body.alreadyReleased, b.body.alreadyReleased].sort()).toEqual([false, true]);
  const again = await f.api(brand, 'POST', '/api/release-escrow', { dealId });
  expect(again.body).toMatchObject({ alreadyReleased: true, transferCents: 95_000 });
  expect(await f.escrowStatus(dealId)).toBe('released');
  const transfers = await transfersOf(dealId);
  expect(transfers).toHaveLength(1);
  expect(transfers[0]).toMatchObject({ amount: 95_000, transfer_group: `deal_${dealId}` });
  await f.localStripe.idle();
  const transferEvents = f.localStripe.events.filter(
    (e) => e.type === 'transfer.created' && e.data.object.transfer_group === `deal_${dealId}`,
  );
  expect(transferEvents).toHaveLength(1);
  expect(await balance(dealId)).toEqual({
    chargeCents: 112_000,
    refundCents: 0,
    feeCents: 12_000,
    commissionCents: 5_000,
    transferCents: 95_000,
    heldCents: 0,
  });
  const view = await f.api(creator, 'GET', `/api/deals/${dealId}/payment`);
  expect(view.body).toMatchObject({ escrowStatus: 'released', creatorPayoutCents: 95_000, commissionCents: 5_000 });
});

test('a Pro creator pays 2.5% commission at release time; an admin may release too', async () => {
  const brand = await f.server.createUser({ role: 'brand' });
  const creator = await f.server.createUser({ role: 'creator' });
  const admin = await f.server.createUser({ role: 'admin' });
  const dealId = await f.dealWithAcceptedCreator(brand, creator, 10_001);
  await f.fundDeal(brand, dealId);
  await f.setUpPayouts(creator);
  await completeDeal(f.server, dealId);
  await f.server.db.asService((tx) =>
    tx.query(`update public.profiles set pro_tier = 'premium', pro_until = now() + interval '30 days' where id = $1`, [
      creator.id,
    ]),
  );
  const released = await f.api(admin, 'POST', '/api/release-escrow', { dealId });
  expect(released.status).toBe(200);
  expect(released.body.transferCents).toBe(10_001 - 250);
  expect((await balance(dealId)).heldCents).toBe(0);
});

test('a creator Pro through the 10-referral grant pays 2.5% at release; so does one with only the lower-commission grant', async () => {
  const brand = await f.server.createUser({ role: 'brand' });
  const booster = await f.server.createUser({ role: 'creator' });
  const discounted = await f.server.createUser({ role: 'creator' });
  const referred = await Promise.all(Array.from({ length: 10 }, () => f.server.createUser({ role: 'brand' })));
  await f.server.db.asService(async (tx) => {
    for (const r of referred) {
      await tx.query(
        `insert into public.referrals (referrer_id, referred_user_id, qualified, qualified_at) values ($1, $2, true, now())`,
        [booster.id, r.id],
      );
    }
    // The rule the growth engine runs when a referral qualifies: 10 qualified referrals bring Pro for a year.
    await tx.query(`select pacta_private.award_referral_badges($1)`, [booster.id]);
    // Only the lower commission, without Pro access (a support gesture): still 2.5%, not Pro.
    await tx.query(`select pacta_private.grant_pro_features($1, array['lower_commission'], interval '30 days')`, [
      discounted.id,
    ]);
  });
  const { rows } = await f.server.db.pool.query(
    `select pro_tier, public.is_pro_user(id) as is_pro from public.profiles where id = any($1) order by id = $2 desc`,
    [[booster.id, discounted.id], booster.id],
  );
  expect(rows).toEqual([
    { pro_tier: 'free', is_pro: true },
    { pro_tier: 'free', is_pro: false },
  ]);
  for (const creator of [booster, discounted]) {
    const dealId = await f.dealWithAcceptedCreator(brand, creator, 20_000);
    await f.fundDeal(brand, dealId);
    await f.setUpPayouts(creator);
    await completeDeal(f.server, dealId);
    expect((await f.api(creator, 'GET', `/api/deals/${dealId}/payment`)).body).toMatchObject({
      commissionBp: 250,
      commissionCents: 500,
      creatorPayoutCents: 19_500,
    });
    const released = await f.api(brand, 'POST', '/api/release-escrow', { dealId });
    expect(released.status).toBe(200);
    expect(released.body.transferCents).toBe(19_500);
    expect(await balance(dealId)).toMatchObject({ commissionCents: 500, transferCents: 19_500, heldCents: 0 });
    const memo = await f.server.db.pool.query(
      `select memo from public.ledger_entries where deal_id = $1 and kind = 'commission'`,
      [dealId],
    );
    expect(memo.rows).toEqual([{ memo: 'Commission (2.5%)' }]);
  }
});

test("a released payout to a referred creator gives the referrer 5% of it once; a double release gives no second; an unreferred creator's gives none", async () => {
  const brand = await f.server.createUser({ role: 'brand' });
  const referrer = await f.server.createUser({ role: 'creator' });
  const creator = await f.server.createUser({ role: 'creator' });
  const loner = await f.server.createUser({ role: 'creator' });
  await f.server.db.asService((tx) =>
    tx.query(`insert into public.referrals (referrer_id, referred_user_id) values ($1, $2)`, [referrer.id, creator.id]),
  );
  const rewards = async () =>
    (
      await f.server.db.pool.query(
        `select reward_type, amount_cents, status, deal_id from public.referral_rewards where referrer_id = $1`,
        [referrer.id],
      )
    ).rows;

  const dealId = await f.dealWithAcceptedCreator(brand, creator, 40_000);
  await f.fundDeal(brand, dealId);
  await f.setUpPayouts(creator);
  await completeDeal(f.server, dealId);
  expect(await rewards()).toEqual([]);
  const [a, b] = await Promise.all([
    f.api(brand, 'POST', '/api/release-escrow', { dealId }),
    f.api(brand, 'POST', '/api/release-escrow', { dealId }),
  ]);
  expect([a.body.alreadyReleased, b.body.alreadyReleased].sort()).toEqual([false, true]);
  expect((await f.api(brand, 'POST', '/api/release-escrow', { dealId })).body).toMatchObject({ alreadyReleased: true });
  // The payout is $400 − 5% = $380; the referrer's share is 5% of it.
  expect(await rewards()).toEqual([
    { reward_type: 'deal_earnings_share', amount_cents: 1_900, status: 'pending', deal_id: dealId },
  ]);

  // The automatic release job pays through the same path: nothing for a creator nobody referred.
  const other = await f.dealWithAcceptedCreator(brand, loner, 10_000);
  await f.fundDeal(brand, other);
  await f.setUpPayouts(loner);
  await completeDeal(f.server, other, 15);
  expect((await f.server.app.pactaPayments!.jobs.run()).released).toEqual([other]);
  expect(
    (await f.server.db.pool.query(`select count(*)::int as n from public.referral_rewards where deal_id = $1`, [other]))
      .rows[0].n,
  ).toBe(0);
  expect(await rewards()).toHaveLength(1);
});

test('the automatic release job pays completed deals after 14 days, never disputed or younger ones', async () => {
  const brand = await f.server.createUser({ role: 'brand' });
  const creator = await f.server.createUser({ role: 'creator' });
  await f.setUpPayouts(creator);
  const due = await f.dealWithAcceptedCreator(brand, creator, 30_000);
  const young = await f.dealWithAcceptedCreator(brand, creator, 30_000);
  const disputed = await f.dealWithAcceptedCreator(brand, creator, 30_000);
  for (const id of [due, young, disputed]) await f.fundDeal(brand, id);
  await completeDeal(f.server, due, 15);
  await completeDeal(f.server, young, 13);
  await completeDeal(f.server, disputed, 15);
  const opened = await f.api(creator, 'POST', `/api/deals/${disputed}/dispute`, {
    reason: 'The brand never confirmed the delivery.',
  });
  expect(opened.status).toBe(200);

  const result = await f.server.app.pactaPayments!.jobs.run();
  expect(result.released).toEqual([due]);
  expect(await f.escrowStatus(due)).toBe('released');
  expect(await f.escrowStatus(young)).toBe('pending');
  expect(await f.escrowStatus(disputed)).toBe('disputed');
  expect((await transfersOf(due))[0]).toMatchObject({ amount: 28_500 });
  // A second run pays nothing more.
  expect((await f.server.app.pactaPayments!.jobs.run()).released).toEqual([]);
});

test('a dispute opened by the creator freezes the release; staff refund half; both sides are told; the ledger balances', async () => {
  const brand = await f.server.createUser({ role: 'brand' });
  const creator = await f.server.createUser({ role: 'creator' });
  const admin = await f.server.createUser({ role: 'admin' });
  const dealId = await f.dealWithAcceptedCreator(brand, creator, 50_000);
  await f.fundDeal(brand, dealId);
  await f.setUpPayouts(creator);
  await completeDeal(f.server, dealId);
  expect((await f.api(creator, 'POST', `/api/deals/${dealId}/dispute`, { reason: 'short' })).status).toBe(400);
  const opened = await f.api(creator, 'POST', `/api/deals/${dealId}/dispute`, {
    reason: 'Half of the deliverables were accepted, then the brand went silent.',
  });
  expect(opened.status).toBe(200);
  expect(await f.escrowStatus(dealId)).toBe('disputed');
  const { rows: tickets } = await f.server.db.pool.query(
    `select kind, deal_id, user_id, priority from public.support_tickets where id = $1`,
    [opened.body.ticketId],
  );
  expect(tickets[0]).toEqual({ kind: 'dispute', deal_id: dealId, user_id: creator.id, priority: 'high' });
  const { rows: told } = await f.server.db.pool.query(
    `select user_id from public.notifications where type = 'dispute_opened' and data->>'deal_id' = $1`,
    [dealId],
  );
  expect(told.map((r) => r.user_id).sort()).toEqual([brand.id, creator.id].sort());

  const frozen = await f.api(brand, 'POST', '/api/release-escrow', { dealId });
  expect(frozen.status).toBe(409);
  expect(frozen.body).toMatchObject({ code: 'deal_disputed' });
  expect(
    (await f.api(brand, 'POST', `/api/admin/deals/${dealId}/resolve-dispute`, { refundCents: 25_000 })).status,
  ).toBe(403);
  expect(
    (await f.api(admin, 'POST', `/api/admin/deals/${dealId}/resolve-dispute`, { refundCents: 60_000 })).status,
  ).toBe(400);

  const resolved = await f.api(admin, 'POST', `/api/admin/deals/${dealId}/resolve-dispute`, { refundCents: 25_000 });
  expect(resolved.status).toBe(200);
  // Half the amount and half the service fee go back; the other half is paid minus 5%.
  expect(resolved.body).toMatchObject({ escrowStatus: 'released', refundedCents: 28_000, transferCents: 23_750 });
  expect(await balance(dealId)).toEqual({
    chargeCents: 56_000,
    refundCents: 28_000,
    feeCents: 3_000,
    commissionCents: 1_250,
    transferCents: 23_750,
    heldCents: 0,
  });
  const { rows: resolvedNotes } = await f.server.db.pool.query(
    `select user_id from public.notifications where type = 'dispute_resolved' and data->>'deal_id' = $1`,
    [dealId],
  );
  expect(resolvedNotes).toHaveLength(2);
  // Each side is told once: no second "Dispute resolved" from the payout, no separate refund notice.
  const { rows: afterResolve } = await f.server.db.pool.query(
    `select user_id, title from public.notifications
      where data->>'deal_id' = $1 and type in ('dispute_resolved', 'payout_released', 'escrow_refunded')`,
    [dealId],
  );
  expect(afterResolve.map((r) => `${r.user_id === brand.id ? 'brand' : 'creator'}: ${r.title}`).sort()).toEqual([
    'brand: Dispute resolved',
    'creator: Dispute resolved',
  ]);
  const ledger = await f.api(admin, 'GET', `/api/admin/ledger?dealId=${dealId}`);
  expect(ledger.status).toBe(200);
  expect((ledger.body.entries as { kind: string }[]).map((e) => e.kind).sort()).toEqual([
    'charge',
    'commission',
    'fee',
    'fee',
    'refund',
    'transfer',
  ]);
  expect(ledger.body.balances).toEqual([expect.objectContaining({ dealId, heldCents: 0 })]);
  expect((await f.api(brand, 'GET', '/api/admin/ledger')).status).toBe(403);
});

test('disputes are possible only for the parties of a funded deal, within 30 days of completion', async () => {
  const brand = await f.server.createUser({ role: 'brand' });
  const creator = await f.server.createUser({ role: 'creator' });
  const outsider = await f.server.createUser({ role: 'creator' });
  const dealId = await f.dealWithAcceptedCreator(brand, creator, 12_000);
  const reason = 'The deliverables never arrived as agreed.';
  expect((await f.api(creator, 'POST', `/api/deals/${dealId}/dispute`, { reason })).body).toMatchObject({
    code: 'not_funded',
  });
  await f.fundDeal(brand, dealId);
  expect((await f.api(outsider, 'POST', `/api/deals/${dealId}/dispute`, { reason })).status).toBe(404);
  await completeDeal(f.server, dealId, 31);
  const late = await f.api(brand, 'POST', `/api/deals/${dealId}/dispute`, { reason });
  expect(late.status).toBe(409);
  expect(late.body).toMatchObject({
    code: 'dispute_window_closed',
    message: 'Disputes must be opened within 30 days of completion.',
  });
  expect(await f.escrowStatus(dealId)).toBe('pending');
});

test('a funded deal cancelled before completion is refunded in full', async () => {
  const brand = await f.server.createUser({ role: 'brand' });
  const creator = await f.server.createUser({ role: 'creator' });
  const dealId = await f.dealWithAcceptedCreator(brand, creator, 40_000);
  await f.fundDeal(brand, dealId);
  await f.server.db.asService((tx) => tx.query(`update public.deals set status = 'cancelled' where id = $1`, [dealId]));
  // The cancellation wakes the money jobs through NOTIFY.
  await waitFor(async () => (await f.escrowStatus(dealId)) === 'refunded');
  expect(await balance(dealId)).toEqual({
    chargeCents: 44_800,
    refundCents: 44_800,
    feeCents: 0,
    commissionCents: 0,
    transferCents: 0,
    heldCents: 0,
  });
});

test('a card dispute from the bank freezes the deal', async () => {
  const brand = await f.server.createUser({ role: 'brand' });
  const creator = await f.server.createUser({ role: 'creator' });
  const dealId = await f.dealWithAcceptedCreator(brand, creator, 10_000);
  const start = await f.api(brand, 'POST', `/api/deals/${dealId}/fund`);
  expect((await f.payOnHostedPage(String(start.body.url), '4000000000000259')).status).toBe(303);
  await waitFor(async () => (await f.escrowStatus(dealId)) === 'disputed');
  await completeDeal(f.server, dealId, 20);
  expect((await f.server.app.pactaPayments!.jobs.run()).released).not.toContain(dealId);
  expect((await f.api(brand, 'POST', '/api/release-escrow', { dealId })).body).toMatchObject({ code: 'deal_disputed' });
});
