import { combineLatest, filter, firstValueFrom, map, timeout } from 'rxjs';
import type { RxReplicationState } from 'rxdb/plugins/replication';
import type { SyncCheckpoint } from '../../domain/collections/index.ts';
import { createBackoff, type Backoff } from '../../lib/retry.ts';
import type { PactaDatabase } from '../create-database.ts';
import type { SyncDoc } from '../sync-api.ts';

type Replication = RxReplicationState<SyncDoc, SyncCheckpoint>;

/** The longest a pull asked for waits for the replication to be idle (see `soon`). */
const MAX_PULL_HOLD_MS = 1_000;

/**
 * When one collection pulls again, apart from RxDB's own pulls. `resync` asks RxDB for a pull (a
 * 'RESYNC' on its pull stream). Its timers are cleared by `stop`, so nothing fires after it.
 */
export function createPullScheduler(opts: {
  db: PactaDatabase;
  resync: () => void;
  /** The collection's replication, once it runs. */
  replication: () => Replication | undefined;
  stopped: () => boolean;
  /** Local writes of the collection wait to be pushed (absent: assume so). */
  localChangesWaiting?: () => boolean;
}) {
  const timers = new Set<ReturnType<typeof setTimeout>>();
  let held = false;
  // Committed rows held back behind an older, still-running transaction: ask again shortly, with
  // a growing delay, since no change notice may follow the end of that transaction.
  let backoff: Backoff | undefined;
  const wait = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        timers.delete(timer);
        resolve();
      }, ms);
      timers.add(timer);
    });
  const later = (ms: number) => void wait(ms).then(opts.resync);

  return {
    /**
     * The pull a change notice (or the stream's hello) asks for. RxDB pulls on 'RESYNC', and its upstream
     * takes the same signal to look through every local document written since its last checkpoint,
     * reading each one's server record (its "initial sync" mode, which also pushes 200 rows at a time in
     * turn instead of a whole local write's batches together). Asked while the collection's replication
     * is still writing — a first sync's pages, a local write of many documents — that checkpoint lags
     * behind those writes: just-pulled deals read back once more for every notice, or a 2,000-document
     * edit pushed in turn. So the pull is asked for once the collection's first sync is done, and then
     * once its upstream is idle, and the database too while the collection has local writes waiting to
     * be pushed (waiting `MAX_PULL_HOLD_MS` at most); notices meanwhile are one, since that pull comes
     * after all of them. Other collections' writes (another first sync, say) do not hold it.
     */
    soon() {
      if (held || opts.stopped()) return;
      held = true;
      const state = opts.replication();
      void (async () => {
        // Until its first sync is done the collection is pulling anyway; the pull after it covers the requests.
        await state?.awaitInitialReplication();
        const ownWrites = opts.localChangesWaiting?.() ?? true;
        await Promise.race([quiet(opts.db, state, ownWrites), wait(MAX_PULL_HOLD_MS)]);
      })()
        .catch(() => {})
        .finally(() => {
          held = false;
          if (!opts.stopped()) opts.resync();
        });
    },
    /** Pull again after `ms`, whatever the replication is doing. */
    later,
    /** A pull answered whether committed rows are still held back: if so, pull again with a growing delay. */
    pending(pending: boolean) {
      if (!pending) {
        backoff = undefined;
        return;
      }
      backoff ??= createBackoff({ firstMs: 200, maxMs: 5_000 });
      later(backoff.next());
    },
    stop() {
      timers.forEach((t) => clearTimeout(t));
    },
  };
}

export type PullScheduler = ReturnType<typeof createPullScheduler>;

/** The collection's upstream is idle, and the database too when `database` (its idle queue is all collections'). */
async function quiet(db: PactaDatabase, state: Replication | undefined, database: boolean): Promise<void> {
  // Asked only when busy: RxDB's idle wait takes a few timer turns even when nothing runs.
  if (database && !db.idleQueue.isIdle()) await db.requestIdlePromise();
  const up = state?.internalReplicationState?.events.active.up;
  if (up?.getValue()) await firstValueFrom(up.pipe(filter((active) => !active)));
}

/** The collection's first sync is done (RxDB's downstream has caught up once). */
export function firstSyncDone(state: Replication | undefined): boolean {
  return state?.internalReplicationState?.firstSyncDone.down.getValue() === true;
}

/**
 * RxDB's downstream has nothing to do: its first sync is done, no pull or page is being processed and no
 * push is running (RxDB holds pulled pages back while one is), so a page handed to its pull stream now is
 * processed on the checkpoint it holds now.
 */
export function idleDownstream(state: Replication | undefined): boolean {
  const internal = state?.internalReplicationState;
  if (!internal || !firstSyncDone(state)) return false;
  return !internal.events.active.down.getValue() && !internal.events.active.up.getValue();
}

/**
 * Resolves true once RxDB's downstream is idle (see `idleDownstream`), within `ms`; false if it is not by
 * then, or if the collection's first sync is not done (it pulls anyway).
 */
export async function downstreamIdleWithin(state: Replication | undefined, ms: number): Promise<boolean> {
  const internal = state?.internalReplicationState;
  if (!internal || !firstSyncDone(state)) return false;
  const { down, up } = internal.events.active;
  return firstValueFrom(
    combineLatest([down, up]).pipe(
      map(([pulling, pushing]) => !pulling && !pushing),
      filter(Boolean),
      timeout({ first: ms }),
    ),
  ).then(
    () => idleDownstream(state),
    () => false,
  );
}
