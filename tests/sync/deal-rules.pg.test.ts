// Issue 5, item 7: the deal and application rules the server enforces whatever a client sends,
// driven through the sync protocol (HTTP push and pull), forbidden writes included.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { SYNC_PROTOCOL_VERSION } from '../../src/domain/collections/index.ts';
import { prepareDocument } from '../../src/db/index.ts';
import { startTestServer, type TestServer, type TestUser } from '../support/test-server.ts';
import { insertDeals, newId } from './sync-harness.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

type Doc = Record<string, unknown> & { id: string; _deleted: boolean };
type Row = { newDocumentState: Doc; assumedMasterState?: Doc };

const headers = (user: TestUser) => ({
  'content-type': 'application/json',
  authorization: `Bearer ${user.accessToken}`,
  'x-pacta-protocol': String(SYNC_PROTOCOL_VERSION),
});

async function push(
  user: TestUser,
  collection: string,
  rows: Row[],
): Promise<{ status: number; body: { conflicts?: Doc[]; code?: string } }> {
  const res = await fetch(`${server.url}/sync/v1/${collection}/push`, {
    method: 'POST',
    headers: headers(user),
    body: JSON.stringify({ rows }),
  });
  return { status: res.status, body: await res.json() };
}

/**
 * The master state of one document as the user's device would pull it (undefined when out of scope).
 * Like the real client, it pulls again while the server reports rows held back behind an older
 * transaction (`pending`): test databases share one cluster, so another test's transaction can hold them.
 */
async function pulled(user: TestUser, collection: string, id: string): Promise<Doc | undefined> {
  for (let attempt = 0; ; attempt++) {
    let checkpoint: unknown = null;
    let heldBack = false;
    let found: Doc | undefined;
    for (;;) {
      const query = new URLSearchParams({
        limit: '1000',
        ...(checkpoint ? { checkpoint: JSON.stringify(checkpoint) } : {}),
      });
      const res = await fetch(`${server.url}/sync/v1/${collection}/pull?${query}`, { headers: headers(user) });
      expect(res.status).toBe(200);
      const page = (await res.json()) as { documents: Doc[]; checkpoint: unknown; pending?: boolean };
      heldBack ||= Boolean(page.pending);
      found = page.documents.find((d) => d.id === id) ?? found;
      if (page.documents.length === 0) break;
      checkpoint = page.checkpoint;
    }
    if (!heldBack || attempt >= 50) return found && !found._deleted ? found : undefined;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

const applicationFor = (dealId: string, creator: TestUser): Doc => ({
  ...prepareDocument('applications', { id: newId(), deal_id: dealId, creator_id: creator.id, pitch: 'Count me in' }),
  _deleted: false,
});

async function apply(creator: TestUser, dealId: string) {
  const doc = applicationFor(dealId, creator);
  const result = await push(creator, 'applications', [{ newDocumentState: doc }]);
  return { doc, ...result };
}

const rejectionOf = (result: { body: { conflicts?: Doc[] } }) =>
  (result.body.conflicts?.[0]?.sync_rejection as { code: string } | undefined)?.code;
const applicationCount = async (dealId: string) =>
  Number(
    (await server.db.pool.query('select count(*) from public.applications where deal_id = $1', [dealId])).rows[0].count,
  );

test('only creators apply: a brand’s or an admin’s application is refused with a reason and not stored', async () => {
  const brand = await server.createUser({ role: 'brand' });
  const [dealId] = (await insertDeals(server.db, brand.id, 1)) as [string];
  for (const role of ['brand', 'admin'] as const) {
    const other = await server.createUser({ role });
    const result = await apply(other, dealId);
    expect(result.status).toBe(200);
    expect(rejectionOf(result)).toBe('only_creators_apply');
  }
  expect(await applicationCount(dealId)).toBe(0);
});

test('a creator applies once per deal, only while it is open; applying logs DEAL_APPLY for the growth engine', async () => {
  const brand = await server.createUser({ role: 'brand' });
  const creator = await server.createUser({ role: 'creator' });
  const [open, completed, cancelled] = (await insertDeals(server.db, brand.id, 3)) as [string, string, string];
  const first = await apply(creator, open);
  expect(first.body.conflicts).toEqual([]);
  const second = await apply(creator, open);
  expect(rejectionOf(second)).toBe('already_applied');
  expect(await applicationCount(open)).toBe(1);

  await server.db.asService((tx) =>
    tx.query(`update public.deals set status = 'cancelled' where id = $1`, [cancelled]),
  );
  await server.db.asService(async (tx) => {
    const winner = await server.createUser({ role: 'creator' });
    await tx.query(
      `update public.deals set selected_creator_ids = array[$2::uuid], status = 'in_progress' where id = $1`,
      [completed, winner.id],
    );
    await tx.query(`update public.deals set status = 'completed', winner_id = $2 where id = $1`, [
      completed,
      winner.id,
    ]);
  });
  // A completed deal stays in sight ("no longer open"); a cancelled one left it ("not found", like a missing one).
  for (const [closed, code] of [
    [completed, 'deal_not_open'],
    [cancelled, 'deal_not_found'],
  ] as const) {
    expect(rejectionOf(await apply(creator, closed))).toBe(code);
    expect(await applicationCount(closed)).toBe(0);
  }

  const xp = await server.db.pool.query(`select action, xp_gained from public.xp_logs where user_id = $1`, [
    creator.id,
  ]);
  expect(xp.rows).toEqual([{ action: 'DEAL_APPLY', xp_gained: 25 }]);
  // A pull holds back rows newer than the oldest transaction still running anywhere in the cluster
  // (another test file's long snapshot can be one), so the log arrives once that one has ended.
  const growthDocuments = async () => {
    const growth = await fetch(`${server.url}/sync/v1/growth/pull?limit=100`, { headers: headers(creator) });
    return ((await growth.json()) as { documents: Doc[] }).documents;
  };
  await expect
    .poll(growthDocuments, { timeout: 30_000 })
    .toContainEqual(
      expect.objectContaining({ kind: 'xp_log', data: expect.objectContaining({ action: 'DEAL_APPLY' }) }),
    );
});

test('a Pro-only deal needs Pro: a creator who lost Pro gets a clear reason, a Pro creator gets in', async () => {
  const brand = await server.createUser({ role: 'brand' });
  const [dealId] = (await insertDeals(server.db, brand.id, 1, { pro_only: true })) as [string];
  const free = await server.createUser({ role: 'creator' });
  const refused = await apply(free, dealId);
  expect(refused.status).toBe(200);
  expect(rejectionOf(refused)).toBe('pro_required');

  const pro = await server.createUser({ role: 'creator' });
  await server.db.asService((tx) =>
    tx.query(
      `update public.profiles set pro_tier = 'basic', pro_since = now(), pro_until = now() + interval '30 days' where id = $1`,
      [pro.id],
    ),
  );
  expect((await apply(pro, dealId)).body.conflicts).toEqual([]);
  expect(await applicationCount(dealId)).toBe(1);
});

test('accepting adds the creator to selected_creator_ids and moves the deal to in progress; rejecting removes them', async () => {
  const brand = await server.createUser({ role: 'brand' });
  const creator = await server.createUser({ role: 'creator' });
  const [dealId] = (await insertDeals(server.db, brand.id, 1)) as [string];
  const { doc } = await apply(creator, dealId);

  const pending = (await pulled(brand, 'applications', doc.id))!;
  expect(pending.status).toBe('pending');
  expect(
    (
      await push(brand, 'applications', [
        { newDocumentState: { ...pending, status: 'accepted' }, assumedMasterState: pending },
      ])
    ).body.conflicts,
  ).toEqual([]);
  expect(await pulled(brand, 'deals', dealId)).toMatchObject({
    status: 'in_progress',
    selected_creator_ids: [creator.id],
  });
  expect(await pulled(creator, 'applications', doc.id)).toMatchObject({ status: 'accepted' });

  const accepted = (await pulled(brand, 'applications', doc.id))!;
  expect(
    (
      await push(brand, 'applications', [
        { newDocumentState: { ...accepted, status: 'rejected' }, assumedMasterState: accepted },
      ])
    ).body.conflicts,
  ).toEqual([]);
  expect((await pulled(brand, 'deals', dealId))!.selected_creator_ids).toEqual([]);
});

test('forbidden application writes: a creator cannot accept itself, another brand cannot decide', async () => {
  const brand = await server.createUser({ role: 'brand' });
  const otherBrand = await server.createUser({ role: 'brand' });
  const creator = await server.createUser({ role: 'creator' });
  const [dealId] = (await insertDeals(server.db, brand.id, 1)) as [string];
  const { doc } = await apply(creator, dealId);
  const mine = (await pulled(creator, 'applications', doc.id))!;

  const selfAccept = await push(creator, 'applications', [
    { newDocumentState: { ...mine, status: 'accepted' }, assumedMasterState: mine },
  ]);
  expect(rejectionOf(selfAccept)).toBe('not_deal_owner');
  // The other brand cannot even see the application, so its write reads as a new application in someone
  // else's name: refused (without revealing that the row exists), nothing written.
  expect(await pulled(otherBrand, 'applications', doc.id)).toBeUndefined();
  const foreign = await push(otherBrand, 'applications', [
    { newDocumentState: { ...mine, status: 'accepted' }, assumedMasterState: mine },
  ]);
  expect(foreign.status === 403 ? foreign.body.code : rejectionOf(foreign)).toMatch(
    /^(out_of_scope|not_your_application)$/,
  );
  const stored = await server.db.pool.query('select status, version from public.applications where id = $1', [doc.id]);
  expect(stored.rows[0]).toEqual({ status: 'pending', version: 1 });
  expect((await pulled(brand, 'deals', dealId))!.selected_creator_ids).toEqual([]);
});

test('only the owning brand or an admin edits a deal; others are refused and nothing changes', async () => {
  const brand = await server.createUser({ role: 'brand' });
  const otherBrand = await server.createUser({ role: 'brand' });
  const creator = await server.createUser({ role: 'creator' });
  const admin = await server.createUser({ role: 'admin' });
  const [dealId] = (await insertDeals(server.db, brand.id, 1)) as [string];

  for (const intruder of [otherBrand, creator]) {
    const seen = (await pulled(intruder, 'deals', dealId))!;
    const result = await push(intruder, 'deals', [
      { newDocumentState: { ...seen, title: 'Hijacked' }, assumedMasterState: seen },
    ]);
    expect(result.status === 403 ? result.body.code : rejectionOf(result)).toMatch(/^(out_of_scope|not_deal_owner)$/);
  }
  expect((await server.db.pool.query('select title from public.deals where id = $1', [dealId])).rows[0].title).not.toBe(
    'Hijacked',
  );

  const owned = (await pulled(brand, 'deals', dealId))!;
  expect(
    (
      await push(brand, 'deals', [
        { newDocumentState: { ...owned, title: 'Spring launch' }, assumedMasterState: owned },
      ])
    ).body.conflicts,
  ).toEqual([]);
  const asAdmin = (await pulled(admin, 'deals', dealId))!;
  expect(
    (await push(admin, 'deals', [{ newDocumentState: { ...asAdmin, pro_only: true }, assumedMasterState: asAdmin }]))
      .body.conflicts,
  ).toEqual([]);
  expect(
    (await server.db.pool.query('select title, pro_only from public.deals where id = $1', [dealId])).rows[0],
  ).toEqual({ title: 'Spring launch', pro_only: true });
});

test('completing needs a selected creator and records the winner; only the owner or an admin completes', async () => {
  const brand = await server.createUser({ role: 'brand' });
  const creator = await server.createUser({ role: 'creator' });
  const [dealId] = (await insertDeals(server.db, brand.id, 1)) as [string];
  const open = (await pulled(brand, 'deals', dealId))!;
  const tooEarly = await push(brand, 'deals', [
    { newDocumentState: { ...open, status: 'completed' }, assumedMasterState: open },
  ]);
  expect(tooEarly.body.conflicts?.[0]?.sync_rejection).toEqual({
    code: 'no_selected_creator',
    message: 'You must select at least one creator before completing the deal.',
  });

  const { doc } = await apply(creator, dealId);
  const pending = (await pulled(brand, 'applications', doc.id))!;
  await push(brand, 'applications', [
    { newDocumentState: { ...pending, status: 'accepted' }, assumedMasterState: pending },
  ]);

  // The creator (a participant now) still may not complete the brand's deal.
  const creatorsCopy = (await pulled(creator, 'deals', dealId))!;
  const byCreator = await push(creator, 'deals', [
    {
      newDocumentState: { ...creatorsCopy, status: 'completed', winner_id: creator.id },
      assumedMasterState: creatorsCopy,
    },
  ]);
  expect(byCreator.status === 403 ? byCreator.body.code : rejectionOf(byCreator)).toMatch(
    /^(out_of_scope|not_deal_owner)$/,
  );

  const inProgress = (await pulled(brand, 'deals', dealId))!;
  expect(
    (
      await push(brand, 'deals', [
        {
          newDocumentState: { ...inProgress, status: 'completed', winner_id: creator.id },
          assumedMasterState: inProgress,
        },
      ])
    ).body.conflicts,
  ).toEqual([]);
  expect(await pulled(brand, 'deals', dealId)).toMatchObject({
    status: 'completed',
    winner_id: creator.id,
    completed_at: expect.any(String),
  });
});
