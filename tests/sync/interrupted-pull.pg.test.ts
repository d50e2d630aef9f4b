import { IDBFactory } from 'fake-indexeddb';
import { expect, test } from 'vitest';
import { eventually, insertDeals, newId, storageWithFaultyReplicationMeta } from './sync-harness.ts';
import { syncTestFixture } from './sync-fixture.ts';

// RxDB writes a pulled document into the local collection, then records it as the known server state
// in a second write. A tab closed between the two leaves a document the next start cannot tell from a
// local edit: RxDB's pull then leaves it alone and counts on the push to sort it out. It is not a local
// edit, so nothing is pushed; the device must still end up with the server's later changes.

const sync = syncTestFixture();

test('a pulled document whose master record a closed tab never wrote still receives the server’s later changes', async () => {
  const brand = await sync.server.createUser({ role: 'brand' });
  const idb = new IDBFactory();
  const name = `pacta-interrupted-${newId()}`;
  const interrupted = storageWithFaultyReplicationMeta(idb);
  const first = await sync.client(brand, ['deals'], { storage: interrupted.storage, name });
  await first.replication.awaitInitialSync();
  interrupted.control.dropPulledMasters = true;
  const [id] = (await insertDeals(sync.server.db, brand.id, 1)) as [string];
  await eventually(() => first.db.deals.findOne(id).exec());
  await sync.closeClient(first, { remove: false });

  await sync.server.db.asService((tx) =>
    tx.query(`update public.deals set title = 'Renamed on the server' where id = $1`, [id]),
  );
  const again = await sync.client(brand, ['deals'], { idb, name });
  await eventually(
    async () => (await again.db.deals.findOne(id).exec())?.title === 'Renamed on the server',
    20_000,
  ).catch(() => undefined);
  expect((await again.db.deals.findOne(id).exec())?.title).toBe('Renamed on the server');
  // And nothing was pushed for it: the device never changed it.
  expect(again.network.calls.filter((call) => call.url.includes('/push'))).toEqual([]);
});
