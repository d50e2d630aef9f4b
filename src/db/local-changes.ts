import type { RxCollection, RxDocumentData } from 'rxdb';
import { getHeightOfRevision } from 'rxdb/plugins/utils';
import type { PushRow, SyncDoc } from './sync-api.ts';

/**
 * Only a document this device changed is a push candidate.
 *
 * RxDB's replication writes a pulled document into the local collection first and records it as the
 * known server state (its "assumed master") in a second write. A reload between the two (the user
 * navigates while the first sync is still writing) leaves documents that look, to the next start's
 * upstream pass, like local edits with no known base: RxDB would push hundreds of rows the user never
 * touched, against nothing. A row whose local copy is still exactly what the pull wrote is not a
 * change: it is answered as accepted without a request, and RxDB then records it as the known server
 * state — the write the reload interrupted.
 *
 * What the pull wrote, and nothing since:
 * - an update: RxDB marks it with `_meta.o` (the writing replication and the revision height it
 *   wrote); any local write bumps the revision past that height;
 * - an insert: RxDB's storage layer replaces `_meta` on inserts, so the marker is lost; but a first
 *   revision carrying the server's `version` stamp can only come from the server (a document created
 *   on this device has no version until the server's copy comes back, and any local write makes a
 *   second revision).
 */
export type LocalChangeFilter = {
  /** The rows that carry a change made on this device, in their original order. */
  changedRows(rows: PushRow[]): Promise<PushRow[]>;
};

type PulledMarker = { o?: { _rev?: number; hash?: string } };

export function createLocalChangeFilter(
  collection: RxCollection<SyncDoc>,
  replicationIdentifier: string,
  isEqual: (a: SyncDoc, b: SyncDoc) => boolean,
): LocalChangeFilter {
  // The hash RxDB's downstream stamps into `_meta.o` (see replication-protocol/downstream).
  const pullerHash = Promise.resolve(collection.database.hashFunction(`rxdbreplication${replicationIdentifier}`));
  return {
    async changedRows(rows) {
      if (rows.length === 0) return rows;
      const hash = await pullerHash;
      const stored = await collection.storageInstance.findDocumentsById(
        rows.map((r) => r.newDocumentState.id),
        true,
      );
      const byId = new Map(stored.map((doc) => [(doc as RxDocumentData<SyncDoc>).id, doc as RxDocumentData<SyncDoc>]));
      return rows.filter((row) => {
        const local = byId.get(row.newDocumentState.id);
        if (!local) return true;
        const marker = (local._meta as PulledMarker).o;
        const height = getHeightOfRevision(local._rev);
        const writtenByPull = (marker?.hash === hash && marker._rev === height) || (height === 1 && typeof local.version === 'number');
        return !(writtenByPull && isEqual(stripMeta(local), row.newDocumentState));
      });
    },
  };
}

function stripMeta(doc: RxDocumentData<SyncDoc>): SyncDoc {
  const { _meta: _m, _rev: _r, _attachments: _a, ...state } = doc;
  return state as SyncDoc;
}
