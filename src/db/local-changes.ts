import {
  getAssumedMasterState,
  getMetaWriteRow,
  type RxCollection,
  type RxDocumentData,
  type RxStorageInstanceReplicationState,
} from 'rxdb';
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
  /**
   * The rows that carry a change made on this device (`changed`, in their original order), and for
   * each row RxDB read before a pull overwrote the document, the document as that pull wrote it
   * (`superseded`: answered as the conflict, so RxDB neither sends nor records the outdated state).
   */
  changedRows(rows: PushRow[]): Promise<{ changed: PushRow[]; superseded: SyncDoc[] }>;
  /**
   * Before RxDB applies a pulled page: a document of it whose local copy is still what an earlier pull
   * wrote, but whose server state RxDB never recorded (the tab closed between the two writes), gets that
   * record now. Without it RxDB takes the copy for a local edit and skips every later server version,
   * waiting for a push that never comes (it is no local change, so it is never pushed).
   */
  recordPulledMasters(
    state: { internalReplicationState?: RxStorageInstanceReplicationState<SyncDoc> } | undefined,
    ids: string[],
  ): Promise<void>;
};

type PulledMarker = { o?: { _rev?: number; hash?: string } };

export function createLocalChangeFilter(
  collection: RxCollection<SyncDoc>,
  replicationIdentifiers: readonly string[],
  isEqual: (a: SyncDoc, b: SyncDoc) => boolean,
): LocalChangeFilter {
  // The hashes RxDB's downstream stamps into `_meta.o` (see replication-protocol/downstream), one per
  // name the collection's replication has had: a document the pull-only replication wrote (before the
  // user's role changed) is as much the server's state as one this replication wrote.
  const pullerHash = Promise.all(
    replicationIdentifiers.map((id) => collection.database.hashFunction(`rxdbreplication${id}`)),
  );
  return {
    async changedRows(rows) {
      if (rows.length === 0) return { changed: rows, superseded: [] };
      const hash = await pullerHash;
      const stored = await collection.storageInstance.findDocumentsById(
        rows.map((r) => r.newDocumentState.id),
        true,
      );
      const byId = new Map(stored.map((doc) => [(doc as RxDocumentData<SyncDoc>).id, doc as RxDocumentData<SyncDoc>]));
      const changed: PushRow[] = [];
      const superseded: SyncDoc[] = [];
      for (const row of rows) {
        const local = byId.get(row.newDocumentState.id);
        if (!local || !writtenByPull(local, hash)) {
          changed.push(row);
          continue;
        }
        // RxDB reads the documents to push, then (after any push still in flight) their known server
        // states. A pull that overwrote a document in between (it does so only when the device had no
        // change of it left) leaves a row carrying the older state against the newer server state:
        // sent, it would write that older state back (a deletion undone). The device holds no change
        // of it: nothing is sent, and the pulled document is the answer.
        const current = stripMeta(local);
        if (!isEqual(current, row.newDocumentState)) superseded.push(current);
      }
      return { changed, superseded };
    },
    async recordPulledMasters(state, ids) {
      const internal = state?.internalReplicationState;
      if (!internal || ids.length === 0) return;
      const hash = await pullerHash;
      const stored = (await collection.storageInstance.findDocumentsById(ids, true)) as RxDocumentData<SyncDoc>[];
      const pulled = stored.filter((local) => writtenByPull(local, hash));
      if (pulled.length === 0) return;
      const known = await getAssumedMasterState(
        internal,
        pulled.map((local) => local.id),
      );
      const missing = pulled.filter((local) => !known[local.id]);
      if (missing.length === 0) return;
      const rows = await Promise.all(
        missing.map((local) => getMetaWriteRow(internal, stripMeta(local) as never, undefined)),
      );
      await internal.input.metaInstance.bulkWrite(rows, 'pacta-record-pulled-master');
    },
  };
}

/** What the pull wrote, and nothing since (see above). */
function writtenByPull(local: RxDocumentData<SyncDoc>, pullerHashes: readonly string[]): boolean {
  const marker = (local._meta as PulledMarker).o;
  const height = getHeightOfRevision(local._rev);
  return (
    (marker?.hash !== undefined && pullerHashes.includes(marker.hash) && marker._rev === height) ||
    (height === 1 && typeof local.version === 'number')
  );
}

function stripMeta(doc: RxDocumentData<SyncDoc>): SyncDoc {
  const { _meta: _m, _rev: _r, _attachments: _a, ...state } = doc;
  return state as SyncDoc;
}
