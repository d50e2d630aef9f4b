import type { RxCollection, RxDocumentData } from 'rxdb';
import type { SyncDoc } from '../sync-api.ts';

/**
 * The write that puts a refusal back. Named as the replication's own (`replication-`): it is no change
 * of the user's, so it never counts as waiting to be pushed. (RxDB's push still reads it, and sends
 * nothing: a document holding a refusal is never sent.)
 */
const KEPT_REFUSAL_WRITE = 'replication-kept-refusal';

/**
 * Puts a refusal back on the server's copy a pull just wrote (see `refusalDroppedByPull`). Written
 * only over that very copy: if the user changed the document since, their change decides, and the
 * write is refused by the storage as a conflict, which is left alone.
 */
export async function restoreRefusal(
  collection: RxCollection<SyncDoc>,
  written: RxDocumentData<SyncDoc>,
  refusal: { code: string; message: string },
): Promise<void> {
  await collection.storageInstance.bulkWrite(
    [{ previous: written, document: { ...written, sync_rejection: refusal } }],
    KEPT_REFUSAL_WRITE,
  );
}
