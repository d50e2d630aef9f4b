import {
  _collectionNamePrimary,
  getPrimaryKeyOfInternalDocument,
  INTERNAL_CONTEXT_COLLECTION,
  type BulkWriteRow,
  type InternalStoreCollectionDocType,
  type RxDocumentData,
} from 'rxdb';
import type { RxReplicationState } from 'rxdb/plugins/replication';
import type { SyncCheckpoint } from '../../domain/collections/index.ts';
import type { PactaDatabase } from '../create-database.ts';
import type { SyncDoc } from '../sync-api.ts';

type Replication = Pick<RxReplicationState<SyncDoc, SyncCheckpoint>, 'collection' | 'metaInfoPromise'>;
type Database = Pick<PactaDatabase, 'internalStore'>;

/**
 * Writes down, for replications created together, the storage each keeps its checkpoints in, in one
 * write before they start.
 *
 * RxDB records a replication's meta storage on its collection's entry in the database's own store (so
 * that removing the collection removes that storage too) as the replication starts: a read, then a
 * write, each replication on its own. Every write is an IndexedDB transaction on the same store, so on
 * a first sign-in the thirteen replications' writes ran one after another, and none could ask for its
 * first page before all of them were done: 0.2 to 0.65 s between the replications' start and the first
 * page, on a device whose first pages had already arrived. Written beforehand, RxDB's own step finds
 * each entry there and writes nothing.
 *
 * Nothing depends on this write: when it fails (another tab wrote the entry first, the database
 * closed), RxDB's own step writes the entry as before.
 */
export function createMetaStorageRecorder(db: Database) {
  const batch: { state: Replication; done: () => void }[] = [];
  return {
    /** Resolves once the replication's meta storage is written down (or the write is left to RxDB). */
    record(state: Replication): Promise<void> {
      return new Promise((done) => {
        // The replications that ask in the same task (they start together) share one write.
        if (batch.length === 0) setTimeout(() => void recordAll(db, batch.splice(0)), 0);
        batch.push({ state, done });
      });
    },
  };
}

export type MetaStorageRecorder = ReturnType<typeof createMetaStorageRecorder>;

async function recordAll(db: Database, batch: { state: Replication; done: () => void }[]): Promise<void> {
  try {
    const rows = await missingEntries(
      db,
      batch.map((b) => b.state),
    );
    if (rows.length > 0) await db.internalStore.bulkWrite(rows, 'pacta-record-meta-storages');
  } catch {
    // RxDB's own step writes what this could not.
  } finally {
    batch.forEach((b) => b.done());
  }
}

/** The collections' entries that lack their replication's meta storage, each with it added. */
async function missingEntries(
  db: Database,
  states: Replication[],
): Promise<BulkWriteRow<InternalStoreCollectionDocType>[]> {
  const metas = await Promise.all(states.map((s) => s.metaInfoPromise));
  const ids = states.map(({ collection }) =>
    getPrimaryKeyOfInternalDocument(
      _collectionNamePrimary(collection.name, collection.schema.jsonSchema),
      INTERNAL_CONTEXT_COLLECTION,
    ),
  );
  const entries = (await db.internalStore.findDocumentsById(
    ids,
    false,
  )) as RxDocumentData<InternalStoreCollectionDocType>[];
  const byId = new Map(entries.map((entry) => [entry.id, entry]));
  const rows: BulkWriteRow<InternalStoreCollectionDocType>[] = [];
  states.forEach((_, i) => {
    const entry = byId.get(ids[i]!);
    const meta = metas[i]!;
    if (!entry) return;
    const connected = entry.data.connectedStorages;
    if (connected.some((c) => c.collectionName === meta.collectionName && c.schema.version === meta.schema.version))
      return;
    const data = {
      ...entry.data,
      connectedStorages: [...connected, { collectionName: meta.collectionName, schema: meta.schema }],
    };
    rows.push({ previous: entry, document: { ...entry, data } });
  });
  return rows;
}
