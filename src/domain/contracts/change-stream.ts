import { z } from 'zod';
import type { SyncCheckpoint } from '../collections/protocol.ts';

/**
 * The events of `GET /sync/v1/stream` (Server-Sent Events), by name. The server writes them with
 * `streamEvent`, the client reads them with `readStreamEvent`: one shape on both ends.
 * - `hello`: on connect; the client pulls everything once (notices sent while it was away are lost).
 * - `change`: rows of this collection changed; the client pulls it.
 * - `rows` (protocol 2 and later): the rows themselves, every row of the feed after `from` up to `to`,
 *   for a change every signed-in reader sees whole (open catalogue deals), or for one of the user's own
 *   rows (a message, an application: the feed as that user reads it). A device whose checkpoint is
 *   `from` applies them and stands at `to`; any other device pulls, as on `change`.
 * - `session_ended`: the stream's session ended (sign-out, password change); the reconnect gets 401.
 * - `reconnect`: the instance is leaving; reconnect within this many milliseconds, at a random moment.
 */
const xid = z.string().regex(/^\d{1,20}$/);
const feedId = z.string().min(1).max(64);

export const changeStreamEvents = {
  hello: z.object({ protocol: z.number().int() }),
  change: z.object({ collection: z.string().min(1) }),
  rows: z.object({
    collection: z.string().min(1),
    /** The feed position the rows follow, with the tombstone horizon it was read at. */
    from: z.object({ xid, id: feedId, horizon: xid }),
    /** The position of the last row: a device that applied them stands here. */
    to: z.object({ xid, id: feedId }),
    /**
     * The server's seal of `to` for every reader (see `checkpointAfterRows`); a participant
     * collection's checkpoints carry no scope, so its devices do not use it.
     */
    seal: z.string().min(2).max(100),
    documents: z.array(z.looseObject({ id: z.string().min(1), _deleted: z.boolean() })).min(1),
  }),
  session_ended: z.object({ reason: z.string() }),
  reconnect: z.object({ within: z.number().int().nonnegative() }),
};

export type ChangeStreamEventName = keyof typeof changeStreamEvents;
export type ChangeStreamEvent<E extends ChangeStreamEventName> = z.infer<(typeof changeStreamEvents)[E]>;

/** One event as the stream carries it (`event:` and `data:` lines, then a blank line). */
export function streamEvent<E extends ChangeStreamEventName>(event: E, data: ChangeStreamEvent<E>): string {
  return `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

/** An event's data as the client received it, or undefined when it is not the contract's shape. */
export function readStreamEvent<E extends ChangeStreamEventName>(
  event: E,
  data: string,
): ChangeStreamEvent<E> | undefined {
  let json: unknown;
  try {
    json = JSON.parse(data);
  } catch {
    return undefined;
  }
  const parsed = changeStreamEvents[event].safeParse(json);
  return parsed.success ? (parsed.data as ChangeStreamEvent<E>) : undefined;
}

/** The order of two positions in a change feed: by the writing transaction's id, then the row's id. */
export function compareFeedPositions(a: { xid: string; id: string }, b: { xid: string; id: string }): number {
  const d = BigInt(a.xid) - BigInt(b.xid);
  if (d !== 0n) return d < 0n ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** Between a checkpoint's scope and its seal (`creator:free~<seal>`). */
export const CHECKPOINT_SEAL_SEPARATOR = '~';
/** Between a checkpoint's role scope and the working-set bound its device holds (`creator:free|<bound>~<seal>`). */
export const WORKING_SET_SEPARATOR = '|';

/**
 * Whether a checkpoint's device holds a bounded working set of the catalogue. Streamed rows are every
 * reader's rows; which of them belong in a bounded set only its pull decides.
 */
export function holdsBoundedSet(scope: string | null): boolean {
  return scope !== null && scope.includes(WORKING_SET_SEPARATOR);
}
/** Starts a seal the change stream gave every reader of a position, unlike one sealed for one user. */
export const STREAMED_SEAL_MARK = '.';

/**
 * The checkpoint of a device that applied streamed rows on top of `held` (which must stand at the rows'
 * `from`): the rows' last position, with the device's own scope under the seal the stream gave that
 * position. The server honours the scope only if it is the user's scope now (otherwise the feed restarts).
 */
export function checkpointAfterRows(held: SyncCheckpoint, rows: ChangeStreamEvent<'rows'>): SyncCheckpoint {
  const at = held.scope === null ? -1 : held.scope.lastIndexOf(CHECKPOINT_SEAL_SEPARATOR);
  const scope = held.scope === null ? null : at < 0 ? held.scope : held.scope.slice(0, at);
  return {
    xid: rows.to.xid,
    id: rows.to.id,
    scope: scope === null ? null : `${scope}${CHECKPOINT_SEAL_SEPARATOR}${rows.seal}`,
    horizon: rows.from.horizon,
  };
}
