import { filter, firstValueFrom, Subject, type Subscription } from 'rxjs';
import type { RxCollection, RxDocument, RxReplicationPullStreamItem, WithDeleted } from 'rxdb';
import { replicateRxCollection, type RxReplicationState } from 'rxdb/plugins/replication';
import {
  collectionSpecs,
  MAX_PULL_LIMIT,
  MAX_PUSH_ROWS,
  type CollectionName,
  type CollectionSpec,
  type ProfileRole,
  type SyncCheckpoint,
} from '../domain/collections/index.ts';
import { createBackoff, type Backoff } from '../lib/retry.ts';
import { openChangeStream } from './change-stream.ts';
import type { PactaDatabase } from './create-database.ts';
import {
  createSyncApi,
  SyncHttpError,
  type PushRow,
  type SyncApi,
  type SyncApiOptions,
  type SyncDoc,
} from './sync-api.ts';
import { createLocalChangeFilter } from './local-changes.ts';
import { createRecentMasters, type RecentMasters } from './recent-masters.ts';
import { createSnapshotFeed, prefetchKey } from './snapshot-feed.ts';
import { serverDecidedRole } from './sync/server-role.ts';
import { createStreamedFeed } from './sync/streamed-rows.ts';
import { parentsNamed, refusedRow, resetRemovals, ROW_REFUSAL_STATUSES, type ResetContext } from './sync/decisions.ts';
import {
  dependsOnRole,
  replicationIdentifier as replicationIdentifierOf,
  replicationIdentifiers,
  writeMode,
  type WriteMode,
} from './sync/write-mode.ts';
import { createSyncStatus, type PendingStore, type SyncStatus } from './sync-status.ts';
import type { Observable } from 'rxjs';

export type PactaReplication = {
  states: Map<CollectionName, RxReplicationState<SyncDoc, SyncCheckpoint>>;
  syncStatus$: Observable<SyncStatus>;
  readonly syncStatus: SyncStatus;
  /** Resolves when every collection finished its first full pull. */
  awaitInitialSync(): Promise<void>;
  /** Resolves when nothing is left to pull or push right now. */
  awaitInSync(): Promise<void>;
  /** This tab took over replicating: count the changes the previous one recorded as waiting too. */
  reloadPending(): void;
  /** Pull every collection again (e.g. the browser came back online). */
  reSync(): void;
  stop(): Promise<void>;
};

export type ReplicationOptions = SyncApiOptions & {
  /** Defaults to every collection the database has open. */
  collections?: readonly CollectionName[];
  pullBatchSize?: number;
  pushBatchSize?: number;
  /** How long to wait before retrying a failed request (ms). */
  retryTime?: number;
  /** How long a received server state serves as the base of a push RxDB sends without one (ms). */
  rememberReceivedMs?: number;
  /** Open the live change stream (default true). */
  live?: boolean;
  /** Stream the first sync of a collection the device holds nothing of in one request (default true). */
  snapshot?: boolean;
  /** The signed-in user: a first-sync stream opened early for them (`prefetchSnapshot`) is taken over. */
  userId?: string;
  /** Keeps the waiting changes' ids across reloads (the browser app passes localStorage). */
  pendingStore?: PendingStore;
  /**
   * Keeps the ids of documents holding a refusal across reloads (the browser app passes localStorage).
   * Without it, a new session looks for kept refusals in every document of every collection.
   */
  refusedStore?: PendingStore;
  /** Wait for RxDB's leader election first (default: when multi-instance; false when the caller elected this tab). */
  waitForLeadership?: boolean;
  /**
   * Replicate pull-only what the user's role may never write (`writableBy` in the registry), the role
   * read from the user's own profile (`userId`); on a device that holds no profile yet, those
   * collections start once it arrives. Without it, every collection the user may push replicates in full.
   */
  pullOnlyByRole?: boolean;
  /**
   * The role the user claims (the sign-up metadata): a collection that role may write starts in full at
   * once instead of waiting for the server's role (full is never wrong, only slower). Never a reason
   * for pull-only.
   */
  roleHint?: ProfileRole;
};

/** Writes the replication itself made (pulled documents, conflict resolutions) rather than the user. */
export function isReplicationWrite(context: string): boolean {
  return context.startsWith('replication-');
}

/**
 * Replicates the database with the sync server: pull pages by checkpoint, push batches whose
 * conflicts come back as master states, and a live stream whose notices trigger pulls. Only one
 * tab (the elected leader) replicates when the database is multi-instance.
 */
export function startReplication(db: PactaDatabase, opts: ReplicationOptions): PactaReplication {
  const api = createSyncApi(opts);
  const awaitLeadership = opts.waitForLeadership ?? db.multiInstance;
  const names = (opts.collections ?? (Object.keys(db.collections) as CollectionName[])).filter(
    (n) => db.collections[n],
  );
  const status = createSyncStatus(names.length, opts.pendingStore, opts.refusedStore);
  // The largest page the server serves: a first sync of 10,000 deals is 10 round trips and 10
  // IndexedDB write transactions instead of 50; a page of deals is about half a megabyte of JSON.
  const pullBatchSize = opts.pullBatchSize ?? MAX_PULL_LIMIT;
  const streams = new Map<CollectionName, Subject<RxReplicationPullStreamItem<SyncDoc, SyncCheckpoint>>>();
  const states = new Map<CollectionName, RxReplicationState<SyncDoc, SyncCheckpoint>>();
  const snapshots = new Map<CollectionName, ReturnType<typeof createSnapshotFeed>>();
  const streamedFeeds = new Map<CollectionName, ReturnType<typeof createStreamedFeed>>();
  const subs: Subscription[] = [];
  // When each document was last written by a push request (not a row answered without one): a reset
  // that drops such a document pulls again soon, in case the push committed after the feed was read.
  const lastSent = new Map<string, number>();
  const lastNotice = new Map<CollectionName, number>();

  // Committed rows held back behind an older, still-running transaction: ask again shortly, with
  // a growing delay, since no change notice may follow the end of that transaction.
  const pullBackoff = new Map<CollectionName, Backoff>();
  const retryTimers = new Set<ReturnType<typeof setTimeout>>();
  const wait = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        retryTimers.delete(timer);
        resolve();
      }, ms);
      retryTimers.add(timer);
    });
  /**
   * The pull a change notice (or the stream's hello) asks for. RxDB pulls on 'RESYNC', and its upstream
   * takes the same signal to look through every local document written since its last checkpoint,
   * reading each one's server record (its "initial sync" mode, which also pushes 200 rows at a time in
   * turn instead of a whole local write's batches together). Asked while the collection's replication
   * is still writing — a first sync's pages, a local write of many documents — that checkpoint lags
   * behind those writes: just-pulled deals read back once more for every notice, or a 2,000-document
   * edit pushed in turn. So the pull is asked for once the collection's first sync is done, and then
   * once the database and the upstream are idle (waiting `MAX_PULL_HOLD_MS` at most); notices meanwhile
   * are one, since that pull comes after all of them.
   */
  const pullHeld = new Set<CollectionName>();
  const pullSoon = (name: CollectionName) => {
    if (pullHeld.has(name) || stopped) return;
    pullHeld.add(name);
    const state = states.get(name);
    void (async () => {
      // Until its first sync is done the collection is pulling anyway; the pull after it covers the requests.
      await state?.awaitInitialReplication();
      await Promise.race([quiet(state), wait(MAX_PULL_HOLD_MS)]);
    })()
      .catch(() => {})
      .finally(() => {
        pullHeld.delete(name);
        if (!stopped) streams.get(name)?.next('RESYNC');
      });
  };
  const quiet = async (state: RxReplicationState<SyncDoc, SyncCheckpoint> | undefined) => {
    // Asked only when busy: RxDB's idle wait takes a few timer turns even when nothing runs.
    if (!db.idleQueue.isIdle()) await db.requestIdlePromise();
    const up = state?.internalReplicationState?.events.active.up;
    if (up?.getValue()) await firstValueFrom(up.pipe(filter((active) => !active)));
  };
  /** Pull `name` again after `ms`, whatever the replication is doing (timers are cleared when it stops). */
  const resyncLater = (name: CollectionName, ms: number) => {
    void wait(ms).then(() => streams.get(name)?.next('RESYNC'));
  };
  const pullAgainSoon = (name: CollectionName, pending: boolean) => {
    if (!pending) {
      pullBackoff.delete(name);
      return;
    }
    let backoff = pullBackoff.get(name);
    if (!backoff) pullBackoff.set(name, (backoff = createBackoff({ firstMs: 200, maxMs: 5_000 })));
    resyncLater(name, backoff.next());
  };

  const track = async <T>(work: () => Promise<T>): Promise<T> => {
    try {
      const result = await work();
      status.succeeded();
      return result;
    } catch (err) {
      if (err instanceof SyncHttpError) status.failed(err.code, err.message, false);
      else status.failed('offline', err instanceof Error ? err.message : String(err), true);
      throw err;
    }
  };

  let stopped = false;
  let markStopped = () => {};
  const whenStopped = new Promise<void>((resolve) => (markStopped = resolve));
  /**
   * Each collection replicates on its own, so a new conversation's first message could reach the
   * server before the conversation and be refused. Before pushing child rows, wait until every parent
   * they name that this device created (not yet accepted, or never stamped by the server: that also
   * holds after a reload) has been pushed by its own replication.
   */
  const parentsOnServer = async (name: CollectionName, rows: PushRow[]) => {
    const spec: CollectionSpec = collectionSpecs[name];
    for (const { collection: parentName, ids } of parentsNamed(spec.parents ?? [], rows)) {
      const parentState = states.get(parentName as CollectionName);
      const parents = db.collections[parentName as CollectionName] as unknown as RxCollection<SyncDoc> | undefined;
      if (!parentState || !parents) continue;
      const local = ids.length ? await parents.findByIds(ids).exec() : new Map();
      const unconfirmed = [...local.values()].some(
        (p) => status.isPending(parentName, p.primary) || p.get('version') == null,
      );
      if (unconfirmed && !stopped) await Promise.race([parentState.awaitInSync(), whenStopped]);
    }
  };

  /** Collections whose replication starts once the user's role is known (see `dependsOnRole`). */
  const started = new Map<CollectionName, Promise<void>>();
  const replicateCollection = (name: CollectionName, mode: WriteMode) => {
    if (stopped) return;
    const collection = db.collections[name] as unknown as RxCollection<SyncDoc>;
    const stream$ = streams.get(name)!;
    const received = createRecentMasters({ ttlMs: opts.rememberReceivedMs });
    const spec: CollectionSpec = collectionSpecs[name];
    const replicationIdentifier = replicationIdentifierOf(name, opts.serverUrl, mode, spec);
    const snapshot =
      opts.snapshot === false
        ? undefined
        : createSnapshotFeed(
            (signal) => api.snapshot(name, pullBatchSize, signal),
            opts.userId === undefined ? undefined : prefetchKey(opts.serverUrl, opts.userId, name, pullBatchSize),
          );
    if (snapshot) snapshots.set(name, snapshot);
    const localChanges = createLocalChangeFilter(
      collection,
      replicationIdentifiers(name, opts.serverUrl, spec),
      (a, b) => collection.conflictHandler.isEqual(a, b, 'pacta-local-change-check'),
    );
    // Rows the change stream carries: straight into RxDB's pull stream when it is idle; in a full
    // replication always through the pull handler (which first records pulled server states, see
    // local-changes.ts), without a request when they follow its checkpoint.
    const streamed = createStreamedFeed({
      emit: (page) => stream$.next(page),
      pull: () => pullSoon(name),
      canEmit: () => mode === 'pull-only' && idleDownstream(states.get(name)),
    });
    streamedFeeds.set(name, streamed);
    const state = replicateRxCollection<SyncDoc, SyncCheckpoint>({
      replicationIdentifier,
      collection,
      live: opts.live ?? true,
      retryTime: opts.retryTime ?? 5_000,
      waitForLeadership: awaitLeadership,
      autoStart: true,
      pull: {
        batchSize: pullBatchSize,
        stream$: stream$.asObservable(),
        handler: async (checkpoint, batchSize) => {
          streamed.pullStarted(checkpoint ?? null);
          const fromStream = streamed.take(checkpoint ?? null, batchSize);
          if (fromStream) {
            if (mode === 'full')
              await localChanges.recordPulledMasters(
                states.get(name),
                fromStream.documents.map((d) => d.id),
              );
            streamed.pullEnded(checkpoint ?? null, fromStream);
            return fromStream;
          }
          const startedAt = Date.now();
          const page = await track(() =>
            pullPage(api, collection, name, checkpoint ?? null, batchSize, {
              snapshot,
              onPending: (pending) => pullAgainSoon(name, pending),
              waitingToPush: (id) => status.isPending(name, id),
              sentSince: (id, since) => (lastSent.get(`${name}/${id}`) ?? 0) >= since,
              onStreamEnd: () => resyncLater(name, 0),
            }),
          );
          // A pull-only replication records no server states at all.
          if (mode === 'full')
            await localChanges.recordPulledMasters(
              states.get(name),
              page.documents.map((d) => d.id),
            );
          // A notice that found nothing may have raced its own commit's visibility: look once more.
          const notice = lastNotice.get(name);
          if (page.documents.length === 0 && notice !== undefined && startedAt - notice < 1_000) {
            lastNotice.delete(name);
            resyncLater(name, 300);
          }
          streamed.pullEnded(checkpoint ?? null, page);
          return page;
        },
      },
      // A read-only collection (written by the server only), or one the user's role may never write,
      // has no push at all: nothing on this device can ever be sent for it, and RxDB then keeps no
      // server state beside each pulled document (its `skipStoringPullMeta`).
      push:
        mode === 'pull-only'
          ? undefined
          : {
              batchSize: Math.min(opts.pushBatchSize ?? 100, MAX_PUSH_ROWS),
              handler: async (rows) => {
                const { changed: sendable, superseded } = await localChanges.changedRows(
                  withoutRejections(rows as PushRow[]),
                );
                if (sendable.length === 0) return superseded;
                await parentsOnServer(name, sendable);
                const conflicts = await track(() => pushRows(api, name, withKnownMasters(sendable, received)));
                const conflicted = new Set(conflicts.map((c) => c.id));
                const at = Date.now();
                for (const row of sendable)
                  if (!conflicted.has(row.newDocumentState.id)) lastSent.set(`${name}/${row.newDocumentState.id}`, at);
                return [...conflicts, ...superseded];
              },
            },
    });
    states.set(name, state);
    subs.push(
      collection.eventBulks$.subscribe((bulk) => {
        for (const event of bulk.events) status.rejection(name, event.documentId, refusalOf(event.documentData));
        if (isReplicationWrite(bulk.context)) return;
        status.localWrite(
          name,
          bulk.events.map((e) => e.documentId),
        );
      }),
      state.sent$.subscribe((doc) => status.settled(name, doc.id)),
      state.received$.subscribe((doc) => {
        received.remember(doc);
        status.settled(name, doc.id);
      }),
    );
    // Whether the collection held any document before this session replicated: a refusal kept from an
    // earlier session can only be in one of those (one made in this session is seen as it is written).
    // Asked now, before any pull writes.
    // (A failed read, the database closing, counts as held: the look below has its own guard.)
    const heldBefore =
      mode === 'pull-only'
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
          status.initialSyncDone();
          // Refusals kept from an earlier session (the marker lives in the document until it is edited).
          if (mode === 'pull-only' || stopped || !(await heldBefore)) return;
          // Read by id when the ids were recorded: no index can serve `sync_rejection` (an object), and
          // looking through a brand's 60,000 documents for it cost every page load ~270 ms.
          const kept = status.keptRefusals(name);
          if (kept) {
            const found = kept.length
              ? await collection.findByIds(kept).exec()
              : new Map<string, RxDocument<SyncDoc>>();
            for (const id of kept) {
              const doc = found.get(id);
              status.rejection(name, id, doc ? refusalOf(doc.toJSON() as SyncDoc) : null);
            }
            return;
          }
          const refused = await collection.find({ selector: { sync_rejection: { $exists: true } } }).exec();
          for (const doc of refused) status.rejection(name, doc.primary, refusalOf(doc.toJSON() as SyncDoc));
        },
        () => {},
      )
      .catch((err: unknown) => {
        // The database may close (sign-out, reload) while the kept refusals are read: nothing to show then.
        if (!stopped && !db.closed) throw err;
      });
  };

  for (const name of names) streams.set(name, new Subject<RxReplicationPullStreamItem<SyncDoc, SyncCheckpoint>>());
  const waiting = names.filter(
    (name) =>
      opts.pullOnlyByRole &&
      dependsOnRole(collectionSpecs[name]) &&
      !(opts.roleHint && writeMode(collectionSpecs[name], opts.roleHint) === 'full'),
  );
  for (const name of names)
    if (!waiting.includes(name)) replicateCollection(name, writeMode(collectionSpecs[name], undefined));
  if (waiting.length > 0) {
    const role = serverDecidedRole(db, opts.userId, states.get('profiles'), whenStopped);
    for (const name of waiting)
      started.set(
        name,
        role.then((r) => replicateCollection(name, writeMode(collectionSpecs[name], r))),
      );
  }
  /** Every collection's replication, once the ones waiting for the role have started. */
  const allStates = async () => {
    await Promise.all(started.values());
    return [...states.values()];
  };

  let changeStream: ReturnType<typeof openChangeStream> | undefined;
  const openStream = () => {
    changeStream = openChangeStream(api, {
      onHello: () => streams.forEach((_, name) => pullSoon(name)),
      onChange: (name) => {
        lastNotice.set(name as CollectionName, Date.now());
        pullSoon(name as CollectionName);
      },
      onRows: (rows) => {
        const name = rows.collection as CollectionName;
        const feed = streamedFeeds.get(name);
        if (feed) feed.arrived(rows);
        else if (streams.has(name)) pullSoon(name);
      },
      onConnectedChange: (connected) => status.streaming(connected),
      onError: (err) => {
        if (err instanceof SyncHttpError) status.failed(err.code, err.message, false);
        else if (!(err instanceof Error && err.name === 'AbortError')) status.failed('offline', String(err), true);
      },
    });
  };
  if ((opts.live ?? true) && names.length > 0) {
    if (awaitLeadership) void db.waitForLeadership().then(() => !stopped && openStream());
    else openStream();
  }

  // Fully in sync: everything recorded before the wait began has reached the server (so an id whose
  // push went out in a tab that closed before it could settle it cannot stay counted for ever).
  let settling = false;
  subs.push(
    status.status$.subscribe((s) => {
      if (settling || stopped || s.pendingPush === 0 || !s.online || s.lastError || !s.initialSync.complete) return;
      settling = true;
      const before = status.pendingNow();
      void allStates()
        .then((all) => Promise.all(all.map((state) => state.awaitInSync())))
        .then(() => !stopped && status.settledAll(before))
        .catch(() => {})
        .finally(() => (settling = false));
    }),
  );

  const onOnline = () => {
    changeStream?.reconnect();
    states.forEach((s) => s.reSync());
  };
  if (typeof window !== 'undefined') window.addEventListener('online', onOnline);

  return {
    states,
    syncStatus$: status.status$,
    get syncStatus() {
      return status.value;
    },
    async awaitInitialSync() {
      await Promise.all((await allStates()).map((s) => s.awaitInitialReplication()));
    },
    async awaitInSync() {
      await Promise.all((await allStates()).map((s) => s.awaitInSync()));
    },
    reloadPending: () => status.reloadPending(),
    reSync: onOnline,
    async stop() {
      stopped = true;
      markStopped();
      retryTimers.forEach((t) => clearTimeout(t));
      if (typeof window !== 'undefined') window.removeEventListener('online', onOnline);
      changeStream?.stop();
      snapshots.forEach((s) => s.close());
      subs.forEach((s) => s.unsubscribe());
      await Promise.all([...states.values()].map((s) => s.cancel()));
      streams.forEach((s) => s.complete());
      status.complete();
    },
  };
}

/**
 * RxDB's downstream has nothing to do: its first sync is done, no pull or page is being processed and no
 * push is running (RxDB holds pulled pages back while one is), so a page handed to its pull stream now is
 * processed on the checkpoint it holds now.
 */
function idleDownstream(state: RxReplicationState<SyncDoc, SyncCheckpoint> | undefined): boolean {
  const internal = state?.internalReplicationState;
  if (!internal) return false;
  return (
    internal.firstSyncDone.down.getValue() &&
    !internal.events.active.down.getValue() &&
    !internal.events.active.up.getValue()
  );
}

/** The longest a pull asked for waits for the replication to be idle (see `pullSoon`). */
const MAX_PULL_HOLD_MS = 1_000;

/** Local documents read per page when a reset compares them with the restarted feed. */
const RESET_READ_PAGE = 2_000;

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
async function pullPage(
  api: SyncApi,
  collection: RxCollection<SyncDoc>,
  name: CollectionName,
  checkpoint: SyncCheckpoint | null,
  batchSize: number,
  hooks: {
    /** The streamed first sync of a collection the device holds nothing of (see snapshot-feed.ts). */
    snapshot: ReturnType<typeof createSnapshotFeed> | undefined;
    onPending: (pending: boolean) => void;
    /**
     * The stream's last page was taken. Its pages come from a snapshot older than the moment RxDB asks
     * for them, so a change notice that arrived meanwhile was answered from that snapshot (RxDB drops
     * a notice older than its latest request) and rows committed since are not in it: pull once more.
     */
    onStreamEnd: () => void;
    /** A change of this document is still to be pushed: the push, not the feed, settles it. */
    waitingToPush: (id: string) => boolean;
    /** A push request wrote this document since `since`: it may have committed after the feed was read. */
    sentSince: (id: string, since: number) => boolean;
  },
): Promise<{ documents: WithDeleted<SyncDoc>[]; checkpoint: SyncCheckpoint | undefined }> {
  const { onPending } = hooks;
  const startedAt = Date.now() - 1;
  const holdsDocuments = checkpoint === null && (await collection.findOne().exec()) !== null;
  // Nothing of the collection from the server yet: the whole feed comes as one stream.
  if (checkpoint === null && !holdsDocuments && hooks.snapshot) hooks.snapshot.start();
  const streamed = await hooks.snapshot?.take(checkpoint);
  if (streamed) {
    onPending(streamed.pending === true);
    // Not after a feed that brought nothing at all: RxDB keeps no checkpoint for an empty page, so that
    // pull would start from nothing again and open another stream, and so on.
    if (streamed.documents.length < batchSize && (streamed.documents.length > 0 || checkpoint !== null))
      hooks.onStreamEnd();
    return { documents: streamed.documents, checkpoint: streamed.checkpoint ?? undefined };
  }
  let page = await api.pull(name, checkpoint, batchSize);
  onPending(page.pending === true);
  const lostCheckpoint = holdsDocuments && !page.reset;
  if (!page.reset && !lostCheckpoint) return { documents: page.documents, checkpoint: page.checkpoint ?? undefined };

  let documents = [...page.documents];
  let position = page.checkpoint;
  while (page.documents.length >= batchSize) {
    page = await api.pull(name, position, batchSize);
    onPending(page.pending === true);
    // The server restarted the feed once more (another purge meanwhile): start collecting again.
    if (page.reset) documents = [];
    documents.push(...page.documents);
    position = page.checkpoint ?? position;
  }
  // Every local document the feed no longer has goes, but for changes still to be pushed. Keeping any
  // other one would keep it for good: the feed holds live rows only, and the position it ends on may lie
  // past the deletion it skipped, so no later pull would bring that deletion. A document a push request
  // wrote while the feed was read goes too (its write may have committed after the feed's snapshot):
  // then the next pull, asked for at once, brings it back, since a commit after the snapshot lies past
  // the position the feed ends on.
  const context: ResetContext = {
    inFeed: new Set(documents.map((d) => d.id)),
    waitingToPush: hooks.waitingToPush,
    sentDuringFeed: (id) => hooks.sentSince(id, startedAt),
  };
  // Every local document is compared with the feed, read in pages along the primary key: a device
  // with 50,000 documents never holds them all in memory at once.
  const removals: WithDeleted<SyncDoc>[] = [];
  let pullAgain = false;
  let after: string | undefined;
  for (;;) {
    const local = await collection
      .find({
        selector: after === undefined ? {} : { id: { $gt: after } },
        sort: [{ id: 'asc' }],
        limit: RESET_READ_PAGE,
      })
      .exec();
    const page = resetRemovals(
      local.map((doc) => doc.toJSON() as SyncDoc),
      context,
    );
    removals.push(...page.removals);
    pullAgain ||= page.pullAgain;
    if (local.length < RESET_READ_PAGE) break;
    after = local.at(-1)!.primary;
  }
  if (pullAgain) onPending(true);
  return { documents: [...documents, ...removals], checkpoint: position ?? undefined };
}

function refusalOf(doc: SyncDoc | undefined): { code: string; message: string } | null {
  const refusal = doc?.sync_rejection as { code?: unknown; message?: unknown } | null | undefined;
  if (!doc || doc._deleted || !refusal || typeof refusal.code !== 'string') return null;
  return { code: refusal.code, message: typeof refusal.message === 'string' ? refusal.message : '' };
}

/**
 * A document the server refused stays as it came back (with `sync_rejection`) until the user changes it
 * again, which clears the field: never re-sent, so nothing loops. The refused state is also what RxDB
 * records as the assumed master; without the client-only marker it is the server's state, the base of
 * the user's corrected edit. (RxDB's push `modifier` would blank that base along with the row.)
 */
function withoutRejections(rows: PushRow[]): PushRow[] {
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
function withKnownMasters(rows: PushRow[], received: RecentMasters): PushRow[] {
  for (const row of rows) {
    if (row.assumedMasterState) continue;
    const known = received.get(row.newDocumentState.id);
    if (known) row.assumedMasterState = known;
  }
  return rows;
}

/**
 * One push. If the server refuses the whole batch because of one row (a write outside the user's
 * scope, a changed server-owned field, an invalid document), the rows are retried one by one and
 * the refused row comes back as a local conflict carrying `sync_rejection`, so one bad row never
 * blocks the queue.
 */
async function pushRows(api: SyncApi, name: CollectionName, rows: PushRow[]): Promise<SyncDoc[]> {
  try {
    return (await api.push(name, rows)).conflicts;
  } catch (err) {
    if (!(err instanceof SyncHttpError) || !ROW_REFUSAL_STATUSES.includes(err.status)) throw err;
    if (rows.length > 1) {
      const conflicts: SyncDoc[] = [];
      for (const row of rows) conflicts.push(...(await pushRows(api, name, [row])));
      return conflicts;
    }
    return [refusedRow(rows[0]!, err)];
  }
}
