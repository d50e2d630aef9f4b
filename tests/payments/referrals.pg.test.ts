// "A referral qualifies only on a real deal": funded and released through Stripe, of at least
// REFERRAL_MIN_DEAL_CENTS, with a counterparty who is not one of the referrer's own accounts.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { REFERRAL_MIN_DEAL_CENTS } from '../../src/domain/fees.ts';
import { completeDeal, startMoneyFixture, type MoneyFixture } from './money-fixture.ts';
import type { TestUser } from '../support/test-server.ts';

let f: MoneyFixture;
beforeAll(async () => {
  f = await startMoneyFixture();
});
afterAll(() => f?.close());

async function referred(referrer: TestUser, role: 'creator' | 'brand'): Promise<TestUser> {
  const user = await f.server.createUser({ role });
  await f.server.db.asService((tx) =>
    tx.query(`insert into public.referrals (referrer_id, referred_user_id) values ($1, $2)`, [referrer.id, user.id]),
  );
  return user;
}

const qualified = async (user: TestUser) =>
  (await f.server.db.pool.query(`select qualified from public.referrals where referred_user_id = $1`, [user.id]))
    .rows[0].qualified as boolean;
const qualifiedCount = async (referrer: TestUser) =>
  (
    await f.server.db.pool.query(
      `select count(*)::int as n from public.referrals where referrer_id = $1 and qualified`,
      [referrer.id],
    )
  ).rows[0].n as number;

/** A deal funded through Checkout, completed and released by the brand through the API. */
async function releasedDeal(brand: TestUser, creator: TestUser, amountCents: number) {
  const dealId = await f.dealWithAcceptedCreator(brand, creator, amountCents);
  await f.fundDeal(brand, dealId);
  await f.setUpPayouts(creator);
  await completeDeal(f.server, dealId);
  const released = await f.api(brand, 'POST', '/api/release-escrow', { dealId });
  expect(released.status).toBe(200);
  return dealId;
}

test('the minimum is one rule on both sides', async () => {
  const { rows } = await f.server.db.pool.query(`select public.referral_min_deal_cents() as cents`);
  expect(rows[0].cents).toBe(REFERRAL_MIN_DEAL_CENTS);
});

test('ten throwaway sign-ups and $1 deals earn nothing: accepting is not a deal, nor is a deal below the minimum', async () => {
  const referrer = await f.server.createUser({ role: 'creator' });
  const throwaways = [];
  for (let i = 0; i < 10; i++) throwaways.push(await referred(referrer, 'brand'));
  // Each throwaway brand accepts the referrer on a $1 deal, funds and releases it.
  for (const brand of throwaways.slice(0, 2)) await releasedDeal(brand, referrer, 100);
  // The rest only accept (the old rule qualified here).
  for (const brand of throwaways.slice(2)) await f.dealWithAcceptedCreator(brand, referrer, 100);
  expect(await qualifiedCount(referrer)).toBe(0);
  const { rows } = await f.server.db.pool.query(`select badge_type from public.referral_badges where user_id = $1`, [
    referrer.id,
  ]);
  expect(rows).toEqual([]);
  expect((await f.server.db.pool.query(`select public.is_pro_user($1) as pro`, [referrer.id])).rows[0].pro).toBe(false);
});

test("a deal with the referrer's own accounts does not qualify: the referrer, or someone else they referred", async () => {
  const referrer = await f.server.createUser({ role: 'brand' });
  const brandAlt = await referred(referrer, 'brand');
  const creatorAlt = await referred(referrer, 'creator');
  await releasedDeal(brandAlt, creatorAlt, REFERRAL_MIN_DEAL_CENTS);
  expect(await qualified(brandAlt)).toBe(false);
  expect(await qualified(creatorAlt)).toBe(false);

  const creatorOfReferrer = await referred(referrer, 'creator');
  await releasedDeal(referrer, creatorOfReferrer, REFERRAL_MIN_DEAL_CENTS);
  expect(await qualified(creatorOfReferrer)).toBe(false);
  expect(await qualifiedCount(referrer)).toBe(0);
});

test('a funded and released deal of at least the minimum with an unrelated counterparty qualifies, once', async () => {
  const referrer = await f.server.createUser({ role: 'creator' });
  const brand = await referred(referrer, 'brand');
  const stranger = await f.server.createUser({ role: 'creator' });

  // Funded but not released yet: not qualified.
  const dealId = await f.dealWithAcceptedCreator(brand, stranger, REFERRAL_MIN_DEAL_CENTS);
  await f.fundDeal(brand, dealId);
  await f.setUpPayouts(stranger);
  await completeDeal(f.server, dealId);
  expect(await qualified(brand)).toBe(false);
  expect((await f.api(brand, 'POST', '/api/release-escrow', { dealId })).status).toBe(200);
  expect(await qualified(brand)).toBe(true);
  const xp = await f.server.db.pool.query(
    `select count(*)::int as n from public.xp_logs where user_id = $1 and action = 'REFERRAL_QUALIFIED'`,
    [referrer.id],
  );
  expect(xp.rows[0].n).toBe(1);
  await releasedDeal(brand, stranger, REFERRAL_MIN_DEAL_CENTS);
  expect(await qualifiedCount(referrer)).toBe(1);
});
