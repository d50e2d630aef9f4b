import type { RxCollection, WithDeleted } from 'rxdb';
import { snapshotPageLimit, type CollectionName, type SyncCheckpoint } from '../../domain/collections/index.ts';
import type { createSnapshotFeed } from '../snapshot-feed.ts';
import type { SyncApi, SyncDoc } from '../sync-api.ts';
import { sleep } from '../../lib/retry.ts';
import { pullAfterStreamedPage, resetRemovals, type ResetContext } from './decisions.ts';

/** Local documents read per page when a reset compares them with the restarted feed. */
const RESET_READ_PAGE = 2_000;

type Page = { documents: WithDeleted<SyncDoc>[]; checkpoint: SyncCheckpoint | undefined };

export type PullHooks = {
  /** The streamed first sync of a collection the device holds nothing of (see snapshot-feed.ts). */
  snapshot: ReturnType<typeof createSnapshotFeed> | undefined;
  onPending: (pending: boolean) => void;
  /**
   * The stream's last page was taken. Its pages come from a snapshot older than the moment RxDB asks
   * for them, so a change notice that arrived meanwhile was answered from that snapshot (RxDB drops
   * a notice older than its latest request) and rows committed since are not in it: pull once more.
   */
  onStreamEnd: () => void;
  /** The most documents a streamed page is handed to RxDB in, one write each (see first-sync-pace.ts); undefined: whole. */
  streamedPart?: () => number | undefined;
  /** Before a page of the streamed first sync is handed to RxDB (it may wait: see first-sync-pace.ts). */
  beforeStreamedPage?: (documents: readonly SyncDoc[]) => Promise<void>;
  /** A change of this document is still to be pushed: the push, not the feed, settles it. */
  waitingToPush: (id: string) => boolean;
  /** Reads a restarted feed in turn with the collection's pushes (feed-turns.ts). */
  readFeed: <T>(read: () => Promise<T>) => Promise<T>;
};

/** One collection's feed as its pulls read it: where from, in pages of how many, and whom to tell. */
export type PullSource = {
  api: SyncApi;
  collection: RxCollection<SyncDoc>;
  name: CollectionName;
  batchSize: number;
  hooks: PullHooks;
};

/**
 * One pull. On a reset (scope changed, or the checkpoint predates purged tombstones) it reads the
 * whole restarted feed, then removes as master state every local document the feed no longer has:
 * written as `_deleted` documents from the master, they are not pushed back. Local changes not yet
 * pushed are kept by RxDB (it never overwrites unpushed fork state from a pull).
 * A first pull without a checkpoint while the collection already holds documents is treated the same
 * way: the device lost its checkpoint (RxDB stores it after the documents, without waiting, so a tab
 * closed right after a sync can lose it; and it stores none after a page without documents, so a
 * device whose feed was still empty pulls from scratch again), and a plain pull from scratch would
 * never tell it about rows deleted meanwhile. Any document counts, not only one carrying a server
 * stamp: a draft this device pushed, whose stamped copy it has not pulled yet, is the server's too,
 * and another device may delete it before this one pulls again.
 */
export async function pullPage(source: PullSource, checkpoint: SyncCheckpoint | null): Promise<Page> {
  const { collection, batchSize, hooks } = source;
  const holdsDocuments = checkpoint === null && (await collection.findOne().exec()) !== null;
  // Nothing of the collection from the server yet: the whole feed comes as one stream.
  if (checkpoint === null && !holdsDocuments && hooks.snapshot) hooks.snapshot.start();
  const streamed = await hooks.snapshot?.take(checkpoint, hooks.streamedPart?.());
  if (streamed) {
    // A page handed over in parts (first-sync-pace.ts) is read as a page once its last part is.
    if (streamed.part?.last !== false) {
      hooks.onPending(streamed.pending === true);
      const pageLimit = snapshotPageLimit(checkpoint === null ? 0 : 1, batchSize);
      const length = streamed.part?.of ?? streamed.documents.length;
      if (pullAfterStreamedPage(length, pageLimit, checkpoint !== null)) hooks.onStreamEnd();
    }
    await hooks.beforeStreamedPage?.(streamed.documents);
    return { documents: streamed.documents, checkpoint: streamed.checkpoint ?? undefined };
  }
  // Without a checkpoint the whole feed is read from its start, in turn with the collection's pushes.
  if (holdsDocuments) return hooks.readFeed(() => pullInTurn(source, checkpoint));
  const page = await feedPage(source, checkpoint);
  if (!page.reset) return { documents: page.documents, checkpoint: page.checkpoint ?? undefined };
  // That first page of the restarted feed was read beside the pushes: it is read again in turn with them.
  return hooks.readFeed(() => pullInTurn(source, checkpoint));
}

/**
 * A pull read in turn with the collection's pushes: a restarted feed (a reset, or any pull from no
 * checkpoint) is read whole, with the local documents it no longer has as removals.
 */
async function pullInTurn(source: PullSource, checkpoint: SyncCheckpoint | null): Promise<Page> {
  const page = await feedPage(source, checkpoint);
  if (!page.reset && checkpoint !== null)
    return { documents: page.documents, checkpoint: page.checkpoint ?? undefined };
  return restartedFeed(source, checkpoint, page);
}

/** How often, and how far apart, a restarted feed that ended with rows held back is read again. */
const HELD_BACK_READS = 5;
const HELD_BACK_WAIT_MS = 100;

/** The rest of a restarted feed from its first `page`, with the local documents it no longer has as removals. */
async function restartedFeed(source: PullSource, checkpoint: SyncCheckpoint | null, page: FeedPage): Promise<Page> {
  let feed = await restOfFeed(source, page);
  for (let read = 0; ; read++) {
    // Every local document the feed no longer has goes, but for changes still to be pushed. Keeping any
    // other one would keep it for good: the feed holds live rows only, and the position it ends on may
    // lie past the deletion it skipped, so no later pull would bring that deletion. No push of the
    // collection ran while the feed was read (`readFeed`), so every push answered before it is in it...
    const removals = await localRemovals(source.collection, {
      inFeed: new Set(feed.documents.map((d) => d.id)),
      waitingToPush: source.hooks.waitingToPush,
    });
    // ...unless rows were held back: a feed holds a row once every older transaction on the server has
    // ended, so one that ended with rows held back may lack a document whose push was just answered,
    // which would go as if deleted elsewhere (until a later pull brought it back). Then it is read
    // again, briefly apart, before anything goes.
    if (removals.length === 0 || !feed.pending || read === HELD_BACK_READS)
      return { documents: [...feed.documents, ...removals], checkpoint: feed.checkpoint ?? undefined };
    await sleep(HELD_BACK_WAIT_MS);
    feed = await restOfFeed(source, await feedPage(source, checkpoint));
  }
}

type FeedPage = Awaited<ReturnType<SyncApi['pull']>>;

/** One page of the feed after `checkpoint`, with whether the server held rows back told to the hooks. */
async function feedPage(
  { api, name, batchSize, hooks }: PullSource,
  checkpoint: SyncCheckpoint | null,
): Promise<FeedPage> {
  const page = await api.pull(name, checkpoint, batchSize);
  hooks.onPending(page.pending === true);
  return page;
}

/** The whole restarted feed, from its first page on. */
async function restOfFeed(
  source: PullSource,
  first: FeedPage,
): Promise<{ documents: SyncDoc[]; checkpoint: SyncCheckpoint | null | undefined; pending: boolean }> {
  let page = first;
  let documents = [...page.documents];
  let position = page.checkpoint;
  while (page.documents.length >= source.batchSize) {
    page = await feedPage(source, position ?? null);
    // The server restarted the feed once more (another purge meanwhile): start collecting again.
    if (page.reset) documents = [];
    documents.push(...page.documents);
    position = page.checkpoint ?? position;
  }
  return { documents, checkpoint: position, pending: page.pending === true };
}

/**
 * Every local document compared with the restarted feed (`resetRemovals`), read in pages along the
 * primary key: a device with 50,000 documents never holds them all in memory at once.
 */
async function localRemovals(
  collection: RxCollection<SyncDoc>,
  context: ResetContext,
): Promise<WithDeleted<SyncDoc>[]> {
  const removals: WithDeleted<SyncDoc>[] = [];
  let after: string | undefined;
  for (;;) {
    const local = await collection
      .find({
        selector: after === undefined ? {} : { id: { $gt: after } },
        sort: [{ id: 'asc' }],
        limit: RESET_READ_PAGE,
      })
      .exec();
    removals.push(
      ...resetRemovals(
        local.map((doc) => doc.toJSON() as SyncDoc),
        context,
      ),
    );
    if (local.length < RESET_READ_PAGE) return removals;
    after = local.at(-1)!.primary;
  }
}
