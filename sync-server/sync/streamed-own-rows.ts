import type { Database, JwtClaims } from '../db/database.ts';
import type { PullResponse } from '../../src/domain/collections/index.ts';
import { compareFeedPositions, streamEvent } from '../../src/domain/contracts/change-stream.ts';
import type { CheckpointSeal } from './checkpoint-seal.ts';
import type { ServerCollection } from './collections.ts';
import { pullChanges } from './pull.ts';

/** At most this many rows, and this many bytes, travel in one user's `rows` event; a larger change is pulled. */
const MAX_OWN_ROWS = 50;
const MAX_OWN_BYTES = 32 * 1024;

/** A participant feed's pulls ignore the working-set limit (catalog deals only); any number does. */
const NO_DEVICE_SET = 0;

/** Where a user's devices stand in one collection's feed, as far as this instance knows. */
type Head = { xid: string; id: string; horizon: string };
type Feed = { head: Head | undefined; reading: boolean; again: boolean };

export type OwnRowsDelivery = { rows: Buffer } | { notice: true };
const NOTICE: OwnRowsDelivery = { notice: true };

/**
 * The changed rows of a participant collection (a message, an application, a notification…) sent in
 * the change stream of each user a notice names, so the screen they have open shows the change without
 * a pull: no round trip from the device, no request to authenticate, no second transaction.
 *
 * Per user and collection this instance keeps a head: the feed position that user's devices stand at
 * once they have everything, as far as this instance knows — the end of the feed as a pull it answered
 * found it, or the last row it streamed them. On a notice it reads, as that user, the very page a pull
 * from the head would answer (`pullChanges`, so row-level security, tombstones and the xmin bound are
 * the pull's own). When that page holds a few rows and nothing is held back behind a running
 * transaction, they go out as a `rows` event from the head, and the head moves to their last row.
 * Anything else goes out as a `change` notice, and the devices pull: no head yet (the pull that follows
 * gives one), nothing new yet, too many rows, rows held back, a restarted feed, a failed read.
 *
 * The head only decides how often devices are spared a pull, never what they hold: a device applies
 * the rows only when its checkpoint is the event's `from` (`placeOf` on the client), and then they are
 * what its pull would have brought. Reads of one user's feed run one at a time; a notice during a read
 * asks for another.
 */
export function streamedOwnRows(opts: {
  db: Database;
  seal: CheckpointSeal;
  /** Whether `userId` has a stream open on this instance that reads `rows` events. */
  follows(userId: string): boolean;
  deliver(userId: string, collection: string, delivery: OwnRowsDelivery): void;
  onError(err: unknown): void;
}) {
  const feeds = new Map<string, Map<string, Feed>>();

  function feedOf(userId: string, collection: string): Feed {
    let own = feeds.get(userId);
    if (!own) feeds.set(userId, (own = new Map()));
    let feed = own.get(collection);
    if (!feed) own.set(collection, (feed = { head: undefined, reading: false, again: false }));
    return feed;
  }

  function moveHead(feed: Feed, to: Head) {
    if (!feed.head || compareFeedPositions(to, feed.head) > 0) feed.head = to;
  }

  async function read(userId: string, collection: ServerCollection, feed: Feed) {
    feed.reading = true;
    do {
      feed.again = false;
      opts.deliver(userId, collection.name, await readOnce(userId, collection, feed));
    } while (feed.again);
    feed.reading = false;
  }

  /** What to send for the rows after the head: the rows (the head then moves to their last), or a notice. */
  async function readOnce(userId: string, collection: ServerCollection, feed: Feed): Promise<OwnRowsDelivery> {
    const from = feed.head;
    if (!from) return NOTICE;
    try {
      const page = await pullChanges(
        opts.db,
        readerClaims(userId),
        collection,
        { ...from, scope: null },
        MAX_OWN_ROWS + 1,
        NO_DEVICE_SET,
      );
      const event = rowsEvent(collection.name, from, page);
      if (!event) return NOTICE;
      moveHead(feed, { xid: page.checkpoint!.xid, id: page.checkpoint!.id, horizon: from.horizon });
      return { rows: event };
    } catch (err) {
      opts.onError(err);
      return NOTICE;
    }
  }

  /** The `rows` event of a page read from `from`, or undefined when the devices must pull instead. */
  function rowsEvent(collection: string, from: Head, page: PullResponse<unknown>): Buffer | undefined {
    const { documents, checkpoint } = page;
    if (page.reset || page.pending || !checkpoint || documents.length === 0 || documents.length > MAX_OWN_ROWS) return;
    const to = { xid: checkpoint.xid, id: checkpoint.id };
    const event = Buffer.from(
      streamEvent('rows', {
        collection,
        from,
        to,
        seal: opts.seal.sealStreamed(collection, { ...to, horizon: from.horizon }),
        documents: documents as { id: string; _deleted: boolean }[],
      }),
    );
    return event.length <= MAX_OWN_BYTES ? event : undefined;
  }

  return {
    /** A notice of `collection` names `userId`, who follows the stream on this instance. */
    notice(userId: string, collection: ServerCollection): void {
      const feed = feedOf(userId, collection.name);
      if (!feed.head) return opts.deliver(userId, collection.name, NOTICE);
      if (feed.reading) {
        feed.again = true;
        return;
      }
      void read(userId, collection, feed);
    },
    /**
     * This instance answered `page` to a pull of `userId`'s with at most `limit` rows: a page that is not
     * full and holds nothing back reached the end of their feed, where their devices then stand.
     */
    pulled(userId: string, collection: ServerCollection, page: PullResponse<unknown>, limit: number): void {
      const { checkpoint } = page;
      if (!checkpoint || checkpoint.scope !== null || page.pending || page.documents.length >= limit) return;
      if (!opts.follows(userId)) return;
      moveHead(feedOf(userId, collection.name), {
        xid: checkpoint.xid,
        id: checkpoint.id,
        horizon: checkpoint.horizon,
      });
    },
    /** `userId` has no stream on this instance any more. */
    forget(userId: string): void {
      feeds.delete(userId);
    },
    /** This instance may have missed notices (its LISTEN connection dropped): every head may be behind. */
    forgetAll(): void {
      for (const own of feeds.values()) for (const feed of own.values()) feed.head = undefined;
    },
  };
}

/** A user's own reading rights: RLS reads `auth.uid()` and the user's profile, nothing else of a token. */
function readerClaims(userId: string): JwtClaims {
  return { sub: userId, role: 'authenticated' };
}
