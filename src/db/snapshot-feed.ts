import type { PullResponse, SyncCheckpoint } from '../domain/collections/index.ts';
import type { SyncDoc } from './sync-api.ts';

type Page = PullResponse<SyncDoc>;
/**
 * A streamed page as it is handed to RxDB, or a part of one (`part`): `last` says whether it ends the
 * page, `of` how many documents the page holds.
 */
export type StreamedPage = Page & { part?: { last: boolean; of: number } };
type Open = (signal: AbortSignal) => AsyncGenerator<Page>;
type Feed = {
  at: string;
  /** Resolves once the stream brought its first page, or ended without one. */
  firstPage: Promise<void>;
  pages: Page[];
  /** The page at the head of `pages` is the rest of one handed over in parts, of `of` documents. */
  parted?: { of: number };
  ended: boolean;
  wake: () => void;
  abort: AbortController;
};

const keyOf = (checkpoint: SyncCheckpoint | null | undefined) =>
  checkpoint ? `${checkpoint.xid}/${checkpoint.id}/${checkpoint.scope ?? ''}/${checkpoint.horizon}` : 'start';

/** Opens the stream and reads ahead: pages are parsed and queued while RxDB writes the ones before. */
function openFeed(open: Open): Feed {
  let arrived = () => {};
  const feed: Feed = {
    at: keyOf(null),
    firstPage: new Promise<void>((resolve) => (arrived = resolve)),
    pages: [],
    ended: false,
    wake: () => {},
    abort: new AbortController(),
  };
  void (async () => {
    try {
      for await (const page of open(feed.abort.signal)) {
        feed.pages.push(page);
        arrived();
        feed.wake();
      }
    } catch {
      // A failed stream ends here; the caller pulls on from the last page it took.
    } finally {
      feed.ended = true;
      arrived();
      feed.wake();
    }
  })();
  return feed;
}

/**
 * Streams opened before their replication exists, by key (`prefetchKey`). On a first sign-in the
 * device holds nothing, so the first sync's streams can be on their way while the app loads RxDB and
 * opens the database, which takes hundreds of milliseconds before the replication asks.
 */
const early = new Map<string, { feed: Feed; timer: ReturnType<typeof setTimeout> }>();
/** How long a stream opened early waits to be taken before it is dropped (another tab replicates, the open failed). */
const EARLY_TTL_MS = 30_000;

/** The key of an early stream: the same server, user, collection and page size as the replication's. */
export const prefetchKey = (serverUrl: string, userId: string, collection: string, limit: number) =>
  `${serverUrl}|${userId.toLowerCase()}|${collection}|${limit}`;

/**
 * Opens a collection's first-sync stream now, for the replication that starts later to take (see
 * `createSnapshotFeed`). Resolves once the stream brought its first page (or ended without one).
 */
export function prefetchSnapshot(key: string, open: Open): Promise<void> {
  const opened = early.get(key);
  if (opened) return opened.feed.firstPage;
  const feed = openFeed(open);
  const timer = setTimeout(() => {
    if (early.get(key)?.feed !== feed) return;
    early.delete(key);
    feed.abort.abort();
  }, EARLY_TTL_MS);
  early.set(key, { feed, timer });
  return feed.firstPage;
}

/** Drops the streams opened early (the user signs out, or the database closes). */
export function dropPrefetchedSnapshots(): void {
  for (const { feed, timer } of early.values()) {
    clearTimeout(timer);
    feed.abort.abort();
  }
  early.clear();
}

/**
 * The first sync of a collection this device holds nothing of, as one streamed request: pages read
 * from one server snapshot arrive while earlier ones are written. RxDB still asks page by page (its
 * pull handler gets the checkpoint of the page before); `take` answers from the stream when the
 * checkpoint is the one the stream is at, and otherwise (another checkpoint, the stream ended or
 * failed) answers nothing and the caller pulls as usual from that checkpoint — every page carries a
 * checkpoint a pull can continue from. With `key`, the first `start` takes the stream opened early
 * under that key, if any (it starts at the beginning of the feed like a stream opened then).
 */
export function createSnapshotFeed(open: Open, key?: string) {
  let current: Feed | undefined;

  function close() {
    current?.abort.abort();
    current = undefined;
  }

  return {
    /** Starts the stream (a previous one is dropped). */
    start() {
      close();
      const opened = key === undefined ? undefined : early.get(key);
      if (opened) {
        early.delete(key!);
        clearTimeout(opened.timer);
      }
      current = opened?.feed ?? openFeed(open);
    },
    /**
     * The next streamed page after `checkpoint`, or undefined when the stream cannot answer it. With
     * `most` (and a checkpoint), a page of more documents is handed over in parts of `most`, each its
     * own write: every part but the last carries `checkpoint` itself, a position a pull can continue
     * from (it brings that part again, which RxDB does not write twice); the last carries the page's.
     */
    async take(checkpoint: SyncCheckpoint | null, most?: number): Promise<StreamedPage | undefined> {
      const feed = current;
      if (!feed || feed.at !== keyOf(checkpoint)) return undefined;
      while (feed.pages.length === 0 && !feed.ended) await new Promise<void>((resolve) => (feed.wake = resolve));
      const page = feed.pages.shift();
      if (!page || current !== feed) {
        if (current === feed) close();
        return undefined;
      }
      const of = feed.parted?.of ?? page.documents.length;
      if (most !== undefined && checkpoint !== null && page.documents.length > most) {
        feed.pages.unshift({ ...page, documents: page.documents.slice(most) });
        feed.parted = { of };
        return { documents: page.documents.slice(0, most), checkpoint, part: { last: false, of } };
      }
      feed.at = keyOf(page.checkpoint);
      if (!feed.parted) return page;
      feed.parted = undefined;
      return { ...page, part: { last: true, of } };
    },
    close,
  };
}
