import { afterAll, beforeAll, expect, test } from 'vitest';
import { OPENED_DEALS_LIMIT } from '../../src/domain/collections/index.ts';
import { startTestServer, type TestServer, type TestUser } from '../support/test-server.ts';
import { newId } from './sync-harness.ts';

// A user keeps deals on their devices by opening them from search. Those opened keeps are capped per
// user (the database counts them under a lock per user, so concurrent keeps cannot pass the cap) and
// leave when their deal is no longer offered; saving a deal makes its keep a party keep, which stays.

let server: TestServer;
let brand: TestUser;
let creator: TestUser;
const deals: string[] = [];

beforeAll(async () => {
  server = await startTestServer();
  brand = await server.createUser({ role: 'brand' });
  creator = await server.createUser({ role: 'creator' });
  const { rows } = await server.db.asService((tx) =>
    tx.query<{ id: string }>(
      `insert into public.deals (id, brand_id, title, description, amount_cents, niches, status)
       select gen_random_uuid(), $1, 'Deal ' || n, 'A sponsorship deal', 50000, '{fitness}', 'open'
         from generate_series(1, $2::int) n
       returning id`,
      [brand.id, OPENED_DEALS_LIMIT + 20],
    ),
  );
  deals.push(...rows.map((r) => r.id));
});
afterAll(async () => {
  await server?.close();
});

const keep = (user: TestUser, id: string) =>
  fetch(`${server.url}/api/deals/${id}/keep`, {
    method: 'POST',
    headers: { authorization: `Bearer ${user.accessToken}` },
  });

const openedKeeps = async (user: TestUser) =>
  (
    await server.db.asService((tx) =>
      tx.query<{ n: number }>(
        'select count(*)::int as n from public.kept_deals where user_id = $1 and opened_at is not null',
        [user.id],
      ),
    )
  ).rows[0]!.n;

const isKept = async (user: TestUser, deal: string) =>
  (
    await server.db.asService((tx) =>
      tx.query('select 1 from public.kept_deals where user_id = $1 and deal_id = $2', [user.id, deal]),
    )
  ).rowCount === 1;

test('the database and the client agree on the cap', async () => {
  const { rows } = await server.db.asService((tx) =>
    tx.query<{ n: number }>('select pacta_private.opened_deals_limit() as n'),
  );
  expect(rows[0]!.n).toBe(OPENED_DEALS_LIMIT);
});

test('concurrent keeps stop at the cap: the rest are refused with a message saying what to do', async () => {
  // Three short of the cap, as if opened one by one (written at once, without the per-row count).
  await server.db.asService(async (tx) => {
    await tx.query(`set local session_replication_role = replica`);
    await tx.query(`insert into public.kept_deals (user_id, deal_id) select $1, unnest($2::uuid[])`, [
      creator.id,
      deals.slice(0, OPENED_DEALS_LIMIT - 3),
    ]);
  });
  const candidates = deals.slice(OPENED_DEALS_LIMIT - 3, OPENED_DEALS_LIMIT + 7);
  const answers = await Promise.all(candidates.map((id) => keep(creator, id)));
  const statuses = answers.map((r) => r.status);
  expect(statuses.filter((s) => s === 200)).toHaveLength(3);
  expect(statuses.filter((s) => s === 409)).toHaveLength(7);
  const refused = answers.find((r) => r.status === 409)!;
  const body = (await refused.json()) as { code: string; message: string };
  expect(body.code).toBe('kept_deals_full');
  expect(body.message).toContain('1,000');
  expect(body.message).toContain('save it to keep it offline');
  expect(await openedKeeps(creator)).toBe(OPENED_DEALS_LIMIT);

  // Keeping a deal already kept is not a new keep: still 200 at the cap.
  expect((await keep(creator, deals[0]!)).status).toBe(200);
});

test('a user cannot write a keep that escapes the cap', async () => {
  const claims = { sub: creator.id, role: 'authenticated' };
  await expect(
    server.db.asUser(claims, (tx) =>
      tx.query(`insert into public.kept_deals (user_id, deal_id, opened_at) values ($1, $2, null)`, [
        creator.id,
        deals[OPENED_DEALS_LIMIT + 10],
      ]),
    ),
  ).rejects.toThrow(/permission denied/);
  await expect(
    server.db.asUser(claims, (tx) =>
      tx.query(`insert into public.kept_deals (user_id, deal_id) values ($1, $2)`, [
        creator.id,
        deals[OPENED_DEALS_LIMIT + 10],
      ]),
    ),
  ).rejects.toThrow(/kept_deals_full/);
});

test('saving an opened deal makes it a party keep: it no longer counts, and a keep goes through again', async () => {
  await server.db.asService((tx) =>
    tx.query(`insert into public.saved_lists (id, user_id, kind, items) values ($1, $2, 'saved_campaigns', $3)`, [
      newId(),
      creator.id,
      [deals[0]],
    ]),
  );
  expect(await openedKeeps(creator)).toBe(OPENED_DEALS_LIMIT - 1);
  expect((await keep(creator, deals[OPENED_DEALS_LIMIT + 11]!)).status).toBe(200);
  expect(await openedKeeps(creator)).toBe(OPENED_DEALS_LIMIT);
});

test('keeps of deals that closed leave: at the next keep, and by the periodic job', async () => {
  // At the cap, a deal the user opened is cancelled: the next keep makes room by removing its keep.
  await server.db.asService((tx) => tx.query(`update public.deals set status = 'cancelled' where id = $1`, [deals[1]]));
  expect((await keep(creator, deals[OPENED_DEALS_LIMIT + 12]!)).status).toBe(200);
  expect(await isKept(creator, deals[1]!)).toBe(false);

  // Completed, deleted, past its deadline, or saved and then cancelled (written past the deal rules,
  // which ask a completed deal for its creator and refuse a past deadline).
  await server.db.asService(async (tx) => {
    await tx.query(`set local session_replication_role = replica`);
    await tx.query(`update public.deals set status = 'completed' where id = $1`, [deals[2]]);
    await tx.query(`update public.deals set deleted = true where id = $1`, [deals[3]]);
    await tx.query(`update public.deals set deadline = '2020-01-01' where id = $1`, [deals[4]]);
    await tx.query(`update public.deals set status = 'cancelled' where id = $1`, [deals[0]]);
  });
  expect(await server.app.pactaKeptDealsCleanup.run()).toEqual({ removed: 3 });
  for (const gone of deals.slice(2, 5)) expect(await isKept(creator, gone)).toBe(false);
  // The saved deal is a party keep: it stays while the user may read it.
  expect(await isKept(creator, deals[0]!)).toBe(true);
  expect(await isKept(creator, deals[5]!)).toBe(true);
  expect(await server.app.pactaKeptDealsCleanup.run()).toEqual({ removed: 0 });
});

test('a brand at the cap is told the deal opens online, not to save it: a brand has no Save', async () => {
  const otherBrand = await server.createUser({ role: 'brand' });
  // Deals of their own for this test: earlier tests closed some of the shared ones.
  const { rows } = await server.db.asService((tx) =>
    tx.query<{ id: string }>(
      `insert into public.deals (id, brand_id, title, description, amount_cents, niches, status)
       select gen_random_uuid(), $1, 'Deal ' || n, 'A sponsorship deal', 50000, '{fitness}', 'open'
         from generate_series(1, $2::int) n
       returning id`,
      [brand.id, OPENED_DEALS_LIMIT + 1],
    ),
  );
  const open = rows.map((r) => r.id);
  await server.db.asService(async (tx) => {
    await tx.query(`set local session_replication_role = replica`);
    await tx.query(`insert into public.kept_deals (user_id, deal_id) select $1, unnest($2::uuid[])`, [
      otherBrand.id,
      open.slice(0, OPENED_DEALS_LIMIT),
    ]);
  });
  const refused = await keep(otherBrand, open[OPENED_DEALS_LIMIT]!);
  expect(refused.status).toBe(409);
  const body = (await refused.json()) as { code: string; message: string };
  expect(body.code).toBe('kept_deals_full');
  expect(body.message).toBe(
    'Your devices already keep 1,000 deals you opened, the most they can. This deal opens while you are online. Opened deals leave your devices as they close.',
  );
  expect(body.message).not.toMatch(/save/i);
});
