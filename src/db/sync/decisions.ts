import type { WithDeleted } from 'rxdb';
import type { PushRow, SyncDoc } from '../sync-api.ts';

/**
 * The replication's decisions, apart from its I/O: each takes what the replicator read and answers
 * what to write or send. Unit-tested in decisions.test.ts.
 */

/** What a reset needs to know of a local document besides its fields. */
export type ResetContext = {
  /** The ids the restarted feed holds. */
  inFeed: ReadonlySet<string>;
  /** A change of this document is still to be pushed: the push, not the feed, settles it. */
  waitingToPush: (id: string) => boolean;
};

/**
 * Which local documents a reset removes: every one the restarted feed no longer has, but for changes
 * still to be pushed and documents kept with a refusal (they stay, with their reason, until the user
 * mends or discards them). Removals are written as the master's deletion, so they are never pushed.
 */
export function resetRemovals(local: readonly SyncDoc[], context: ResetContext): WithDeleted<SyncDoc>[] {
  const removals: WithDeleted<SyncDoc>[] = [];
  for (const doc of local) {
    if (context.inFeed.has(doc.id) || context.waitingToPush(doc.id) || doc.sync_rejection) continue;
    // A copy of its own: the local document's fields are RxDB's (read-only) data.
    removals.push({ ...structuredClone(doc), _deleted: true });
  }
  return removals;
}

/**
 * What a refusal of one row does to the local document: it comes back as a local conflict carrying
 * `sync_rejection` (the server's code and message), on the last state the server had of it (or the
 * row itself when it never had one). A row outside the user's scope is removed as well: it should not
 * be on this device at all.
 */
export function refusedRow(row: PushRow, refusal: { code: string; message: string }): SyncDoc {
  const base = row.assumedMasterState ?? row.newDocumentState;
  return {
    ...base,
    _deleted: refusal.code === 'out_of_scope' ? true : base._deleted,
    sync_rejection: { code: refusal.code, message: refusal.message },
  };
}

/** HTTP statuses that refuse a batch because of its rows (so each row is tried alone), not the request. */
export const ROW_REFUSAL_STATUSES: readonly number[] = [400, 403, 413];

/**
 * The parents a batch of child rows names, per parent collection (a message names its conversation):
 * the push waits until those the device created have reached the server, since each collection
 * replicates on its own and a child arriving first is refused.
 */
export function parentsNamed(
  parents: readonly { field: string; collection: string }[],
  rows: readonly PushRow[],
): { collection: string; ids: string[] }[] {
  return parents.map(({ field, collection }) => ({
    collection,
    ids: [...new Set(rows.map((r) => r.newDocumentState[field]).filter((v): v is string => typeof v === 'string'))],
  }));
}

/**
 * The refusal a document holds, if any: the server's code and message kept in `sync_rejection` until
 * the user changes the document again. A deleted document holds none.
 */
export function refusalOf(doc: SyncDoc | undefined): { code: string; message: string } | null {
  const refusal = doc?.sync_rejection as { code?: unknown; message?: unknown } | null | undefined;
  if (!doc || doc._deleted || !refusal || typeof refusal.code !== 'string') return null;
  return { code: refusal.code, message: typeof refusal.message === 'string' ? refusal.message : '' };
}

/**
 * The refusal a pulled write dropped: the server's newer copy of a document this device holds with a
 * refusal never carries the client-only marker, so RxDB's pull writes it without one. The refusal
 * stands until the user mends or discards the change, so it is put back on that copy. A copy the server
 * removed takes its refusal with it.
 */
export function refusalDroppedByPull(
  previous: SyncDoc | undefined,
  written: SyncDoc,
): { code: string; message: string } | null {
  if (written._deleted || refusalOf(written)) return null;
  return refusalOf(previous);
}

/**
 * The rows a push sends. A document the server refused stays as it came back (with `sync_rejection`)
 * until the user changes it again, which clears the field: never re-sent, so nothing loops. The refused
 * state is also what RxDB records as the assumed master; without the client-only marker it is the
 * server's state, the base of the user's corrected edit. (RxDB's push `modifier` would blank that base
 * along with the row.)
 */
export function withoutRejections(rows: PushRow[]): PushRow[] {
  const sendable = rows.filter((row) => !row.newDocumentState.sync_rejection);
  for (const row of sendable) {
    if (row.assumedMasterState?.sync_rejection === undefined) continue;
    const { sync_rejection: _refusal, ...master } = row.assumedMasterState;
    row.assumedMasterState = master as SyncDoc;
  }
  return sendable;
}

/**
 * Gives a row RxDB sent without an assumed master the state this device last received for it (see
 * recent-masters.ts). The row object is RxDB's own, so its conflict handler sees the same base.
 */
export function withKnownMasters(rows: PushRow[], received: (id: string) => SyncDoc | undefined): PushRow[] {
  for (const row of rows) {
    if (row.assumedMasterState) continue;
    const known = received(row.newDocumentState.id);
    if (known) row.assumedMasterState = known;
  }
  return rows;
}

/**
 * Whether a child row's push waits for this parent: the device created it and the server has not
 * confirmed it yet (its change still waits to be pushed, or it was never stamped with a server version,
 * which also holds after a reload).
 */
export function parentUnconfirmed(version: unknown, waitingToPush: boolean): boolean {
  return waitingToPush || version == null;
}

/**
 * After a streamed first sync's page: whether to pull once more. The stream's pages come from a snapshot
 * older than the moment RxDB asks for them, so rows committed since are not in it; a short page is its
 * last. Not after a feed that brought nothing at all: RxDB keeps no checkpoint for an empty page, so that
 * pull would start from nothing again and open another stream, and so on.
 */
export function pullAfterStreamedPage(documents: number, batchSize: number, hadCheckpoint: boolean): boolean {
  return documents < batchSize && (documents > 0 || hadCheckpoint);
}

/** How soon after a change notice an empty pull counts as racing that commit's visibility (ms). */
const NOTICE_RACE_MS = 1_000;

/**
 * A pull that found nothing shortly after a change notice may have raced its own commit's visibility:
 * look once more.
 */
export function recheckAfterNotice(documents: number, pullStartedAt: number, noticeAt: number | undefined): boolean {
  return documents === 0 && noticeAt !== undefined && pullStartedAt - noticeAt < NOTICE_RACE_MS;
}
