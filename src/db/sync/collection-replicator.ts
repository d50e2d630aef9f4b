import { Subject, type Subscription } from 'rxjs';
import type { RxCollection, RxDocument, RxReplicationPullStreamItem } from 'rxdb';
import { replicateRxCollection, type RxReplicationState } from 'rxdb/plugins/replication';
import {
  collectionSpecs,
  FIRST_SNAPSHOT_PAGE,
  MAX_PUSH_ROWS,
  type CollectionName,
  type CollectionSpec,
  type SyncCheckpoint,
} from '../../domain/collections/index.ts';
import type { PactaDatabase } from '../create-database.ts';
import { markBoot } from '../../lib/boot-marks.ts';
import { createLocalChangeFilter, type LocalChangeFilter } from '../local-changes.ts';
import { createRecentMasters, type RecentMasters } from '../recent-masters.ts';
import type { ReplicationOptions } from '../replication.ts';
import { createSnapshotFeed, prefetchKey } from '../snapshot-feed.ts';
import { SyncHttpError, type PushRow, type SyncApi, type SyncDoc } from '../sync-api.ts';
import type { createSyncStatus } from '../sync-status.ts';
import {
  parentsNamed,
  parentUnconfirmed,
  recheckAfterNotice,
  refusalDroppedByPull,
  refusalOf,
  withKnownMasters,
  withoutRejections,
} from './decisions.ts';
import { createFeedTurns, type FeedTurns } from './feed-turns.ts';
import { restoreRefusal } from './kept-refusal.ts';
import { createFirstPageRepeats, createPagePace, type LiveRowsFirst, type PagePace } from './first-sync-pace.ts';
import type { MetaStorageRecorder } from './meta-storages.ts';
import {
  createPullScheduler,
  downstreamIdleWithin,
  firstSyncDone,
  idleDownstream,
  type PullScheduler,
} from './pull-scheduler.ts';
import { pullPage, type PullSource } from './pull-page.ts';
import { pushRows } from './push-rows.ts';
import { createStreamedFeed, type StreamedRows } from './streamed-rows.ts';
import { replicationIdentifier, replicationIdentifiers, type WriteMode } from './write-mode.ts';

type Replication = RxReplicationState<SyncDoc, SyncCheckpoint>;
type SyncStatusKeeper = ReturnType<typeof createSyncStatus>;

/** How long streamed rows wait for a busy downstream (storing a page) before a pull is asked for. */
const IDLE_WAIT_MS = 1_000;

/** What every collection's replicator shares: the database, the server, the sync status, the options. */
export type ReplicatorContext = {
  db: PactaDatabase;
  api: SyncApi;
  status: SyncStatusKeeper;
  opts: ReplicationOptions;
  pullBatchSize: number;
  awaitLeadership: boolean;
  stopped(): boolean;
  whenStopped: Promise<void>;
  /** Another collection's replication, once it runs (a push waits for the parents it names). */
  replicationOf(name: CollectionName): Replication | undefined;
  /** Rows from the change stream being applied: paced first syncs hold their next page for them (first-sync-pace.ts). */
  liveRows: LiveRowsFirst;
  /** RxDB's replications start once this resolves (`startAfter` in replication.ts); at once without it. */
  startAfter: Promise<void> | undefined;
  /** Writes down the replications' meta storages together (meta-storages.ts). */
  metaStorages: MetaStorageRecorder;
};

/** One collection's replicator, as its pull and push handlers see it. */
type Parts = {
  name: CollectionName;
  mode: WriteMode;
  collection: RxCollection<SyncDoc>;
  stream$: Subject<RxReplicationPullStreamItem<SyncDoc, SyncCheckpoint>>;
  scheduler: PullScheduler;
  snapshot: ReturnType<typeof createSnapshotFeed> | undefined;
  /** When the streamed first sync's pages are handed to RxDB (see first-sync-pace.ts). */
  pace: PagePace;
  /** How many documents of a streamed page the pace counts (`createFirstPageRepeats`). */
  newOnPage: (ids: readonly string[]) => number;
  /** Rows from the change stream not yet written, by document id: the call that says they are. */
  applying: Map<string, () => void>;
  localChanges: LocalChangeFilter;
  streamed: ReturnType<typeof createStreamedFeed>;
  received: RecentMasters;
  /** Pushes and the reads of a restarted feed take turns (feed-turns.ts). */
  turns: FeedTurns;
  /** Streamed rows wait for RxDB's downstream to be idle (see `streamed`). */
  waitingForIdle: boolean;
  /** When the last change notice for the collection arrived. */
  noticeAt: number | undefined;
  state: Replication | undefined;
  /** Says the first page was written, or found empty (`firstPage`). */
  firstPageDone: () => void;
};

/**
 * One collection's replication with the sync server: pull pages by checkpoint (or the streamed first
 * sync, or rows the change stream carried), push batches whose conflicts come back as master states,
 * its pull timers and the refusals its documents hold. `pull-only`: no push at all.
 */
export function createCollectionReplicator(ctx: ReplicatorContext, name: CollectionName, mode: WriteMode) {
  const parts = replicatorParts(ctx, name, mode);
  const firstPage = new Promise<void>((resolve) => (parts.firstPageDone = resolve));
  const { opts } = ctx;
  const state = replicateRxCollection<SyncDoc, SyncCheckpoint>({
    replicationIdentifier: replicationIdentifier(name, opts.serverUrl, mode, collectionSpecs[name]),
    collection: parts.collection,
    live: opts.live ?? true,
    retryTime: opts.retryTime ?? 5_000,
    waitForLeadership: ctx.awaitLeadership,
    // Started by `startWhenReady`, once its meta storage is written down with the others'.
    autoStart: false,
    // RxDB ends its first sync at a page shorter than its batch size. Pages are `ctx.pullBatchSize` rows
    // (the handler asks for that many whatever RxDB passes), but a fresh feed's first page holds only
    // FIRST_SNAPSHOT_PAGE: RxDB's own size is that, so the small first page does not end the first sync.
    // (A pull of 100 to 999 rows then costs one more request, which finds nothing.)
    pull: {
      batchSize: Math.min(FIRST_SNAPSHOT_PAGE, ctx.pullBatchSize),
      stream$: parts.stream$.asObservable(),
      handler: pullHandler(ctx, parts),
    },
    // A read-only collection (written by the server only), or one the user's role may never write,
    // has no push at all: nothing on this device can ever be sent for it, and RxDB then keeps no
    // server state beside each pulled document (its `skipStoringPullMeta`).
    push:
      mode === 'pull-only'
        ? undefined
        : { batchSize: Math.min(opts.pushBatchSize ?? 100, MAX_PUSH_ROWS), handler: pushHandler(ctx, parts) },
  });
  parts.state = state;
  // Local writes count as waiting from now on, even while the replication itself waits to start.
  const subs = watchWrites(ctx.status, parts, state);
  startWhenReady(ctx, state);
  restoreKeptRefusals(ctx, parts, state);
  /** Rows from the change stream, handed on one event after another. */
  let arrivals = Promise.resolve();
  return {
    name,
    state,
    /** Resolves once the replication wrote its first pulled documents, or pulled a page of none. */
    firstPage,
    /** A pull once the replication is idle (a change notice, the stream's hello). */
    pullSoon: () => parts.scheduler.soon(),
    /** The change stream said the collection changed. */
    noticed() {
      parts.noticeAt = Date.now();
      parts.scheduler.soon();
    },
    /**
     * The change stream carried rows of the collection. A full replication first records the server
     * states its pull handler would (see local-changes.ts), in the order the rows came.
     */
    rowsArrived(rows: StreamedRows) {
      // Other collections' first syncs make way for rows that can be applied now (see first-sync-pace.ts).
      if (firstSyncDone(parts.state)) trackLiveRows(ctx, parts, rows.documents as SyncDoc[]);
      arrivals = arrivals
        .then(() => recordPulledMasters(parts, rows.documents as SyncDoc[]))
        // A record that could not be written (the database closing) does not hold the rows back: the
        // records repair a rare tab closed mid-write, and the next pull of those documents writes them.
        .catch(() => {})
        .then(() => parts.streamed.arrived(rows));
    },
    async stop() {
      parts.scheduler.stop();
      parts.snapshot?.close();
      subs.forEach((s) => s.unsubscribe());
      await state.cancel();
      parts.stream$.complete();
    },
  };
}

export type CollectionReplicator = ReturnType<typeof createCollectionReplicator>;

/** Holds paced first syncs until this collection has written the streamed rows (or the hold ends). */
function trackLiveRows(ctx: ReplicatorContext, parts: Parts, docs: readonly SyncDoc[]): void {
  const ids = docs.map((doc) => doc.id);
  const applied = ctx.liveRows.begin(() => {
    for (const id of ids) if (parts.applying.get(id) === applied) parts.applying.delete(id);
  });
  for (const id of ids) parts.applying.set(id, applied);
}

function replicatorParts(ctx: ReplicatorContext, name: CollectionName, mode: WriteMode): Parts {
  const { opts } = ctx;
  const collection = ctx.db.collections[name] as unknown as RxCollection<SyncDoc>;
  const spec: CollectionSpec = collectionSpecs[name];
  const stream$ = new Subject<RxReplicationPullStreamItem<SyncDoc, SyncCheckpoint>>();
  const parts: Parts = {
    name,
    mode,
    collection,
    stream$,
    scheduler: createPullScheduler({
      db: ctx.db,
      resync: () => stream$.next('RESYNC'),
      replication: () => parts.state,
      stopped: ctx.stopped,
      localChangesWaiting: () => ctx.status.hasPending(name),
    }),
    snapshot:
      opts.snapshot === false
        ? undefined
        : createSnapshotFeed(
            (signal) => ctx.api.snapshot(name, ctx.pullBatchSize, signal),
            opts.userId === undefined ? undefined : prefetchKey(opts.serverUrl, opts.userId, name, ctx.pullBatchSize),
          ),
    pace: createPagePace({ liveRows: ctx.liveRows, paced: !spec.rowsInStream }),
    newOnPage: createFirstPageRepeats(),
    applying: new Map(),
    localChanges: createLocalChangeFilter(collection, replicationIdentifiers(name, opts.serverUrl, spec), (a, b) =>
      collection.conflictHandler.isEqual(a, b, 'pacta-local-change-check'),
    ),
    // Rows the change stream carries: straight into RxDB's pull stream when its downstream is idle (no
    // request, no 'RESYNC', so nothing waits for the database to be idle: a deal shows at once while
    // another collection's first sync writes). A downstream still storing a page is waited for a
    // moment (a 'RESYNC' would queue behind that page too, then read RxDB's checkpoint before its pull);
    // otherwise the rows go through the pull handler, without a request when they follow its checkpoint.
    streamed: createStreamedFeed({
      emit: (page) => stream$.next(page),
      pull: () => parts.scheduler.soon(),
      whenIdle: () => {
        if (parts.waitingForIdle) return;
        parts.waitingForIdle = true;
        void downstreamIdleWithin(parts.state, IDLE_WAIT_MS).then((idle) => {
          parts.waitingForIdle = false;
          if (ctx.stopped()) return;
          if (idle) parts.streamed.resume();
          else parts.scheduler.soon();
        });
      },
      canEmit: () => idleDownstream(parts.state),
      // Never written, so nothing else would end the hold they put on paced first syncs.
      dropped: (rows) => {
        for (const doc of rows.documents as SyncDoc[]) parts.applying.get(doc.id)?.();
      },
    }),
    waitingForIdle: false,
    received: createRecentMasters({ ttlMs: opts.rememberReceivedMs }),
    turns: createFeedTurns(),
    noticeAt: undefined,
    state: undefined,
    firstPageDone: () => {},
  };
  return parts;
}

/** Reports the outcome of a request to the sync status (an answer, a refusal, or no connection). */
async function tracked<T>(status: SyncStatusKeeper, work: () => Promise<T>): Promise<T> {
  try {
    const result = await work();
    status.succeeded();
    return result;
  } catch (err) {
    if (err instanceof SyncHttpError) status.failed(err.code, err.message, false);
    else status.failed('offline', err instanceof Error ? err.message : String(err), true);
    throw err;
  }
}

/** Before RxDB applies pulled documents: the server states a full replication must hold (a pull-only one holds none). */
async function recordPulledMasters(parts: Parts, documents: readonly SyncDoc[]): Promise<void> {
  if (parts.mode === 'full')
    await parts.localChanges.recordPulledMasters(
      parts.state,
      documents.map((d) => d.id),
    );
}

function pullHandler(ctx: ReplicatorContext, parts: Parts) {
  const { name, streamed, scheduler } = parts;
  const batchSize = ctx.pullBatchSize;
  const source: PullSource = {
    api: ctx.api,
    collection: parts.collection,
    name,
    batchSize,
    hooks: {
      snapshot: parts.snapshot,
      onPending: (pending) => scheduler.pending(pending),
      waitingToPush: (id) => ctx.status.isPending(name, id),
      // Once the first sync is done and the upstream idle (`soon`), not at once: a 'RESYNC' while the
      // upstream still has the last pages' write events to go through makes it read back every document
      // written since its stored checkpoint, 100 at a time (seen holding a live deal for 1.6 to 21 s).
      onStreamEnd: () => scheduler.soon(),
      streamedPart: () => parts.pace.partSize(),
      beforeStreamedPage: (documents) => parts.pace.handOver(parts.newOnPage(documents.map((d) => d.id))),
      readFeed: (read) => parts.turns.readFeed(read),
    },
  };
  return async (checkpoint: SyncCheckpoint | undefined) => {
    streamed.pullStarted(checkpoint ?? null);
    const fromStream = streamed.take(checkpoint ?? null, batchSize);
    if (fromStream) {
      await recordPulledMasters(parts, fromStream.documents);
      streamed.pullEnded(checkpoint ?? null, fromStream);
      return fromStream;
    }
    const startedAt = Date.now();
    const page = await tracked(ctx.status, () => pullPage(source, checkpoint ?? null));
    if (name === 'deals' && page.documents.length > 0) markBoot('deals-page-received');
    await recordPulledMasters(parts, page.documents);
    if (recheckAfterNotice(page.documents.length, startedAt, parts.noticeAt)) {
      parts.noticeAt = undefined;
      scheduler.later(300);
    }
    streamed.pullEnded(checkpoint ?? null, page);
    if (page.documents.length === 0) parts.firstPageDone();
    return page;
  };
}

function pushHandler(ctx: ReplicatorContext, parts: Parts) {
  return async (rows: PushRow[]): Promise<SyncDoc[]> => {
    const { changed: sendable, superseded } = await parts.localChanges.changedRows(withoutRejections(rows));
    if (sendable.length === 0) return superseded;
    await parentsOnServer(ctx, parts.name, sendable);
    const conflicts = await tracked(ctx.status, () =>
      parts.turns.push(() =>
        pushRows(
          ctx.api,
          parts.name,
          withKnownMasters(sendable, (id) => parts.received.get(id)),
        ),
      ),
    );
    return [...conflicts, ...superseded];
  };
}

/**
 * Each collection replicates on its own, so a new conversation's first message could reach the
 * server before the conversation and be refused. Before pushing child rows, wait until every parent
 * they name that this device created and the server has not confirmed has been pushed by its own
 * replication.
 */
async function parentsOnServer(ctx: ReplicatorContext, name: CollectionName, rows: PushRow[]): Promise<void> {
  const spec: CollectionSpec = collectionSpecs[name];
  for (const { collection: parentName, ids } of parentsNamed(spec.parents ?? [], rows)) {
    const parentState = ctx.replicationOf(parentName as CollectionName);
    const parents = ctx.db.collections[parentName as CollectionName] as unknown as RxCollection<SyncDoc> | undefined;
    if (!parentState || !parents) continue;
    const local = ids.length ? await parents.findByIds(ids).exec() : new Map<string, RxDocument<SyncDoc>>();
    const unconfirmed = [...local.values()].some((p) =>
      parentUnconfirmed(p.get('version'), ctx.status.isPending(parentName, p.primary)),
    );
    if (unconfirmed && !ctx.stopped()) await Promise.race([parentState.awaitInSync(), ctx.whenStopped]);
  }
}

/**
 * Starts RxDB's replication as its own autoStart would (leadership first when asked), once
 * `ctx.startAfter` resolves, and once its meta storage is written down together with the other
 * collections' (meta-storages.ts).
 */
function startWhenReady(ctx: ReplicatorContext, state: Replication): void {
  void Promise.resolve(ctx.startAfter)
    .then(() => (ctx.awaitLeadership ? ctx.db.waitForLeadership() : undefined))
    .then(() => (ctx.stopped() ? undefined : ctx.metaStorages.record(state)))
    .then(() => {
      // Errors of start() are emitted on error$, as with autoStart.
      if (!ctx.stopped() && !state.isStopped()) state.start().catch(() => {});
    });
}

/** Local writes count as waiting to be pushed; every write updates the refusals shown. */
function watchWrites(status: SyncStatusKeeper, parts: Parts, state: Replication): Subscription[] {
  const { name } = parts;
  return [
    parts.collection.eventBulks$.subscribe((bulk) => {
      const pulled = isPulledWrite(bulk.context);
      for (const event of bulk.events) {
        const dropped = pulled ? refusalDroppedByPull(event.previousDocumentData, event.documentData) : null;
        // The refusal stays listed while it is put back: the sync status never says "Synced" meanwhile.
        // (A database closing meanwhile leaves it to the next session's look at the kept refusals.)
        if (dropped) void restoreRefusal(parts.collection, event.documentData, dropped).catch(() => {});
        else status.rejection(name, event.documentId, refusalOf(event.documentData));
      }
      if (isReplicationWrite(bulk.context)) return pulledWritten(parts, bulk);
      status.localWrite(
        name,
        bulk.events.map((e) => e.documentId),
      );
    }),
    state.sent$.subscribe((doc) => status.settled(name, doc.id)),
    state.received$.subscribe((doc) => {
      parts.received.remember(doc);
      status.settled(name, doc.id);
    }),
  ];
}

/** RxDB wrote what a pull (or the change stream) brought: count it for the pace, and end the live rows among it. */
function pulledWritten(parts: Parts, bulk: { context: string; events: { documentId: string }[] }): void {
  if (!isPulledWrite(bulk.context)) return;
  parts.firstPageDone();
  parts.pace.written(bulk.events.length);
  if (parts.applying.size === 0) return;
  for (const { documentId } of bulk.events) parts.applying.get(documentId)?.();
}

/** Writes the replication itself made (pulled documents, conflict resolutions) rather than the user. */
function isReplicationWrite(context: string): boolean {
  return context.startsWith('replication-');
}

/** Of those, the documents a pull or the change stream brought from the server. */
function isPulledWrite(context: string): boolean {
  return context.startsWith('replication-downstream-');
}

/**
 * Once the first sync is done, the refusals kept from an earlier session (the marker lives in the
 * document until it is edited) are shown again. A pull-only collection never pushes, so holds none.
 */
function restoreKeptRefusals(ctx: ReplicatorContext, parts: Parts, state: Replication): void {
  const { collection } = parts;
  // Whether the collection held any document before this session replicated: a refusal kept from an
  // earlier session can only be in one of those (one made in this session is seen as it is written).
  // Asked now, before any pull writes.
  // (A failed read, the database closing, counts as held: the look below has its own guard.)
  const heldBefore =
    parts.mode === 'pull-only'
      ? Promise.resolve(false)
      : collection
          .findOne()
          .exec()
          .then(
            (doc) => doc !== null,
            () => true,
          );
  void state
    .awaitInitialReplication()
    .then(
      async () => {
        ctx.status.initialSyncDone();
        if (parts.mode === 'pull-only' || ctx.stopped() || !(await heldBefore)) return;
        await showKeptRefusals(ctx.status, parts.name, collection);
      },
      () => {},
    )
    .catch((err: unknown) => {
      // The database may close (sign-out, reload) while the kept refusals are read: nothing to show then.
      if (!ctx.stopped() && !ctx.db.closed) throw err;
    });
}

async function showKeptRefusals(
  status: SyncStatusKeeper,
  name: CollectionName,
  collection: RxCollection<SyncDoc>,
): Promise<void> {
  // Read by id when the ids were recorded: no index can serve `sync_rejection` (an object), and
  // looking through a brand's 60,000 documents for it cost every page load ~270 ms.
  const kept = status.keptRefusals(name);
  if (kept) {
    const found = kept.length ? await collection.findByIds(kept).exec() : new Map<string, RxDocument<SyncDoc>>();
    for (const id of kept) {
      const doc = found.get(id);
      status.rejection(name, id, doc ? refusalOf(doc.toJSON() as SyncDoc) : null);
    }
    return;
  }
  const refused = await collection.find({ selector: { sync_rejection: { $exists: true } } }).exec();
  for (const doc of refused) status.rejection(name, doc.primary, refusalOf(doc.toJSON() as SyncDoc));
}
