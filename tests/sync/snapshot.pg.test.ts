import { expect, test } from 'vitest';
import { IDBFactory } from 'fake-indexeddb';
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
  expect(requestsFor(c.network.calls, 'deals', 'snapshot')).toHaveLength(1);
  expect(c.replication.syncStatus.initialSync.complete).toBe(true);

  // A later change comes by an ordinary pull from the checkpoint the stream's last page left.
  const [later] = await insertDeals(sync.server.db, brand.id, 1);
  await eventually(async () => (await c.db.deals.findOne(later!).exec()) !== null);
  const pulls = requestsFor(c.network.calls, 'deals', 'pull');
  expect(pulls.length).toBeGreaterThan(0);
  expect(pulls.every((p) => new URL(p.url).searchParams.get('checkpoint') !== null)).toBe(true);
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
  expect(firstPull && JSON.parse(new URL(firstPull.url).searchParams.get('checkpoint') ?? 'null')).toMatchObject({ xid: expect.any(String) });
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
