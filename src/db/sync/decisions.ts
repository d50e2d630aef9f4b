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
  /** A push request wrote this document while the feed was read (its write may have committed after). */
  sentDuringFeed: (id: string) => boolean;
};

/**
 * Which local documents a reset removes: every one the restarted feed no longer has, but for changes
 * still to be pushed and documents kept with a refusal (they stay, with their reason, until the user
 * mends or discards them). Removals are written as the master's deletion, so they are never pushed.
 * `pullAgain`: one of them was written by a push while the feed was read; the next pull, asked for at
 * once, brings it back if that write committed after the feed's snapshot.
 */
export function resetRemovals(
  local: readonly SyncDoc[],
  context: ResetContext,
): { removals: WithDeleted<SyncDoc>[]; pullAgain: boolean } {
  const removals: WithDeleted<SyncDoc>[] = [];
  let pullAgain = false;
  for (const doc of local) {
    if (context.inFeed.has(doc.id) || context.waitingToPush(doc.id) || doc.sync_rejection) continue;
    if (context.sentDuringFeed(doc.id)) pullAgain = true;
    // A copy of its own: the local document's fields are RxDB's (read-only) data.
    removals.push({ ...structuredClone(doc), _deleted: true });
  }
  return { removals, pullAgain };
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
