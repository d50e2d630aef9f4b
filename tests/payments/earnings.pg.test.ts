import { afterAll, beforeAll, expect, test } from 'vitest';
import { completeDeal, startMoneyFixture, type MoneyFixture } from './money-fixture.ts';

let f: MoneyFixture;
beforeAll(async () => {
  f = await startMoneyFixture();
});
afterAll(() => f?.close());

type Earning = Record<string, unknown> & { dealId: string };
const earningsOf = async (user: Parameters<MoneyFixture['api']>[0]) => {
  const answer = await f.api(user, 'GET', '/api/earnings');
  expect(answer.status).toBe(200);
  return answer.body as { earnings: Earning[]; totals: Record<string, number> };
};

test('earnings list what was paid and what escrow holds, with the figures of the payment panel and the ledger', async () => {
  const brand = await f.server.createUser({ role: 'brand', fullName: 'Northwind Outdoors' });
  const creator = await f.server.createUser({ role: 'creator' });
  await f.setUpPayouts(creator);

  const paidDeal = await f.dealWithAcceptedCreator(brand, creator, 40_000);
  await f.fundDeal(brand, paidDeal);
  await completeDeal(f.server, paidDeal);
  expect((await f.api(brand, 'POST', '/api/release-escrow', { dealId: paidDeal })).status).toBe(200);

  const heldDeal = await f.dealWithAcceptedCreator(brand, creator, 12_345);
  await f.fundDeal(brand, heldDeal);
  await completeDeal(f.server, heldDeal, 2);

  const notFunded = await f.dealWithAcceptedCreator(brand, creator, 9_900);

  const { earnings, totals } = await earningsOf(creator);
  expect(earnings.map((e) => e.dealId)).toEqual([heldDeal, paidDeal]);
  expect(earnings.some((e) => e.dealId === notFunded)).toBe(false);

  const paid = earnings.find((e) => e.dealId === paidDeal)!;
  const paidPanel = (await f.api(creator, 'GET', `/api/deals/${paidDeal}/payment`)).body;
  expect(paid).toMatchObject({
    status: 'paid',
    brandName: 'Northwind Outdoors',
    amountCents: 40_000,
    commissionBp: 500,
    commissionCents: 2_000,
    payoutCents: 38_000,
    releaseAt: null,
  });
  expect(paid.payoutCents).toBe(paidPanel.creatorPayoutCents);
  expect(paid.commissionCents).toBe(paidPanel.commissionCents);
  expect(paid.paidAt).toEqual(expect.any(String));

  const held = earnings.find((e) => e.dealId === heldDeal)!;
  const heldPanel = (await f.api(creator, 'GET', `/api/deals/${heldDeal}/payment`)).body;
  expect(held).toMatchObject({ status: 'held', amountCents: 12_345, commissionBp: 500, paidAt: null });
  expect(held.payoutCents).toBe(heldPanel.creatorPayoutCents);
  expect(held.commissionCents).toBe(heldPanel.commissionCents);
  // Released on its own 14 days after completion: the very date the payment panel promises.
  expect(held.releaseAt).toEqual(heldPanel.autoReleaseAt);
  expect(held.releaseAt).not.toBeNull();

  // The totals are the ledger's: every transfer to the creator, and what escrow still holds for them.
  const { rows } = await f.server.db.pool.query(
    `select coalesce(sum(amount_cents), 0)::int as paid from public.ledger_entries where user_id = $1 and kind = 'transfer'`,
    [creator.id],
  );
  expect(totals).toEqual({ paidCents: rows[0].paid, heldCents: held.payoutCents, commissionCents: 2_000 });
  expect(totals.paidCents).toBe(38_000);
});

test('a dispute holds the payout without a release date; a brand and a stranger see no one else’s earnings', async () => {
  const brand = await f.server.createUser({ role: 'brand' });
  const creator = await f.server.createUser({ role: 'creator' });
  const stranger = await f.server.createUser({ role: 'creator' });
  const dealId = await f.dealWithAcceptedCreator(brand, creator, 20_000);
  await f.fundDeal(brand, dealId);
  expect((await f.api(brand, 'POST', `/api/deals/${dealId}/dispute`, { reason: 'Nothing was posted.' })).status).toBe(
    200,
  );

  const { earnings } = await earningsOf(creator);
  expect(earnings).toEqual([
    expect.objectContaining({ dealId, status: 'disputed', payoutCents: 19_000, releaseAt: null }),
  ]);
  expect((await earningsOf(brand)).earnings).toEqual([]);
  expect((await earningsOf(stranger)).earnings).toEqual([]);
  const signedOut = await f.api(undefined, 'GET', '/api/earnings');
  expect(signedOut.status).toBe(401);
});
