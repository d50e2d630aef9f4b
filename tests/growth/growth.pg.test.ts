import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createDatabase, type Database } from '../../sync-server/db/database.ts';
import { COMMISSION_BP, PRO_COMMISSION_BP, REFERRAL_MIN_DEAL_CENTS } from '../../src/domain/fees.ts';
import { profileCompleteness } from '../../src/domain/profile-completeness.ts';
import { LEVEL_THRESHOLDS, XP_AWARDS } from '../../src/domain/xp.ts';
import { createTestDatabase } from '../support/test-database.ts';
import { apply, asServer, asUser, expectRule, makeDeal, makeUser } from '../support/rules-fixtures.ts';

// The growth rules of 20261123000500_growth.sql (XP awards, levels, referrals, badges, the referral Pro
// grant, rewards and the payout run), exercised as the sync server writes: SQL as the signed-in user.

let db: Database;
let drop: () => Promise<void>;
let brand: string;

beforeAll(async () => {
  const database = await createTestDatabase();
  drop = database.drop;
  db = createDatabase(database.url);
  brand = await makeUser(db, 'brand', { name: 'Acme' });
});
afterAll(async () => {
  await db?.close();
  await drop?.();
});

const profile = async (id: string) => (await asServer(db, 'select * from public.profiles where id = $1', [id])).rows[0];
const xpLogs = async (id: string) =>
  (
    await asServer(
      db,
      'select action, subject, xp_gained, total_xp from public.xp_logs where user_id = $1 order by created_at, total_xp',
      [id],
    )
  ).rows;
const levelUps = async (id: string) =>
  (
    await asServer(
      db,
      `select title, data from public.notifications where user_id = $1 and type = 'level_up' order by created_at`,
      [id],
    )
  ).rows;
const award = (userId: string, action: string, subject: string) =>
  asServer(db, `select public.award_xp($1, $2, $3) as xp`, [userId, action, subject]).then(
    (r) => r.rows[0].xp as number | null,
  );

/** A user signed up through `ref` = the referrer's code, as the sign-up trigger records it. */
async function signUpReferred(referrer: string, role: 'creator' | 'brand'): Promise<string> {
  const id = randomUUID();
  const code = (await profile(referrer)).referral_code;
  await asServer(
    db,
    `insert into auth.users (instance_id, id, aud, role, email, encrypted_password, email_confirmed_at, raw_user_meta_data)
     values ('00000000-0000-0000-0000-000000000000', $1, 'authenticated', 'authenticated', $2, '', now(), $3)`,
    [id, `${role}-${id.slice(0, 8)}@example.test`, { role, full_name: `Referred ${role}`, ref: code }],
  );
  return id;
}

/** The brand accepts the creator on a fresh deal: both now "have a deal". */
async function acceptOnNewDeal(brandId: string, creatorId: string): Promise<string> {
  const dealId = await makeDeal(db, brandId);
  const appId = await apply(db, creatorId, dealId);
  await asUser(db, brandId, `update public.applications set status = 'accepted' where id = $1`, [appId]);
  return dealId;
}

async function complete(brandId: string, dealId: string) {
  await asUser(db, brandId, `update public.deals set status = 'completed' where id = $1`, [dealId]);
}

/** The money steps as the payments code writes them: the escrow funded, the deal completed, the payout released. */
async function fundAndRelease(brandId: string, dealId: string) {
  await asServer(
    db,
    `insert into public.deal_escrows (deal_id, brand_id, amount_cents, service_fee_cents, funded_at)
     select id, brand_id, amount_cents, public.percent_of_cents(amount_cents, public.service_fee_bp()), now()
       from public.deals where id = $1`,
    [dealId],
  );
  await asServer(db, `update public.deals set escrow_status = 'pending' where id = $1`, [dealId]);
  await complete(brandId, dealId);
  await asServer(db, `update public.deals set escrow_status = 'released' where id = $1`, [dealId]);
}

/** A real deal between the two: accepted, funded with `amountCents` and released. */
async function releasedDeal(brandId: string, creatorId: string, amountCents = REFERRAL_MIN_DEAL_CENTS) {
  const dealId = await makeDeal(db, brandId, { amount_cents: amountCents });
  const appId = await apply(db, creatorId, dealId);
  await asUser(db, brandId, `update public.applications set status = 'accepted' where id = $1`, [appId]);
  await fundAndRelease(brandId, dealId);
  return dealId;
}

describe('XP awards', () => {
  test("awards are the table's (public.xp_award); an unknown action is refused", async () => {
    const user = await makeUser(db, 'creator');
    for (const [action, amount] of Object.entries(XP_AWARDS)) {
      const before = (await profile(user)).xp as number;
      await award(user, action.toUpperCase(), `table-${action}`);
      expect({ action, gained: (await profile(user)).xp - before }).toEqual({ action, gained: amount });
    }
    await expectRule(award(brand, 'MADE_UP', 'x'), 'unknown_xp_action', 422);
  });

  test('one award per (user, action, subject): the same event twice pays once', async () => {
    const user = await makeUser(db, 'creator');
    expect(await award(user, 'REVIEW', 'review-1')).toBe(30);
    expect(await award(user, 'REVIEW', 'review-1')).toBeNull();
    expect(await award(user, 'REVIEW', 'review-2')).toBe(60);
    expect(await xpLogs(user)).toEqual([
      { action: 'REVIEW', subject: 'review-1', xp_gained: 30, total_xp: 30 },
      { action: 'REVIEW', subject: 'review-2', xp_gained: 30, total_xp: 60 },
    ]);
    // The earlier signature (with an amount) takes the amount from the table and is idempotent too.
    const meta = { deal_id: 'd1', application_id: 'a1' };
    await asServer(db, `select public.award_xp($1, 'DEAL_APPLY', 999, $2)`, [user, meta]);
    await asServer(db, `select public.award_xp($1, 'DEAL_APPLY', 999, $2)`, [user, meta]);
    expect((await profile(user)).xp).toBe(85);
  });

  test('clients cannot award XP', async () => {
    const user = await makeUser(db, 'creator');
    await expect(asUser(db, user, `select public.award_xp($1, 'PRO_UPGRADE', 'me')`, [user])).rejects.toMatchObject({
      code: '42501',
    });
  });

  test('deal apply pays 25 once per application', async () => {
    const creator = await makeUser(db, 'creator');
    await apply(db, creator, await makeDeal(db, brand));
    expect(await xpLogs(creator)).toMatchObject([{ action: 'DEAL_APPLY', xp_gained: 25, total_xp: 25 }]);
  });

  test("completing a deal pays the winning creator and the brand 100, plus 300 for each one's first deal, once", async () => {
    const creator = await makeUser(db, 'creator');
    const loser = await makeUser(db, 'creator');
    const ownBrand = await makeUser(db, 'brand');
    const dealId = await makeDeal(db, ownBrand);
    const appId = await apply(db, creator, dealId);
    const otherApp = await apply(db, loser, dealId);
    await asUser(db, ownBrand, `update public.applications set status = 'accepted' where id = any($1)`, [
      [appId, otherApp],
    ]);
    await asUser(db, ownBrand, `update public.deals set status = 'completed', winner_id = $2 where id = $1`, [
      dealId,
      creator,
    ]);

    expect((await xpLogs(creator)).map((l) => [l.action, l.xp_gained])).toEqual([
      ['DEAL_APPLY', 25],
      ['DEAL_COMPLETE', 100],
      ['FIRST_DEAL', 300],
    ]);
    expect((await xpLogs(ownBrand)).map((l) => [l.action, l.xp_gained])).toEqual([
      ['DEAL_COMPLETE', 100],
      ['FIRST_DEAL', 300],
    ]);
    expect((await xpLogs(loser)).map((l) => l.action)).toEqual(['DEAL_APPLY']);
    expect(await profile(creator)).toMatchObject({ xp: 425, level: 3 });

    // A second completed deal pays DEAL_COMPLETE again, never FIRST_DEAL.
    const second = await acceptOnNewDeal(ownBrand, creator);
    await complete(ownBrand, second);
    expect((await xpLogs(ownBrand)).map((l) => l.action)).toEqual(['DEAL_COMPLETE', 'FIRST_DEAL', 'DEAL_COMPLETE']);
    expect((await profile(ownBrand)).xp).toBe(500);
  });

  test('a review pays its writer 30', async () => {
    const creator = await makeUser(db, 'creator');
    const dealId = await acceptOnNewDeal(brand, creator);
    await complete(brand, dealId);
    const before = (await profile(creator)).xp;
    await asUser(
      db,
      creator,
      `insert into public.reviews (id, deal_id, reviewer_id, reviewee_id, rating) values ($1, $2, $3, $4, 5)`,
      [randomUUID(), dealId, creator, brand],
    );
    expect((await profile(creator)).xp).toBe(before + 30);
    expect((await xpLogs(creator)).at(-1)).toMatchObject({ action: 'REVIEW', xp_gained: 30 });
  });

  test('a Pro upgrade pays 500 once, however often the tier changes', async () => {
    const user = await makeUser(db, 'creator');
    await asServer(db, `update public.profiles set pro_tier = 'basic', pro_since = now() where id = $1`, [user]);
    await asServer(db, `update public.profiles set pro_tier = 'free' where id = $1`, [user]);
    await asServer(db, `update public.profiles set pro_tier = 'premium', pro_since = now() where id = $1`, [user]);
    expect((await xpLogs(user)).map((l) => [l.action, l.xp_gained])).toEqual([['PRO_UPGRADE', 500]]);
  });

  test('a complete profile pays 50 once; the SQL definition is the TypeScript one', async () => {
    const user = await makeUser(db, 'creator', { name: 'Casey' });
    const bio = 'I film trail runs and gear reviews for outdoor lovers, weekly.';
    await asUser(db, user, `update public.profiles set bio = $2, niches = array['Outdoors'] where id = $1`, [
      user,
      bio,
    ]);
    expect(await xpLogs(user)).toEqual([]);
    await asUser(
      db,
      user,
      `update public.profiles set niches = array['Outdoors', 'Fitness'], social_links = $2 where id = $1`,
      [user, { instagram: 'https://instagram.com/casey' }],
    );
    await asUser(db, user, `update public.profiles set bio = $2 where id = $1`, [user, `${bio} And more.`]);
    expect(await xpLogs(user)).toMatchObject([{ action: 'PROFILE_COMPLETE', xp_gained: 50 }]);

    const cases = [
      { role: 'creator', full_name: '', bio: 'short', niches: [], social_links: {} },
      {
        role: 'creator',
        full_name: 'A',
        bio: 'x'.repeat(50),
        niches: ['A', 'B'],
        social_links: { instagram: 'https://instagram.com/a' },
      },
      {
        role: 'creator',
        full_name: 'A',
        bio: ` ${'x'.repeat(49)} `,
        niches: ['A', 'A'],
        social_links: { tiktok: 'https://tiktok.com/a' },
      },
      {
        role: 'brand',
        full_name: 'B',
        bio: 'y'.repeat(60),
        niches: ['A', 'B'],
        social_links: { instagram: 'https://instagram.com/b' },
      },
      {
        role: 'brand',
        full_name: 'B',
        bio: 'y'.repeat(60),
        niches: ['A', 'B'],
        social_links: { linkedin: 'https://linkedin.com/b' },
      },
      { role: 'admin', full_name: 'C', bio: 'z'.repeat(60), niches: ['A', 'B'], social_links: {} },
    ] as const;
    for (const c of cases) {
      const { rows } = await asServer(db, 'select public.profile_missing_items($1, $2, $3, $4, $5) as missing', [
        c.role,
        c.full_name,
        c.bio,
        c.niches,
        c.social_links,
      ]);
      expect({ c, missing: rows[0].missing }).toEqual({ c, missing: profileCompleteness(c).missing.map((m) => m.key) });
    }
  });
});

describe('levels', () => {
  test('the Level Up! notification comes exactly when a threshold is crossed, never before or twice', async () => {
    const user = await makeUser(db, 'creator');
    await asServer(db, `update public.profiles set xp = $2, level = 1 where id = $1`, [user, LEVEL_THRESHOLDS[1] - 31]);
    await award(user, 'REVIEW', 'r1'); // 99: one short
    expect(await profile(user)).toMatchObject({ xp: 99, level: 1 });
    expect(await levelUps(user)).toEqual([]);
    await asServer(db, `update public.profiles set xp = 70 where id = $1`, [user]);
    await award(user, 'REVIEW', 'r2'); // exactly 100
    expect(await profile(user)).toMatchObject({ xp: 100, level: 2 });
    expect(await levelUps(user)).toEqual([{ title: 'Level Up!', data: { level: 2, xp: 100, link: '/dashboard' } }]);
    await award(user, 'REVIEW', 'r3');
    expect(await levelUps(user)).toHaveLength(1);
  });

  test('level 20 is the cap', async () => {
    const user = await makeUser(db, 'creator');
    await asServer(db, `update public.profiles set xp = 18900, level = 19 where id = $1`, [user]);
    await award(user, 'PRO_UPGRADE', 'x');
    expect(await profile(user)).toMatchObject({ xp: 19400, level: 20 });
    await award(user, 'FIRST_DEAL', 'x');
    expect(await profile(user)).toMatchObject({ xp: 19700, level: 20 });
    expect((await levelUps(user)).map((n) => n.data.level)).toEqual([20]);
  });
});

describe('referrals', () => {
  test('sign-up with ref records an unqualified referral; a funded and released deal of the minimum qualifies the referred creator, acceptance alone does not', async () => {
    const referrer = await makeUser(db, 'creator');
    const referred = await signUpReferred(referrer, 'creator');
    const referral = async () =>
      (await asServer(db, 'select * from public.referrals where referred_user_id = $1', [referred])).rows[0];
    expect(await referral()).toMatchObject({ referrer_id: referrer, qualified: false, qualified_at: null });
    expect((await profile(referrer)).referrals_count).toBe(1);

    const dealId = await makeDeal(db, brand, { amount_cents: REFERRAL_MIN_DEAL_CENTS });
    const appId = await apply(db, referred, dealId);
    expect((await referral()).qualified).toBe(false); // applying is not yet a deal
    await asUser(db, brand, `update public.applications set status = 'accepted' where id = $1`, [appId]);
    expect((await referral()).qualified).toBe(false); // nor is being accepted: no money moved
    await fundAndRelease(brand, dealId);
    const qualified = await referral();
    expect(qualified.qualified).toBe(true);
    expect(qualified.qualified_at).toBeInstanceOf(Date);
    expect(await xpLogs(referrer)).toMatchObject([
      { action: 'REFERRAL_QUALIFIED', subject: qualified.id, xp_gained: 75 },
    ]);

    // Another released deal: still one qualification, one award.
    await releasedDeal(brand, referred);
    expect(await xpLogs(referrer)).toHaveLength(1);
  });

  test('a referred brand qualifies on a released deal of the minimum with an unrelated creator; below it, no', async () => {
    const referrer = await makeUser(db, 'brand');
    const referredBrand = await signUpReferred(referrer, 'brand');
    const creator = await makeUser(db, 'creator');
    const isQualified = async () =>
      (await asServer(db, 'select qualified from public.referrals where referred_user_id = $1', [referredBrand]))
        .rows[0].qualified;
    await releasedDeal(referredBrand, creator, REFERRAL_MIN_DEAL_CENTS - 1);
    expect(await isQualified()).toBe(false);
    await releasedDeal(referredBrand, creator);
    expect(await isQualified()).toBe(true);
    expect((await profile(referrer)).xp).toBe(75);
  });

  test("a released deal with the referrer's own accounts qualifies no one", async () => {
    const referrer = await makeUser(db, 'creator');
    const referredBrand = await signUpReferred(referrer, 'brand');
    const referredCreator = await signUpReferred(referrer, 'creator');
    await releasedDeal(referredBrand, referrer);
    await releasedDeal(referredBrand, referredCreator);
    const { rows } = await asServer(db, 'select qualified from public.referrals where referrer_id = $1', [referrer]);
    expect(rows).toEqual([{ qualified: false }, { qualified: false }]);
  });

  test('badges at 3, 5, 10 and 10 qualified referrals, each once; at 10 Pro for a year, Pro everywhere', async () => {
    const referrer = await makeUser(db, 'creator');
    const badges = async () =>
      (
        await asServer(
          db,
          'select badge_type from public.referral_badges where user_id = $1 order by earned_at, badge_type',
          [referrer],
        )
      ).rows.map((r) => r.badge_type);
    const proDeal = await makeDeal(db, brand, { pro_only: true });
    const commission = async () =>
      (await asServer(db, 'select public.creator_commission_bp($1) as bp', [referrer])).rows[0].bp;
    expect(await commission()).toBe(COMMISSION_BP);
    await expectRule(apply(db, referrer, proDeal), 'pro_required', 403);

    const seen: string[][] = [];
    for (let n = 1; n <= 11; n++) {
      const referred = await signUpReferred(referrer, 'creator');
      await releasedDeal(brand, referred);
      seen.push(await badges());
    }
    expect(seen[1]).toEqual([]);
    expect(seen[2]).toEqual(['bronze']);
    expect(seen[3]).toEqual(['bronze']);
    expect(seen[4]).toEqual(['bronze', 'silver']);
    expect(seen[8]).toEqual(['bronze', 'silver']);
    expect([...seen[9]!].sort()).toEqual(['bronze', 'gold', 'pro_booster', 'silver']);
    expect(seen[10]).toEqual(seen[9]);

    const grants = await asServer(
      db,
      `select f.name, u.expires_at from public.user_pro_features u join public.pro_features f on f.id = u.feature_id
        where u.user_id = $1 order by f.name`,
      [referrer],
    );
    expect(grants.rows.map((g) => g.name)).toEqual([
      'lower_commission',
      'priority_matching',
      'priority_support',
      'pro_deals',
    ]);
    for (const g of grants.rows) {
      const days = (g.expires_at.getTime() - Date.now()) / 86_400_000;
      expect(days).toBeGreaterThan(364);
      expect(days).toBeLessThanOrEqual(366);
    }
    // The grant reaches the user's devices through the profile's mirror of granted features.
    expect(Object.keys((await profile(referrer)).granted_pro_features).sort()).toEqual([
      'lower_commission',
      'priority_matching',
      'priority_support',
      'pro_deals',
    ]);
    // Pro everywhere: is_pro_user, Pro-only deals (read and apply), the lower commission, support priority.
    expect((await asServer(db, 'select public.is_pro_user($1) as pro', [referrer])).rows[0].pro).toBe(true);
    expect((await asUser(db, referrer, 'select id from public.deals where id = $1', [proDeal])).rowCount).toBe(1);
    await apply(db, referrer, proDeal);
    expect(await commission()).toBe(PRO_COMMISSION_BP);
    const ticket = randomUUID();
    await asUser(
      db,
      referrer,
      `insert into public.support_tickets (id, user_id, subject, message) values ($1, $2, 'Hi', 'Question')`,
      [ticket, referrer],
    );
    expect(
      (await asServer(db, 'select priority, is_pro from public.support_tickets where id = $1', [ticket])).rows[0],
    ).toEqual({
      priority: 'high',
      is_pro: true,
    });
    expect((await profile(referrer)).xp).toBe(11 * 75 + 25);
  });
});

describe('referral rewards', () => {
  test('$10 when a referred user starts a paid Pro subscription, once, however often the event comes', async () => {
    const referrer = await makeUser(db, 'creator');
    const referred = await signUpReferred(referrer, 'creator');
    const loner = await makeUser(db, 'creator');
    const first = await asServer(db, `select public.referral_reward_for_pro_subscription($1, 'sub_1') as id`, [
      referred,
    ]);
    expect(first.rows[0].id).toEqual(expect.any(String));
    const replay = await asServer(db, `select public.referral_reward_for_pro_subscription($1, 'sub_1') as id`, [
      referred,
    ]);
    const another = await asServer(db, `select public.referral_reward_for_pro_subscription($1, 'sub_2') as id`, [
      referred,
    ]);
    expect([replay.rows[0].id, another.rows[0].id]).toEqual([null, null]);
    expect(
      (await asServer(db, `select public.referral_reward_for_pro_subscription($1, 'sub_3') as id`, [loner])).rows[0].id,
    ).toBeNull();

    const rewards = await asUser(
      db,
      referrer,
      'select reward_type, amount_cents, status, paid_at from public.referral_rewards',
    );
    expect(rewards.rows).toEqual([
      { reward_type: 'pro_subscription', amount_cents: 1000, status: 'pending', paid_at: null },
    ]);
    expect(
      (await asServer(db, 'select earnings_cents from public.referrals where referred_user_id = $1', [referred]))
        .rows[0].earnings_cents,
    ).toBe(1000);
  });

  test("5% of a referred creator's payouts for 3 months from sign-up, once per deal", async () => {
    const referrer = await makeUser(db, 'brand');
    const referred = await signUpReferred(referrer, 'creator');
    const dealA = await makeDeal(db, brand);
    const dealB = await makeDeal(db, brand);
    const reward = (deal: string, cents: number) =>
      asServer(db, 'select public.referral_reward_for_payout($1, $2, $3) as id', [deal, referred, cents]).then(
        (r) => r.rows[0].id,
      );
    expect(await reward(dealA, 47_500)).toEqual(expect.any(String));
    expect(await reward(dealA, 47_500)).toBeNull();
    expect(await reward(dealB, 1_010)).toEqual(expect.any(String));
    const amounts = await asServer(
      db,
      'select amount_cents from public.referral_rewards where referrer_id = $1 order by amount_cents',
      [referrer],
    );
    expect(amounts.rows.map((r) => r.amount_cents)).toEqual([51, 2_375]); // 5% of $10.10 rounds half up to 51¢

    // Past three months from the referred user's sign-up, nothing more.
    await asServer(db, `alter table public.profiles disable trigger a_sync_stamp`);
    await asServer(db, `update public.profiles set created_at = now() - interval '3 months 1 day' where id = $1`, [
      referred,
    ]);
    await asServer(db, `alter table public.profiles enable trigger a_sync_stamp`);
    expect(await reward(await makeDeal(db, brand), 10_000)).toBeNull();
  });

  test('the payout run pays pending rewards issued before its cutoff; the monthly run pays a month once', async () => {
    const referrer = await makeUser(db, 'creator');
    const referred = await signUpReferred(referrer, 'creator');
    await asServer(db, `select public.referral_reward_for_pro_subscription($1, 'sub')`, [referred]);
    const deal = await makeDeal(db, brand);
    await asServer(db, 'select public.referral_reward_for_payout($1, $2, 20000)', [deal, referred]);
    await asServer(
      db,
      `update public.referral_rewards set issued_at = now() - interval '40 days' where referrer_id = $1 and reward_type = 'pro_subscription'`,
      [referrer],
    );
    const statuses = async () =>
      (
        await asServer(
          db,
          'select reward_type, status, paid_at is not null as has_paid_at from public.referral_rewards where referrer_id = $1 order by reward_type',
          [referrer],
        )
      ).rows;

    const monthly = await asServer(db, "select * from public.run_monthly_referral_payouts(now() + interval '1 month')");
    expect(monthly.rows).toHaveLength(1);
    expect(monthly.rows[0].rewards_paid).toBeGreaterThanOrEqual(2);
    expect(await statuses()).toEqual([
      { reward_type: 'deal_earnings_share', status: 'paid', has_paid_at: true },
      { reward_type: 'pro_subscription', status: 'paid', has_paid_at: true },
    ]);
    const again = await asServer(db, "select * from public.run_monthly_referral_payouts(now() + interval '1 month')");
    expect(again.rows).toEqual([]);
    const note = await asUser(
      db,
      referrer,
      `select title, message from public.notifications where type = 'referral_payout'`,
    );
    expect(note.rows).toEqual([{ title: 'Referral payout', message: '2 referral rewards paid: $20.00.' }]);
  });

  test('clients cannot create rewards or run payouts', async () => {
    const user = await makeUser(db, 'creator');
    for (const sql of [
      `select public.referral_reward_for_pro_subscription($1, 'x')`,
      `select public.referral_reward_for_payout(gen_random_uuid(), $1, 100)`,
      `select public.run_referral_payouts(now(), null, $1)`,
      `select pacta_private.grant_pro_features($1, array['pro_deals'], interval '1 year')`,
    ]) {
      await expect(asUser(db, user, sql, [user])).rejects.toMatchObject({ code: '42501' });
    }
  });
});
