import { z } from 'zod';
import { uuid } from './fields.ts';

/**
 * The replication protocol version this code speaks; sent as `X-Pacta-Protocol`. From 2 the change
 * stream may carry catalogue rows themselves (`rows` events); a stream opened by a client of 1 gets
 * `change` notices only.
 */
export const SYNC_PROTOCOL_VERSION = 2;
/** The first version whose change stream may carry rows (`rows` events). */
export const STREAMED_ROWS_PROTOCOL_VERSION = 2;
/** Servers answer 426 `client_too_old` to clients below this version. */
export const MIN_SYNC_PROTOCOL_VERSION = 1;
export const SYNC_PROTOCOL_HEADER = 'x-pacta-protocol';
export const MAX_PULL_LIMIT = 1000;
export const DEFAULT_PULL_LIMIT = 100;
/**
 * The first page of a fresh feed's stream (`/snapshot`) holds at most this many rows, the rest `limit`
 * each: a fresh device writes, and shows, a first screenful in the time of a hundred documents instead
 * of a thousand. Its end is still read as a short page, against that page's own limit.
 */
export const FIRST_SNAPSHOT_PAGE = 100;
/** The most rows page `index` (from 0) of a fresh feed's stream holds when pages hold `limit`. */
export function snapshotPageLimit(index: number, limit: number): number {
  return index === 0 ? Math.min(limit, FIRST_SNAPSHOT_PAGE) : limit;
}
export const MAX_PUSH_ROWS = 500;
/**
 * The deals a device holds (its working set: the deals its user is party to, then the open deals that
 * matter most to them) when it asks for no other number; a device may ask for up to MAX_DEVICE_DEALS
 * (`set` on a pull). About 10 MB at 20,000.
 */
export const DEFAULT_DEVICE_DEALS = 20_000;
export const MAX_DEVICE_DEALS = 100_000;
/**
 * The deals a user may keep on their devices by opening them from search (the database enforces it:
 * `pacta_private.opened_deals_limit()`): a fifth of the smallest "Deals kept on this device" setting
 * (5,000), so opened deals never crowd out the rest of a device's working set. They leave as their
 * deals close; saving or applying to one makes it a party deal, which does not count.
 */
export const OPENED_DEALS_LIMIT = 1_000;

const xid = z.string().regex(/^\d{1,20}$/, 'a transaction id (xid8) in decimal');

/**
 * Where a client is in a collection's change feed: everything up to `(xid, id)` (ordered by
 * the writing transaction's id, then row id) has been received.
 * - `scope`: the user's visibility key when the position was issued (catalog collections);
 *   a different current key makes the server restart the feed (a reset).
 * - `horizon`: the tombstone purge watermark the client's copy is consistent with.
 * Every key is always present because RxDB merges successive checkpoints with Object.assign.
 */
export const checkpointSchema = z.object({
  xid,
  id: uuid,
  scope: z.string().max(200).nullable(),
  horizon: xid,
});
export type SyncCheckpoint = z.infer<typeof checkpointSchema>;

export type PullResponse<D> = {
  documents: (D & { _deleted: boolean })[];
  checkpoint: SyncCheckpoint | null;
  /** The feed restarted from the beginning; the client drops local documents it does not see again. */
  reset?: true;
  /**
   * Rows already committed are held back behind an older transaction still running (see the xmin
   * bound in docs/decisions/001-sync-protocol.md); pull again shortly.
   */
  pending?: true;
};

export type PushResponse<D> = { conflicts: (D & { _deleted: boolean })[] };

/** A change notice on `GET /sync/v1/stream` (`event: change`). */
export type ChangeNotice = { collection: string };
