import { expect, test } from 'vitest';
import {
  SYNC_PROTOCOL_HEADER,
  SYNC_PROTOCOL_VERSION,
  type PullResponse,
  type SyncCheckpoint,
} from '../../src/domain/collections/index.ts';
import { checkpointAfterRows, readStreamEvent } from '../../src/domain/contracts/change-stream.ts';
import type { TestUser } from '../support/test-server.ts';
import { idleDownstream } from '../../src/db/sync/pull-scheduler.ts';
import { syncTestFixture } from './sync-fixture.ts';
import { eventually, insertDeals, openTestStream, type TestClient } from './sync-harness.ts';

const sync = syncTestFixture();

type Page = PullResponse<{ id: string; status?: string }>;

async function pullAs(user: TestUser, checkpoint: SyncCheckpoint | null): Promise<Page> {
  const params = new URLSearchParams({ limit: '1000' });
  if (checkpoint) params.set('checkpoint', JSON.stringify(checkpoint));
  const res = await fetch(`${sync.server.url}/sync/v1/deals/pull?${params}`, {
    headers: { authorization: `Bearer ${user.accessToken}`, [SYNC_PROTOCOL_HEADER]: String(SYNC_PROTOCOL_VERSION) },
  });
  expect(res.status).toBe(200);
  return (await res.json()) as Page;
}

const makePro = (user: TestUser) =>
  sync.server.db.pool.query(
    `update public.profiles set pro_tier = 'basic', pro_since = now(), pro_until = now() + interval '30 days' where id = $1`,
    [user.id],
  );

const cancel = (id: string) =>
  sync.server.db.asService((tx) => tx.query(`update public.deals set status = 'cancelled' where id = $1`, [id]));

const dealPulls = (c: TestClient) => c.network.calls.filter((call) => call.url.includes('/sync/v1/deals/pull')).length;
const holds = async (c: TestClient, id: string) => (await c.db.deals.findOne(id).exec()) !== null;
/** Pages RxDB's deals downstream took from its pull stream (rows handed over without the pull handler). */
const streamedPages = (c: TestClient) =>
  c.replication.states.get('deals')!.internalReplicationState!.stats.down.downstreamProcessChanges;

/** A change stream read as the app of this version reads it (protocol 2: rows may come in it). */
async function rowsStream(user: TestUser) {
  const s = await openTestStream(sync.server.url, user.accessToken, String(SYNC_PROTOCOL_VERSION));
  await eventually(() => s.events.some((e) => e.event === 'hello'));
  return {
    ...s,
    rows: () => s.events.filter((e) => e.event === 'rows').map((e) => readStreamEvent('rows', e.data)!),
  };
}

test('devices receive a new deal through the stream, with no pull from any of them', async () => {
  const brand = await sync.server.createUser({ role: 'brand' });
  const [alice, bob] = [
    await sync.server.createUser({ role: 'creator' }),
    await sync.server.createUser({ role: 'creator' }),
  ];
  // Another brand replicates the deals in full (it writes its own): the rows reach it the same way.
  const rival = await sync.server.createUser({ role: 'brand' });
  await insertDeals(sync.server.db, brand.id, 3);
  const devices = [
    await sync.client(alice, ['profiles', 'deals'], { pullOnlyByRole: true }),
    await sync.client(bob, ['profiles', 'deals'], { pullOnlyByRole: true }),
    await sync.client(rival, ['profiles', 'deals'], { pullOnlyByRole: true }),
  ];
  for (const d of devices) await d.replication.awaitInitialSync();
  await eventually(() => devices.every((d) => d.replication.syncStatus.streaming));
  // In step with the feed, whichever way each device got there.
  const [warmUp] = (await insertDeals(sync.server.db, brand.id, 1)) as [string];
  for (const d of devices) await eventually(() => holds(d, warmUp));
  for (const d of devices) await d.replication.awaitInSync();
  // Rows go straight to RxDB only while its downstream has nothing to do (else through the pull handler).
  await eventually(() => devices.every((d) => idleDownstream(d.replication.states.get('deals'))));

  const pullsBefore = devices.map(dealPulls);
  const streamedBefore = devices.map(streamedPages);
  const [deal] = (await insertDeals(sync.server.db, brand.id, 1)) as [string];
  for (const d of devices) await eventually(() => holds(d, deal));
  expect(devices.map(dealPulls)).toEqual(pullsBefore);
  // Straight into RxDB's pull stream, in full replication too: no 'RESYNC', so nothing waited for the
  // database to be idle (another collection's first sync writing, say).
  expect(devices.map(streamedPages).every((n, i) => n > streamedBefore[i]!)).toBe(true);

  // RxDB stored the streamed position: the next change that must be pulled is pulled from there, and the
  // server honours that position (sealed by the stream for every reader) without restarting the feed.
  await cancel(deal);
  for (const d of devices) await eventually(async () => !(await holds(d, deal)));
  expect(devices.map(dealPulls).every((n, i) => n > pullsBefore[i]!)).toBe(true);
  for (const d of devices) expect(await holds(d, warmUp)).toBe(true);
  // RxDB's open-source build caps the collections open at once: a retry of this test opens its own.
  for (const d of devices) await sync.closeClient(d);
});

test('rows a reader may not see never travel in the stream; they are pulled by those who may', async () => {
  const brand = await sync.server.createUser({ role: 'brand' });
  const free = await sync.server.createUser({ role: 'creator' });
  const pro = await sync.server.createUser({ role: 'creator' });
  await makePro(pro);
  const [open] = (await insertDeals(sync.server.db, brand.id, 1)) as [string];
  const stream = await rowsStream(free);
  const freeDevice = await sync.client(free, ['profiles', 'deals'], { pullOnlyByRole: true });
  const proDevice = await sync.client(pro, ['profiles', 'deals'], { pullOnlyByRole: true });
  for (const d of [freeDevice, proDevice]) await eventually(() => holds(d, open));

  // Open to everyone: in the stream.
  const [shared] = (await insertDeals(sync.server.db, brand.id, 1)) as [string];
  await eventually(() => stream.rows().some((r) => r.documents.some((d) => d.id === shared)));

  // Pro-only: a notice, and only the Pro member's pull brings it.
  const noticesBefore = stream.changes().length;
  const [proOnly] = (await insertDeals(sync.server.db, brand.id, 1, { pro_only: true })) as [string];
  await eventually(() => stream.changes().length > noticesBefore);
  await eventually(() => holds(proDevice, proOnly));
  // A cancelled deal is its brand's and its applicants' to see: a notice too, and the others drop it.
  await cancel(open);
  await eventually(async () => !(await holds(freeDevice, open)) && !(await holds(proDevice, open)));
  // After those, a deal open to all still arrives on both, whether by the stream or by a pull.
  const [last] = (await insertDeals(sync.server.db, brand.id, 1)) as [string];
  for (const d of [freeDevice, proDevice]) await eventually(() => holds(d, last));

  const streamed = stream.rows().flatMap((r) => r.documents);
  expect(streamed.map((d) => d.id)).not.toContain(proOnly);
  expect(streamed.filter((d) => d.id === open).map((d) => d.status)).not.toContain('cancelled');
  expect(streamed.every((d) => d.status === 'open' && d.pro_only === false)).toBe(true);
  expect(await holds(freeDevice, proOnly)).toBe(false);
  stream.close();
});

test('a position the stream sealed is honoured for any user in step; a made-up one restarts the feed', async () => {
  const brand = await sync.server.createUser({ role: 'brand' });
  const creator = await sync.server.createUser({ role: 'creator' });
  await insertDeals(sync.server.db, brand.id, 1);
  const stream = await rowsStream(creator);
  const first = await eventually(async () => {
    const page = await pullAs(creator, null);
    return page.documents.length > 0 && page;
  });
  // Wait for a streamed event that follows this device's checkpoint.
  let rows: ReturnType<typeof stream.rows>[number] | undefined;
  let held = first.checkpoint!;
  for (let i = 0; i < 5 && !rows; i++) {
    const [id] = (await insertDeals(sync.server.db, brand.id, 1)) as [string];
    const event = await eventually(() => stream.rows().find((r) => r.documents.some((d) => d.id === id)));
    if (event.from.xid === held.xid && event.from.id === held.id) rows = event;
    else held = (await pullAs(creator, held)).checkpoint!;
  }
  expect(rows).toBeDefined();
  const after = checkpointAfterRows(held, rows!);

  const [next] = (await insertDeals(sync.server.db, brand.id, 1)) as [string];
  const page = await eventually(async () => {
    const p = await pullAs(creator, after);
    return p.documents.some((d) => d.id === next) && p;
  });
  expect(page.reset).toBeUndefined();
  expect(page.documents.map((d) => d.id)).toEqual([next]);

  // The same seal on another position (a device claiming to stand where it was never sent).
  const forged = { ...after, xid: '1' };
  expect((await pullAs(creator, forged)).reset).toBe(true);
  stream.close();
});

test('a client of protocol 1 gets a change notice for rows the stream carries to newer clients', async () => {
  const brand = await sync.server.createUser({ role: 'brand' });
  const creator = await sync.server.createUser({ role: 'creator' });
  const older = await openTestStream(sync.server.url, creator.accessToken, '1');
  const newer = await rowsStream(creator);
  await eventually(() => older.events.some((e) => e.event === 'hello'));
  const [id] = (await insertDeals(sync.server.db, brand.id, 1)) as [string];
  await eventually(() => newer.rows().some((r) => r.documents.some((d) => d.id === id)));
  await eventually(() => older.changes().includes('deals'));
  expect(older.events.filter((e) => e.event === 'rows')).toEqual([]);
  older.close();
  newer.close();
});

test('deals_read is the policy the streamed rows were written against', async () => {
  // Rows go in the stream when RLS shows them to a signed-in reader with no profile, deal or application
  // (ANY_READER in sync-server/sync/streamed-catalog-rows.ts): that holds only while the policy shows
  // such rows to everyone and adds the rest per user. A change to the policy must be read against it
  // before this expectation is updated.
  const { rows } = await sync.server.db.pool.query<{ policyname: string; permissive: string; qual: string }>(
    `select policyname, permissive, qual from pg_policies where schemaname = 'public' and tablename = 'deals' and cmd in ('SELECT', 'ALL')`,
  );
  expect(rows.map((r) => [r.policyname, r.permissive])).toEqual([['deals_read', 'PERMISSIVE']]);
  expect(rows[0]!.qual.replace(/\s+/g, ' ')).toMatchInlineSnapshot(
    `"(((status = ANY (ARRAY['open'::text, 'completed'::text])) AND ((NOT pro_only) OR ( SELECT is_pro_user(( SELECT auth.uid() AS uid)) AS is_pro_user))) OR (brand_id = ( SELECT auth.uid() AS uid)) OR (id IN ( SELECT a.deal_id FROM applications a WHERE (a.creator_id = ( SELECT auth.uid() AS uid)))) OR ( SELECT is_admin() AS is_admin))"`,
  );
});
