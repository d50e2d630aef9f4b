import type { Observable, Subscription } from 'rxjs';
import type { RxReplicationState } from 'rxdb/plugins/replication';
import {
  collectionSpecs,
  MAX_PULL_LIMIT,
  type CollectionName,
  type ProfileRole,
  type SyncCheckpoint,
} from '../domain/collections/index.ts';
import { sleep } from '../lib/retry.ts';
import { openChangeStream } from './change-stream.ts';
import type { PactaDatabase } from './create-database.ts';
import { createSyncApi, SyncHttpError, type SyncApiOptions, type SyncDoc } from './sync-api.ts';
import { createSyncStatus, type PendingStore, type SyncStatus } from './sync-status.ts';
import {
  createCollectionReplicator,
  type CollectionReplicator,
  type ReplicatorContext,
} from './sync/collection-replicator.ts';
import { createLiveRowsFirst } from './sync/first-sync-pace.ts';
import { createMetaStorageRecorder } from './sync/meta-storages.ts';
import { serverDecidedRole } from './sync/server-role.ts';
import { waitsForRole, writeMode, type WriteMode } from './sync/write-mode.ts';

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
  /**
   * The role the server decided, when the session already says it (the access token's app_metadata,
   * which the database keeps equal to the profile's role, or the profile this device holds): with
   * `pullOnlyByRole`, every collection starts at once in that role's mode, none waiting for the
   * profiles' first sync.
   */
  serverRole?: ProfileRole;
  /**
   * The replications start (and the change stream opens) once this resolves; the sync status and the
   * watchers that count local writes as waiting start at once. A warm start passes a short pause, so
   * the first screen's reads do not queue behind the sync's own IndexedDB work.
   */
  startAfter?: Promise<void>;
  /**
   * Collections whose replications start before the others (the first screen's, on a device that holds
   * none of them): the others start once each of these has written its first page, or found it empty,
   * or after FIRST_HEAD_START_MS. Thirteen replications starting together make every first step of
   * theirs (a storage to open, a checkpoint to read) one IndexedDB request more in the queue the first
   * screen's page waits in.
   */
  startFirst?: readonly CollectionName[];
};

/** The longest the `startFirst` collections replicate alone. */
const FIRST_HEAD_START_MS = 1_500;

/**
 * Replicates the database with the sync server: one replicator per collection (its pull, push, timers
 * and refusals, `sync/collection-replicator.ts`), a live stream whose notices and rows reach them, and
 * the sync status they all feed. Only one tab (the elected leader) replicates when the database is
 * multi-instance.
 */
export function startReplication(db: PactaDatabase, opts: ReplicationOptions): PactaReplication {
  const names = (opts.collections ?? (Object.keys(db.collections) as CollectionName[])).filter(
    (n) => db.collections[n],
  );
  let stopped = false;
  let markStopped = () => {};
  const whenStopped = new Promise<void>((resolve) => (markStopped = resolve));
  const replicators = new Map<CollectionName, CollectionReplicator>();
  const states = new Map<CollectionName, RxReplicationState<SyncDoc, SyncCheckpoint>>();
  const ctx: ReplicatorContext = {
    db,
    api: createSyncApi(opts),
    status: createSyncStatus(names.length, opts.pendingStore, opts.refusedStore),
    opts,
    // The largest page the server serves: a first sync of 10,000 deals is 10 round trips and 10
    // IndexedDB write transactions instead of 50; a page of deals is about half a megabyte of JSON.
    pullBatchSize: opts.pullBatchSize ?? MAX_PULL_LIMIT,
    awaitLeadership: opts.waitForLeadership ?? db.multiInstance,
    stopped: () => stopped,
    whenStopped,
    replicationOf: (name) => states.get(name),
    liveRows: createLiveRowsFirst(),
    startAfter: opts.startAfter,
    metaStorages: createMetaStorageRecorder(db),
  };
  const start = (name: CollectionName, mode: WriteMode) => {
    if (stopped) return undefined;
    const replicator = createCollectionReplicator(ctx, name, mode);
    replicators.set(name, replicator);
    states.set(name, replicator.state);
    return replicator;
  };
  const started = startReplicators(ctx, names, start);
  /** Every collection's replication, once the ones waiting for the role have started. */
  const allStates = async () => {
    await started;
    return [...states.values()];
  };
  const changeStream = liveChanges(ctx, names, replicators);
  const settling = settleWhenInSync(ctx, allStates);
  // The sync engine calls this on `online`, focus, visibility and Background Sync (in the leader tab).
  const reSync = () => {
    changeStream.reconnect();
    replicators.forEach((r) => r.state.reSync());
  };

  return {
    states,
    syncStatus$: ctx.status.status$,
    get syncStatus() {
      return ctx.status.value;
    },
    async awaitInitialSync() {
      await Promise.all((await allStates()).map((s) => s.awaitInitialReplication()));
    },
    async awaitInSync() {
      await Promise.all((await allStates()).map((s) => s.awaitInSync()));
    },
    reloadPending: () => ctx.status.reloadPending(),
    reSync,
    async stop() {
      stopped = true;
      markStopped();
      changeStream.stop();
      settling.unsubscribe();
      await Promise.all([...replicators.values()].map((r) => r.stop()));
      ctx.status.complete();
    },
  };
}

/**
 * Starts each collection's replicator in its write mode, the `startFirst` ones before the others.
 * Resolves once every one has started.
 */
async function startReplicators(
  ctx: ReplicatorContext,
  names: readonly CollectionName[],
  start: (name: CollectionName, mode: WriteMode) => CollectionReplicator | undefined,
): Promise<void> {
  const { opts } = ctx;
  // One that waits for the user's role waits for the profiles' replication too: it cannot lead.
  const first = names.filter((name) => opts.startFirst?.includes(name) && startsAtOnce(opts, name));
  if (first.length === 0) return startInRoles(ctx, names, start);
  const firstPages: Promise<void>[] = [];
  const leading = startInRoles(ctx, first, (name, mode) => {
    const replicator = start(name, mode);
    if (replicator) firstPages.push(replicator.firstPage);
    return replicator;
  });
  await Promise.race([leading.then(() => Promise.all(firstPages)), sleep(FIRST_HEAD_START_MS), ctx.whenStopped]);
  await Promise.all([
    leading,
    startInRoles(
      ctx,
      names.filter((name) => !first.includes(name)),
      start,
    ),
  ]);
}

/**
 * Starts each of `names` in its write mode. One whose mode depends on the user's role
 * (`pullOnlyByRole`) starts once the server's role is known (at once when the session says it), unless
 * the role the user claims may write it (then it starts in full at once). Resolves once every one has
 * started.
 */
async function startInRoles(
  ctx: ReplicatorContext,
  names: readonly CollectionName[],
  start: (name: CollectionName, mode: WriteMode) => unknown,
): Promise<void> {
  const { opts } = ctx;
  const known = opts.pullOnlyByRole ? opts.serverRole : undefined;
  const waiting = names.filter((name) => !startsAtOnce(opts, name));
  for (const name of names) if (!waiting.includes(name)) start(name, writeMode(collectionSpecs[name], known));
  if (waiting.length === 0) return;
  const role = await serverDecidedRole(ctx.db, opts.userId, ctx.replicationOf('profiles'), ctx.whenStopped);
  for (const name of waiting) start(name, writeMode(collectionSpecs[name], role));
}

/** Whether a collection starts without waiting to hear the user's role from the server. */
function startsAtOnce(opts: ReplicationOptions, name: CollectionName): boolean {
  return (
    (!!opts.pullOnlyByRole && !!opts.serverRole) ||
    !waitsForRole(collectionSpecs[name], opts.pullOnlyByRole, opts.roleHint)
  );
}

/** The live change stream: its notices and rows reach the collections' replicators. */
function liveChanges(
  ctx: ReplicatorContext,
  names: readonly CollectionName[],
  replicators: ReadonlyMap<CollectionName, CollectionReplicator>,
): { reconnect(): void; stop(): void } {
  let changeStream: ReturnType<typeof openChangeStream> | undefined;
  const { status } = ctx;
  const openStream = () => {
    changeStream = openChangeStream(ctx.api, {
      onHello: () => replicators.forEach((r) => r.pullSoon()),
      onChange: (name) => replicators.get(name as CollectionName)?.noticed(),
      onRows: (rows) => replicators.get(rows.collection as CollectionName)?.rowsArrived(rows),
      onConnectedChange: (connected) => status.streaming(connected),
      onError: (err) => {
        if (err instanceof SyncHttpError) status.failed(err.code, err.message, false);
        else if (!(err instanceof Error && err.name === 'AbortError')) status.failed('offline', String(err), true);
      },
    });
  };
  if ((ctx.opts.live ?? true) && names.length > 0) {
    // The stream opens in the leading tab, once its replications may start.
    const leadership = ctx.awaitLeadership ? ctx.db.waitForLeadership() : undefined;
    if (leadership || ctx.startAfter)
      void Promise.all([leadership, ctx.startAfter]).then(() => !ctx.stopped() && openStream());
    else openStream();
  }
  return { reconnect: () => changeStream?.reconnect(), stop: () => changeStream?.stop() };
}

/**
 * Fully in sync: everything recorded before the wait began has reached the server (so an id whose
 * push went out in a tab that closed before it could settle it cannot stay counted for ever).
 */
function settleWhenInSync(
  ctx: ReplicatorContext,
  allStates: () => Promise<RxReplicationState<SyncDoc, SyncCheckpoint>[]>,
): Subscription {
  const { status } = ctx;
  let settling = false;
  return status.status$.subscribe((s) => {
    if (settling || ctx.stopped() || s.pendingPush === 0 || !s.online || s.lastError || !s.initialSync.complete) return;
    settling = true;
    const before = status.pendingNow();
    void allStates()
      .then((all) => Promise.all(all.map((state) => state.awaitInSync())))
      .then(() => !ctx.stopped() && status.settledAll(before))
      .catch(() => {})
      .finally(() => (settling = false));
  });
}
