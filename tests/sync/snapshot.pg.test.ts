import { expect, test } from 'vitest';
import { IDBFactory } from 'fake-indexeddb';
import { prefetchKey, prefetchSnapshot } from '../../src/db/snapshot-feed.ts';
import { createSyncApi } from '../../src/db/sync-api.ts';
import { PACED_FROM_DOCUMENTS, PACED_PART_DOCUMENTS } from '../../src/db/sync/first-sync-pace.ts';
import { FIRST_SNAPSHOT_PAGE, MAX_PULL_LIMIT } from '../../src/domain/collections/index.ts';
import type { TestUser } from '../support/test-server.ts';
import { eventually, insertDeals, storageWithFaultyReplicationMeta, switchableFetch } from './sync-harness.ts';
import { syncTestFixture } from './sync-fixture.ts';

const sync = syncTestFixture();

const requestsFor = (calls: { url: string }[], collection: string, kind: 'pull' | 'snapshot') =>
  calls.filter((c) => new URL(c.url).pathname === `/sync/v1/${collection}/${kind}`);

test('a first sync comes in one streamed request, page by page, and the feed goes on from its last page', async () => {
  const brand = await sync.server.createUser({ role: 'brand' });
  const creator = await sync.server.createUser({ role: 'creator' });
  const ids = await insertDeals(sync.server.db, brand.id, 450);
  const c = await sync.client(creator, ['deals'], { pullBatchSize: 100 });
  await c.replication.awaitInitialSync();
  const local = await eventually(async () => {
    const docs = await c.db.deals.find({ selector: { brand_id: brand.id } }).exec();
    return docs.length === ids.length && docs;
  });
  expect(local.map((d) => d.id).sort()).toEqual([...ids].sort());
  // One stream, unless another test's open transaction held every row back from the first one: an
  // empty, held-back page leaves the device holding nothing, so it streams from the start again.
  const streams = requestsFor(c.network.calls, 'deals', 'snapshot').length;
  expect(streams).toBeGreaterThanOrEqual(1);
  // No page of it was pulled from the start of the feed: only from a checkpoint a stream left.
  const fromCheckpoint = (p: { url: string }) => new URL(p.url).searchParams.get('checkpoint') !== null;
  expect(requestsFor(c.network.calls, 'deals', 'pull').every(fromCheckpoint)).toBe(true);
  expect(c.replication.syncStatus.initialSync.complete).toBe(true);

  // A later change comes by an ordinary pull from the checkpoint the stream's last page left.
  const [later] = await insertDeals(sync.server.db, brand.id, 1);
  await eventually(async () => (await c.db.deals.findOne(later!).exec()) !== null);
  const pulls = requestsFor(c.network.calls, 'deals', 'pull');
  expect(pulls.length).toBeGreaterThan(0);
  expect(pulls.every(fromCheckpoint)).toBe(true);
  expect(requestsFor(c.network.calls, 'deals', 'snapshot')).toHaveLength(streams);
});

test('a fresh feed streams a small first page, then full ones; the first sync still ends only with its last page', async () => {
  const brand = await sync.server.createUser({ role: 'brand' });
  const creator = await sync.server.createUser({ role: 'creator' });
  const ids = await insertDeals(sync.server.db, brand.id, MAX_PULL_LIMIT + 250);

  // The stream as the server sends it: a first screenful, then pages of the limit asked for.
  const api = createSyncApi({ serverUrl: sync.server.url, getAccessToken: () => creator.accessToken });
  const sizes: number[] = [];
  for await (const page of api.snapshot('deals', MAX_PULL_LIMIT)) sizes.push(page.documents.length);
  expect(sizes[0]).toBe(FIRST_SNAPSHOT_PAGE);
  expect(sizes.slice(1, -1).every((n) => n === MAX_PULL_LIMIT)).toBe(true);
  expect(sizes.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(ids.length);

  // A device with the default page size: the short first page does not end its first sync.
  const c = await sync.client(creator, ['deals']);
  await c.replication.awaitInitialSync();
  expect(await c.db.deals.count({ selector: { brand_id: brand.id } }).exec()).toBe(ids.length);
  expect(c.replication.syncStatus.initialSync.complete).toBe(true);
  expect(requestsFor(c.network.calls, 'deals', 'snapshot')).toHaveLength(1);
});

test('a stream cut after a few pages goes on by pulls from the last page received: nothing lost', async () => {
  const brand = await sync.server.createUser({ role: 'brand' });
  const creator = await sync.server.createUser({ role: 'creator' });
  const ids = await insertDeals(sync.server.db, brand.id, 700);
  const network = switchableFetch();
  network.cutAfterLines = (url) => (url.includes('/deals/snapshot') ? 3 : undefined);
  const c = await sync.client(creator, ['deals'], { pullBatchSize: 100, network });
  await c.replication.awaitInitialSync();
  const local = await eventually(async () => {
    const docs = await c.db.deals.find({ selector: { brand_id: brand.id } }).exec();
    return docs.length === ids.length && docs;
  });
  expect(new Set(local.map((d) => d.id))).toEqual(new Set(ids));
  // The first pull after the cut continues from the third page, not from the start.
  const [firstPull] = requestsFor(c.network.calls, 'deals', 'pull');
  expect(firstPull && JSON.parse(new URL(firstPull.url).searchParams.get('checkpoint') ?? 'null')).toMatchObject({
    xid: expect.any(String),
  });
});

test('a device that already holds documents of the collection but lost its checkpoint pulls instead of taking the stream', async () => {
  const brand = await sync.server.createUser({ role: 'brand' });
  const creator = await sync.server.createUser({ role: 'creator' });
  await insertDeals(sync.server.db, brand.id, 30);
  const idb = new IDBFactory();
  const name = `pacta-snapshot-${creator.id.slice(0, 8)}`;
  const faulty = storageWithFaultyReplicationMeta(idb);
  faulty.control.dropCheckpoints = true;
  const first = await sync.client(creator, ['deals'], { storage: faulty.storage, name });
  await first.replication.awaitInitialSync();
  await eventually(async () => (await first.db.deals.find({ selector: { brand_id: brand.id } }).exec()).length === 30);
  await first.replication.awaitInSync();
  await sync.closeClient(first, { remove: false });

  // Its documents are the server's but no checkpoint was kept: the lost-checkpoint pull reads the
  // whole feed and drops what the server no longer has, which a stream for empty devices does not.
  const again = await sync.client(creator, ['deals'], { storage: faulty.storage, name });
  await again.replication.awaitInitialSync();
  expect(requestsFor(again.network.calls, 'deals', 'snapshot')).toHaveLength(0);
  expect(requestsFor(again.network.calls, 'deals', 'pull').length).toBeGreaterThan(0);
});

/**
 * Opens the deals stream the way a first sign-in does, before the user's database exists. Resolves
 * when its first page is here: the server's snapshot was taken, so what commits from then on is not in it.
 */
function openEarly(user: TestUser, limit: number, network: ReturnType<typeof switchableFetch>): Promise<void> {
  const api = createSyncApi({
    serverUrl: sync.server.url,
    getAccessToken: () => user.accessToken,
    fetch: network.fetch,
  });
  let firstPage = () => {};
  const arrived = new Promise<void>((resolve) => (firstPage = resolve));
  prefetchSnapshot(prefetchKey(sync.server.url, user.id, 'deals', limit), async function* (signal) {
    for await (const page of api.snapshot('deals', limit, signal)) {
      firstPage();
      yield page;
    }
  });
  return arrived;
}

test('a stream opened before the database exists is taken over by the replication: one request for the whole first sync', async () => {
  const brand = await sync.server.createUser({ role: 'brand' });
  const creator = await sync.server.createUser({ role: 'creator' });
  const ids = await insertDeals(sync.server.db, brand.id, 250);
  const early = switchableFetch();
  await openEarly(creator, 100, early);
  // Committed after the stream's snapshot: it comes by a pull once the stream's pages are written.
  const [meanwhile] = await insertDeals(sync.server.db, brand.id, 1);
  const c = await sync.client(creator, ['deals'], { pullBatchSize: 100, takesEarlyStreams: true });
  await c.replication.awaitInitialSync();
  await eventually(
    async () => (await c.db.deals.find({ selector: { brand_id: brand.id } }).exec()).length === ids.length + 1,
  );
  expect((await c.db.deals.findOne(meanwhile!).exec())?.id).toBe(meanwhile);
  expect(requestsFor(early.calls, 'deals', 'snapshot')).toHaveLength(1);
  // The replication read the early stream: it opened none of its own and never pulled from the start.
  expect(requestsFor(c.network.calls, 'deals', 'snapshot')).toHaveLength(0);
  expect(
    requestsFor(c.network.calls, 'deals', 'pull').every((p) => new URL(p.url).searchParams.get('checkpoint') !== null),
  ).toBe(true);
});

test('an early stream cut after two pages: the replication takes those and pulls on from the second', async () => {
  const brand = await sync.server.createUser({ role: 'brand' });
  const creator = await sync.server.createUser({ role: 'creator' });
  const ids = await insertDeals(sync.server.db, brand.id, 450);
  const early = switchableFetch();
  early.cutAfterLines = (url) => (url.includes('/deals/snapshot') ? 2 : undefined);
  await openEarly(creator, 100, early);
  const c = await sync.client(creator, ['deals'], { pullBatchSize: 100, takesEarlyStreams: true });
  await c.replication.awaitInitialSync();
  const local = await eventually(async () => {
    const docs = await c.db.deals.find({ selector: { brand_id: brand.id } }).exec();
    return docs.length === ids.length && docs;
  });
  expect(new Set(local.map((d) => d.id))).toEqual(new Set(ids));
  expect(requestsFor(c.network.calls, 'deals', 'snapshot')).toHaveLength(0);
  const [firstPull] = requestsFor(c.network.calls, 'deals', 'pull');
  expect(firstPull && JSON.parse(new URL(firstPull.url).searchParams.get('checkpoint') ?? 'null')).toMatchObject({
    xid: expect.any(String),
  });
});

test('an early stream for another page size is not taken: the replication opens its own', async () => {
  const brand = await sync.server.createUser({ role: 'brand' });
  const creator = await sync.server.createUser({ role: 'creator' });
  const ids = await insertDeals(sync.server.db, brand.id, 120);
  await openEarly(creator, 50, switchableFetch());
  const c = await sync.client(creator, ['deals'], { pullBatchSize: 100, takesEarlyStreams: true });
  await c.replication.awaitInitialSync();
  await eventually(
    async () => (await c.db.deals.find({ selector: { brand_id: brand.id } }).exec()).length === ids.length,
  );
  expect(requestsFor(c.network.calls, 'deals', 'snapshot')).toHaveLength(1);
});

test('a collection the user has nothing of is asked for once or twice, not again and again', async () => {
  const brand = await sync.server.createUser({ role: 'brand' });
  const creator = await sync.server.createUser({ role: 'creator' });
  await insertDeals(sync.server.db, brand.id, 3);
  const c = await sync.client(creator, ['applications', 'deals'], { pullBatchSize: 100 });
  await c.replication.awaitInitialSync();
  // Time for a loop to show: a later deal travels notice → pull → local database.
  const [later] = await insertDeals(sync.server.db, brand.id, 1);
  await eventually(async () => (await c.db.deals.findOne(later!).exec()) !== null);
  expect(await c.db.applications.count().exec()).toBe(0);
  // The first sync's stream, and at most one more on the stream's `hello` (an empty feed keeps no checkpoint).
  expect(requestsFor(c.network.calls, 'applications', 'snapshot').length).toBeLessThanOrEqual(2);
});

test('a big first sync of a collection whose rows the stream does not carry is written in parts of pages past its first documents', async () => {
  const user = await sync.server.createUser({ role: 'creator' });
  const count = FIRST_SNAPSHOT_PAGE + 4 * MAX_PULL_LIMIT + 300;
  await sync.server.db.asService((tx) =>
    tx.query(
      `insert into public.notifications (user_id, type, title)
       select $1, 'system', 'Notice ' || n from generate_series(1, $2::int) as n`,
      [user.id, count],
    ),
  );
  const c = await sync.client(user, ['notifications']);
  // RxDB would store every page that arrived while the last was written in one write (thousands of
  // documents holding IndexedDB, and any live change, meanwhile).
  const writes: number[] = [];
  const sub = c.db.notifications.eventBulks$.subscribe((bulk) => {
    if (bulk.context.startsWith('replication-downstream-')) writes.push(bulk.events.length);
  });
  await c.replication.awaitInitialSync();
  sub.unsubscribe();
  expect(await c.db.notifications.count().exec()).toBe(count);
  // The first documents go unpaced (a small first sync is not slowed down), the rest a part of a page a write.
  expect(Math.max(...writes)).toBeLessThanOrEqual(PACED_FROM_DOCUMENTS + MAX_PULL_LIMIT);
  expect(writes.slice(-4).every((n) => n <= PACED_PART_DOCUMENTS)).toBe(true);
  // Where the parts left the replication is where the feed goes on: the next notification, and only it.
  await sync.server.db.asService((tx) =>
    tx.query(`insert into public.notifications (user_id, type, title) values ($1, 'system', 'After the first sync')`, [
      user.id,
    ]),
  );
  await eventually(async () => (await c.db.notifications.count().exec()) === count + 1);
});
