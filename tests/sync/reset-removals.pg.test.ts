import { IDBFactory } from 'fake-indexeddb';
import { expect, test } from 'vitest';
import { prepareDocument } from '../../src/db/index.ts';
import { eventually, newId, storageWithFaultyReplicationMeta, switchableFetch } from './sync-harness.ts';
import { syncTestFixture } from './sync-fixture.ts';

// A device that lost its pull position reads the whole feed again and removes what the feed no longer
// has. The feed holds live rows only, and the position it ends on lies past the deletions it skipped:
// a document the device keeps through that pull is never told of its deletion afterwards. So only a
// change still waiting to be pushed may keep a document, not a pulled copy the push step merely
// recorded (it answers such a copy as accepted without sending anything, since the device never
// changed it). The collection's pushes and that read take turns, so a push is either in the feed or
// still waiting: the device's own new document never leaves it.

const sync = syncTestFixture();

test('a pulled draft deleted elsewhere while the device was away is removed when the device restarts without its pull position', async () => {
  const creator = await sync.server.createUser({ role: 'creator' });
  const idb = new IDBFactory();
  const name = `pacta-reset-${newId()}`;
  const faulty = storageWithFaultyReplicationMeta(idb);
  const away = await sync.client(creator, ['drafts'], { storage: faulty.storage, name });
  await away.replication.awaitInitialSync();

  // Another device writes a draft; this one pulls it, and the tab closes before RxDB recorded either
  // the draft's server state or the pull position (both are written after the document).
  faulty.control.dropPulledMasters = true;
  faulty.control.dropCheckpoints = true;
  const other = await sync.client(creator, ['drafts']);
  const id = newId();
  const kept = newId();
  await other.db.drafts.insert(
    prepareDocument('drafts', { id, user_id: creator.id, kind: 'deal', title: 'Written elsewhere' } as never),
  );
  await other.db.drafts.insert(
    prepareDocument('drafts', { id: kept, user_id: creator.id, kind: 'deal', title: 'There' } as never),
  );
  await eventually(async () => (await away.db.drafts.findByIds([id, kept]).exec()).size === 2);
  await sync.closeClient(away, { remove: false });

  // Deleted on the other device while this one is away.
  await (await other.db.drafts.findOne(id).exec())!.incrementalRemove();
  await other.replication.awaitInSync();
  await eventually(
    async () =>
      (await sync.server.db.pool.query(`select deleted from public.drafts where id = $1`, [id])).rows[0]?.deleted ===
      true,
  );
  // And the other draft changed after that: the feed now ends past the deletion.
  await (await other.db.drafts.findOne(kept).exec())!.incrementalPatch({ title: 'Still there' });
  await other.replication.awaitInSync();

  // Back again: its first pull (from the start: no position; the draft still there makes it a page the
  // device then continues from) is slow, so the push step has recorded
  // the unchanged copy as accepted while that pull was still running.
  const network = switchableFetch();
  network.delayMs = (url) => (url.includes('/drafts/pull') ? 400 : 0);
  const back = await sync.client(creator, ['drafts'], { idb, name, network });
  await back.replication.awaitInitialSync();
  await eventually(async () => (await back.db.drafts.findOne(id).exec()) === null, 10_000).catch(() => undefined);
  expect((await back.db.drafts.findOne(id).exec())?.toJSON()).toBeUndefined();
  expect((await back.db.drafts.findOne(kept).exec())?.get('title')).toBe('Still there');
  // Nothing was pushed for it: the device never changed it.
  expect(network.calls.filter((call) => call.url.includes('/push'))).toEqual([]);
});

test('a draft the device pushed but never pulled back, deleted on another device, is removed when the device first pulls', async () => {
  const creator = await sync.server.createUser({ role: 'creator' });
  // The device's pulls fail for now (a flaky network that lets the small pushes through): it pushes its
  // draft but never pulls the server's stamped copy, and RxDB stores no pull position.
  const network = switchableFetch();
  const plainFetch = network.fetch;
  let pullsFail = true;
  network.fetch = (input, init) =>
    pullsFail && /\/drafts\/(pull|snapshot)/.test(String(input))
      ? Promise.reject(new TypeError('fetch failed: timed out'))
      : plainFetch(input, init);
  const device = await sync.client(creator, ['drafts'], { network });
  const id = newId();
  await device.db.drafts.insert(
    prepareDocument('drafts', { id, user_id: creator.id, kind: 'deal', title: 'Pushed, never pulled back' } as never),
  );
  await eventually(
    async () => (await sync.server.db.pool.query(`select 1 from public.drafts where id = $1`, [id])).rowCount === 1,
  );

  // Another device deletes it, then writes another draft (the feed now ends past the deletion).
  const other = await sync.client(creator, ['drafts']);
  await eventually(() => other.db.drafts.findOne(id).exec());
  await (await other.db.drafts.findOne(id).exec())!.incrementalRemove();
  const later = newId();
  await other.db.drafts.insert(
    prepareDocument('drafts', { id: later, user_id: creator.id, kind: 'deal', title: 'Written later' } as never),
  );
  await other.replication.awaitInSync();
  await eventually(
    async () =>
      (await sync.server.db.pool.query(`select 1 from public.drafts where id = $1 and deleted`, [id])).rowCount === 1,
  );

  pullsFail = false;
  device.replication.reSync();
  await eventually(() => device.db.drafts.findOne(later).exec());
  await eventually(async () => (await device.db.drafts.findOne(id).exec()) === null, 10_000).catch(() => undefined);
  expect((await device.db.drafts.findOne(id).exec())?.toJSON()).toBeUndefined();
});

test("a draft written before the sync starts never leaves the device while its push races the device's first pull", async () => {
  const creator = await sync.server.createUser({ role: 'creator' });
  // The first pull reaches the server before the push and its answer comes back after the push's:
  // a feed read without the draft, and a push already answered when the pull compares the two.
  const network = switchableFetch();
  network.delayMs = (url) => (url.includes('/drafts/push') ? 100 : 0);
  network.delayAnswerMs = (url) => (url.includes('/drafts/pull') ? 400 : 0);
  let start = () => {};
  const c = await sync.client(creator, ['drafts'], { network, startAfter: new Promise<void>((r) => (start = r)) });
  const id = newId();
  await c.db.drafts.insert(
    prepareDocument('drafts', { id, user_id: creator.id, kind: 'message', title: 'Written offline' } as never),
  );
  let vanished = false;
  const watch = c.db.drafts.findOne(id).$.subscribe((doc) => (vanished ||= doc === null));

  start();
  await c.replication.awaitInitialSync();
  await eventually(
    async () => (await sync.server.db.pool.query(`select 1 from public.drafts where id = $1`, [id])).rowCount === 1,
  );
  await eventually(() => c.replication.syncStatus.pendingPush === 0);
  await c.replication.awaitInSync();
  watch.unsubscribe();
  expect(vanished).toBe(false);
  expect((await c.db.drafts.findOne(id).exec())?.title).toBe('Written offline');
});
