import { replicateRxCollection } from 'rxdb/plugins/replication';
import { afterEach, expect, test } from 'vitest';
import type { RxCollection } from 'rxdb';
import type { CollectionName, SyncCheckpoint } from '../../domain/collections/index.ts';
import type { SyncDoc } from '../sync-api.ts';
import type { PactaDatabase } from '../create-database.ts';
import { openUnitDatabase } from '../unit-database.ts';
import { createMetaStorageRecorder } from './meta-storages.ts';

let db: PactaDatabase | undefined;
afterEach(async () => {
  await db?.remove();
  db = undefined;
});

/** A pull-only replication of `name` whose server has nothing, not started. */
function replication(database: PactaDatabase, name: CollectionName) {
  return replicateRxCollection<SyncDoc, SyncCheckpoint>({
    replicationIdentifier: `unit-${name}`,
    collection: database.collections[name] as unknown as RxCollection<SyncDoc>,
    live: false,
    autoStart: false,
    waitForLeadership: false,
    pull: { handler: async () => ({ documents: [], checkpoint: undefined }) },
  });
}

/** The database's own store, as written: one entry per write. */
function internalWrites(database: PactaDatabase): { bulks: string[][] } {
  const seen = { bulks: [] as string[][] };
  database.internalStore.changeStream().subscribe((bulk) => seen.bulks.push(bulk.events.map((e) => e.documentId)));
  return seen;
}

test('replications that start together write their meta storages down in one write, and RxDB then writes none', async () => {
  db = await openUnitDatabase();
  const names: CollectionName[] = ['deals', 'applications', 'profiles'];
  const states = names.map((name) => replication(db!, name));
  const writes = internalWrites(db);
  const recorder = createMetaStorageRecorder(db);

  await Promise.all(states.map((state) => recorder.record(state)));

  expect(writes.bulks).toHaveLength(1);
  expect(writes.bulks[0]).toHaveLength(3);
  const metas = await Promise.all(states.map((s) => s.metaInfoPromise));
  const entries = await db.internalStore.findDocumentsById(writes.bulks[0]!, false);
  for (const [i, name] of names.entries()) {
    const entry = entries.find((e) => e.data.name === name);
    expect(entry?.data.connectedStorages.map((c: { collectionName: string }) => c.collectionName)).toEqual([
      metas[i]!.collectionName,
    ]);
  }

  // Started, each finds its entry written: no write of its own.
  for (const state of states) await state.start();
  await Promise.all(states.map((s) => s.awaitInitialReplication()));
  expect(writes.bulks).toHaveLength(1);
  await Promise.all(states.map((s) => s.cancel()));
});

test('a replication whose meta storage is already written down writes nothing more', async () => {
  db = await openUnitDatabase();
  const first = replication(db, 'deals');
  await createMetaStorageRecorder(db).record(first);
  await first.cancel();
  const writes = internalWrites(db);

  await createMetaStorageRecorder(db).record(replication(db, 'deals'));

  expect(writes.bulks).toEqual([]);
});
