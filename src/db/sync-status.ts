import { BehaviorSubject, distinctUntilChanged, map, type Observable } from 'rxjs';

export type SyncStatus = {
  /** The last request to the server got an answer (false after a network failure). */
  online: boolean;
  /** The live change stream is open. */
  streaming: boolean;
  /** Local changes not yet accepted by the server. */
  pendingPush: number;
  /** When a pull or push last succeeded (ms since epoch). */
  lastSyncedAt: number | null;
  /** Collections whose first full pull has finished, out of all replicated ones. */
  initialSync: { done: number; total: number; complete: boolean };
  /** The last failure, cleared by the next success. `offline` for network failures. */
  lastError: { code: string; message: string } | null;
};

/** Keeps the sync status and publishes it; the replication feeds it, the UI reads `status$`. */
export function createSyncStatus(total: number) {
  const pending = new Map<string, Set<string>>();
  const state = new BehaviorSubject<SyncStatus>({
    online: true,
    streaming: false,
    pendingPush: 0,
    lastSyncedAt: null,
    initialSync: { done: 0, total, complete: total === 0 },
    lastError: null,
  });
  const patch = (p: Partial<SyncStatus>) => state.next({ ...state.value, ...p });
  const pendingCount = () => [...pending.values()].reduce((n, s) => n + s.size, 0);

  return {
    status$: state.pipe(
      distinctUntilChanged((a, b) => JSON.stringify(a) === JSON.stringify(b)),
      map((s) => ({ ...s })),
    ) as Observable<SyncStatus>,
    get value() {
      return state.value;
    },
    succeeded() {
      patch({ online: true, lastSyncedAt: Date.now(), lastError: null });
    },
    failed(code: string, message: string, offline: boolean) {
      patch({ online: !offline, lastError: { code, message } });
    },
    streaming(streaming: boolean) {
      patch({ streaming });
    },
    initialSyncDone() {
      const done = state.value.initialSync.done + 1;
      patch({ initialSync: { done, total, complete: done >= total } });
    },
    localWrite(collection: string, ids: string[]) {
      let set = pending.get(collection);
      if (!set) pending.set(collection, (set = new Set()));
      for (const id of ids) set.add(id);
      patch({ pendingPush: pendingCount() });
    },
    /** Whether a local write of this document has not been accepted by the server yet. */
    isPending(collection: string, id: string) {
      return pending.get(collection)?.has(id) ?? false;
    },
    settled(collection: string, id: string) {
      if (pending.get(collection)?.delete(id)) patch({ pendingPush: pendingCount() });
    },
    complete() {
      state.complete();
    },
  };
}
