import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { SYNC_PROTOCOL_VERSION } from '../../src/domain/collections/index.ts';
import type { LeaderboardResponse } from '../../src/domain/contracts/growth.ts';
import { startTestServer, type TestServer, type TestUser } from '../support/test-server.ts';
import { insertDeals } from '../sync/sync-harness.ts';

// The growth endpoints and the XP awards as a client reaches them: the real server, real tokens.

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

const get = (path: string, user?: TestUser) =>
  fetch(`${server.url}${path}`, { headers: user ? { authorization: `Bearer ${user.accessToken}` } : {} });
const sql = (text: string, params: unknown[] = []) => server.db.asService((tx) => tx.query(text, params));

async function push(user: TestUser, collection: string, rows: { newDocumentState: Record<string, unknown> }[]) {
  const res = await fetch(`${server.url}/sync/v1/${collection}/push`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      authorization: `Bearer ${user.accessToken}`,
      'x-pacta-protocol': String(SYNC_PROTOCOL_VERSION),
    },
    body: JSON.stringify({ rows }),
  });
  expect(res.status).toBe(200);
  return (await res.json()) as { conflicts: unknown[] };
}

/** `referrer` referred `count` users whose referrals qualified `daysAgo` days ago. */
async function giveQualifiedReferrals(referrer: TestUser, count: number, daysAgo: number) {
  for (let i = 0; i < count; i++) {
    const referred = await server.createUser({ role: 'creator' });
    await sql(
      `insert into public.referrals (referrer_id, referred_user_id, qualified, qualified_at) values ($1, $2, true, now() - make_interval(days => $3))`,
      [referrer.id, referred.id, daysAgo],
    );
  }
}

test('applying through a push pays DEAL_APPLY once, also when the same push is retried', async () => {
  const brand = await server.createUser({ role: 'brand' });
  const creator = await server.createUser({ role: 'creator' });
  const [dealId] = await insertDeals(server.db, brand.id, 1);
  const doc = {
    id: randomUUID(),
    deal_id: dealId,
    creator_id: creator.id,
    status: 'pending',
    pitch: 'Hello',
    _deleted: false,
  };
  expect((await push(creator, 'applications', [{ newDocumentState: doc }])).conflicts).toEqual([]);
  expect((await push(creator, 'applications', [{ newDocumentState: doc }])).conflicts).toEqual([]);
  const logs = await sql('select action, xp_gained from public.xp_logs where user_id = $1', [creator.id]);
  expect(logs.rows).toEqual([{ action: 'DEAL_APPLY', xp_gained: 25 }]);
});

test("leaderboard: top referrers by qualified referrals per period, with the caller's own rank; 401 signed out", async () => {
  const star = await server.createUser({ role: 'creator', fullName: 'Star' });
  const steady = await server.createUser({ role: 'brand', fullName: 'Steady' });
  const me = await server.createUser({ role: 'creator', fullName: 'Me' });
  await giveQualifiedReferrals(star, 3, 2); // all in this week
  await giveQualifiedReferrals(steady, 2, 20); // this month, not this week
  await giveQualifiedReferrals(steady, 3, 90); // all time only
  await giveQualifiedReferrals(me, 1, 1);

  const board = async (period: string) => {
    const res = await get(`/api/referral-leaderboard?period=${period}`, me);
    expect(res.status).toBe(200);
    return (await res.json()) as LeaderboardResponse;
  };
  const top = (b: LeaderboardResponse) => b.entries.slice(0, 3).map((e) => [e.rank, e.full_name, e.referrals]);

  const week = await board('week');
  expect(top(week)).toEqual([
    [1, 'Star', 3],
    [2, 'Me', 1],
    [3, expect.any(String), 0],
  ]);
  expect(week.me).toMatchObject({ rank: 2, full_name: 'Me', referrals: 1, is_pro: false, xp: 0, level: 1 });
  expect(top(await board('month'))).toEqual([
    [1, 'Star', 3],
    [2, 'Steady', 2],
    [3, 'Me', 1],
  ]);
  const all = await board('all');
  expect(top(all)).toEqual([
    [1, 'Steady', 5],
    [2, 'Star', 3],
    [3, 'Me', 1],
  ]);
  expect(all.entries.length).toBeLessThanOrEqual(50);
  expect(all.period).toBe('all');

  expect((await get('/api/referral-leaderboard?period=year', me)).status).toBe(400);
  const signedOut = await get('/api/referral-leaderboard?period=week');
  expect(signedOut.status).toBe(401);
});

test('leaderboard: a user outside the top 50 still gets their own rank', async () => {
  const outsider = await server.createUser({ role: 'creator', fullName: 'Outsider' });
  for (let i = 0; i < 52; i++) {
    const u = await server.createUser({ role: 'creator' });
    await sql('update public.profiles set xp = 5000 where id = $1', [u.id]);
  }
  const res = (await (await get('/api/referral-leaderboard?period=all', outsider)).json()) as LeaderboardResponse;
  expect(res.entries).toHaveLength(50);
  expect(res.entries.some((e) => e.user_id === outsider.id)).toBe(false);
  expect(res.me).toMatchObject({ user_id: outsider.id, full_name: 'Outsider' });
  expect(res.me!.rank).toBeGreaterThan(50);
});

test('rewards list: own rewards, the status filter, 403 for another user, an admin may ask for anyone, 401 signed out', async () => {
  const referrer = await server.createUser({ role: 'creator' });
  const other = await server.createUser({ role: 'creator' });
  const admin = await server.createUser({ role: 'admin' });
  const referred = await server.createUser({ role: 'creator' });
  const [dealId] = await insertDeals(server.db, (await server.createUser({ role: 'brand' })).id, 1);
  await sql('insert into public.referrals (referrer_id, referred_user_id) values ($1, $2)', [referrer.id, referred.id]);
  await sql(`select public.referral_reward_for_pro_subscription($1, 'sub_9')`, [referred.id]);
  await sql(`update public.referral_rewards set issued_at = now() - interval '2 days'`);
  await sql(`select public.run_referral_payouts(now(), null, null)`);
  await sql('select public.referral_reward_for_payout($1, $2, 30000)', [dealId, referred.id]);

  const list = async (query: string, user?: TestUser) => {
    const res = await get(`/api/user-referral-rewards-list?${query}`, user);
    return { status: res.status, body: (await res.json()) as { rewards?: Record<string, unknown>[]; code?: string } };
  };
  const mine = await list(`userId=${referrer.id}`, referrer);
  expect(mine.status).toBe(200);
  expect(mine.body.rewards!.map((r) => [r.reward_type, r.amount, r.amount_cents, r.status])).toEqual([
    ['deal_earnings_share', 15, 1500, 'pending'],
    ['pro_subscription', 10, 1000, 'paid'],
  ]);
  expect(mine.body.rewards![1]).toMatchObject({ issued_at: expect.any(String), paid_at: expect.any(String) });
  expect((await list(`userId=${referrer.id}&status=paid`, referrer)).body.rewards!.map((r) => r.reward_type)).toEqual([
    'pro_subscription',
  ]);
  expect(
    (await list(`userId=${referrer.id}&status=pending`, referrer)).body.rewards!.map((r) => r.reward_type),
  ).toEqual(['deal_earnings_share']);
  expect((await list(`userId=${other.id}`, other)).body).toEqual({ rewards: [] });

  const denied = await list(`userId=${referrer.id}`, other);
  expect(denied).toEqual({
    status: 403,
    body: { code: 'admin_only', message: expect.any(String), request_id: expect.any(String) },
  });
  expect((await list(`userId=${randomUUID()}`, other)).status).toBe(403);
  expect((await list(`userId=${referrer.id}`, admin)).body.rewards).toHaveLength(2);
  expect((await list(`userId=${referrer.id}&status=later`, referrer)).status).toBe(400);
  const signedOut = await list(`userId=${referrer.id}`);
  expect(signedOut.status).toBe(401);
});

test('an admin runs the referral payouts; nobody else may', async () => {
  const referrer = await server.createUser({ role: 'brand' });
  const referred = await server.createUser({ role: 'brand' });
  const admin = await server.createUser({ role: 'admin' });
  await sql('insert into public.referrals (referrer_id, referred_user_id) values ($1, $2)', [referrer.id, referred.id]);
  await sql(`select public.referral_reward_for_pro_subscription($1, 'sub_x')`, [referred.id]);
  const run = (user: TestUser) =>
    fetch(`${server.url}/api/admin/referral-payouts`, {
      method: 'POST',
      headers: { authorization: `Bearer ${user.accessToken}` },
    });

  expect((await run(referrer)).status).toBe(403);
  const res = await run(admin);
  expect(res.status).toBe(201);
  expect(((await res.json()) as { run: { rewards_paid: number } }).run.rewards_paid).toBeGreaterThanOrEqual(1);
  const { rows } = await sql('select status from public.referral_rewards where referrer_id = $1', [referrer.id]);
  expect(rows).toEqual([{ status: 'paid' }]);
});
