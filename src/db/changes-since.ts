import type { RxDocumentData, RxStorage, RxStorageInstance, RxStorageInstanceCreationParams } from 'rxdb';
import { fromDexieToStorage } from 'rxdb/plugins/storage-dexie';

type DexieInternals = {
  dexieTable: {
    where(index: string): { above(key: unknown[]): { limit(n: number): { toArray(): Promise<unknown[]> } } };
  };
  booleanIndexes: string[];
};
type Checkpoint = { id: string; lwt: number };
/** RxDB's smallest write time (`RX_META_LWT_MINIMUM`): every stored document was written after it. */
const LWT_MINIMUM = 1;

/**
 * The local documents written after a checkpoint, read as one key range of the `[_meta.lwt+id]` index
 * that starts right after the checkpoint.
 *
 * RxDB's upstream asks for them whenever the replication is told to resync. Without this, the Dexie
 * storage answers with a query whose range starts at the checkpoint's write time, not at its id, and
 * filters the rest: every document of the last bulk write (all written at the same instant: a pulled
 * page of 1,000, or 10,000 after a first sync) is read and decoded again before the first newer one.
 * The answer is the same: documents in `(_meta.lwt, id)` order after the checkpoint, deleted ones
 * included, at most `limit`, and the last one's position as the next checkpoint.
 */
export function withKeyRangeChanges<S extends RxStorage<unknown, unknown>>(storage: S): S {
  const wrapped = Object.create(storage) as S;
  wrapped.createStorageInstance = async <RxDocType>(params: RxStorageInstanceCreationParams<RxDocType, unknown>) => {
    const instance: RxStorageInstance<RxDocType, unknown, unknown, Checkpoint> =
      await storage.createStorageInstance(params);
    const primaryKey = params.schema.primaryKey;
    if (typeof primaryKey !== 'string') return instance;
    instance.getChangedDocumentsSince = async (limit: number, checkpoint?: Checkpoint) => {
      const { dexieTable, booleanIndexes } = (await instance.internals) as unknown as DexieInternals;
      const after = checkpoint ? [checkpoint.lwt, checkpoint.id] : [LWT_MINIMUM, ''];
      const rows = await dexieTable.where(`[_meta.lwt+${primaryKey}]`).above(after).limit(limit).toArray();
      const documents = rows.map((row) => fromDexieToStorage(booleanIndexes, row) as RxDocumentData<RxDocType>);
      const last = documents.at(-1);
      return {
        documents,
        checkpoint: last
          ? { id: (last as Record<string, unknown>)[primaryKey] as string, lwt: last._meta.lwt }
          : (checkpoint ?? { id: '', lwt: 0 }),
      };
    };
    return instance;
  };
  return wrapped;
}
