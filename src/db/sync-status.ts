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
  /**
   * Local changes the server refused (each document keeps the refusal until the user changes it
   * again): never hidden behind "Synced".
   */
  rejected: RejectedChange[];
};

export type RejectedChange = { collection: string; id: string; code: string; message: string };

/**
 * Where the ids of local changes not yet accepted by the server are kept between visits (the
 * browser's localStorage): a reload must not forget them, since sign-out may never drop unsynced
 * changes silently. `save` may ignore the call (a tab that does not replicate keeps its view to itself).
 */
export type PendingStore = { load(): string[]; save(ids: string[]): void };

const pendingKey = (collection: string, id: string) => `${collection}/${id}`;

/**
 * Keeps the sync status and publishes it; the replication feeds it, the UI reads `status$`. The one
 * record of which local changes wait for the server (`pendingPush` counts them), persisted in `store`.
 */
export function createSyncStatus(total: number, store?: PendingStore, refusedStore?: PendingStore) {
  const pending = createPendingChanges(store, (pendingPush) => patch({ pendingPush }));
  const refusals = createRefusals(refusedStore, (rejected) => patch({ rejected }));
  const state = new BehaviorSubject<SyncStatus>({
    online: true,
    streaming: false,
    pendingPush: pending.size(),
    lastSyncedAt: null,
    initialSync: { done: 0, total, complete: total === 0 },
    lastError: null,
    rejected: [],
  });
  const patch = (p: Partial<SyncStatus>) => state.next({ ...state.value, ...p });

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
    ...pending.api,
    ...refusals,
    complete() {
      state.complete();
    },
  };
}

/**
 * Which local changes wait for the server (`collection/id`), persisted in `store` so a reload or another
 * tab taking over still counts them; `changed` hears the count after every change.
 */
function createPendingChanges(store: PendingStore | undefined, changed: (count: number) => void) {
  const pending = new Set<string>(store?.load() ?? []);
  const pendingChanged = () => {
    store?.save([...pending]);
    changed(pending.size);
  };
  return {
    size: () => pending.size,
    api: {
      localWrite(collection: string, ids: string[]) {
        const before = pending.size;
        for (const id of ids) pending.add(pendingKey(collection, id));
        if (pending.size !== before) pendingChanged();
      },
      /** Whether a local write of this document has not been accepted by the server yet. */
      isPending(collection: string, id: string) {
        return pending.has(pendingKey(collection, id));
      },
      /** Whether any local write of this collection has not been accepted by the server yet. */
      hasPending(collection: string) {
        const prefix = pendingKey(collection, '');
        for (const key of pending) if (key.startsWith(prefix)) return true;
        return false;
      },
      settled(collection: string, id: string) {
        if (pending.delete(pendingKey(collection, id))) pendingChanged();
      },
      /** Everything recorded so far, to settle once the replication is fully in sync. */
      pendingNow(): string[] {
        return [...pending];
      },
      /** The replication was fully in sync after these were recorded: they all reached the server. */
      settledAll(keys: readonly string[]) {
        let changed = false;
        for (const key of keys) changed = pending.delete(key) || changed;
        if (changed) pendingChanged();
      },
      /** Takes in what the store holds now (another tab replicated until this one took over). */
      reloadPending() {
        for (const key of store?.load() ?? []) pending.add(key);
        pendingChanged();
      },
    },
  };
}

/**
 * The refusals the documents hold now, shown by the status; and which documents were kept with one
 * (`collection/id`), across visits: a new visit reads those by id instead of looking through every
 * document of every collection for the marker.
 */
function createRefusals(refusedStore: PendingStore | undefined, changed: (rejected: RejectedChange[]) => void) {
  const keptRefusals = new Set<string>(refusedStore?.load() ?? []);
  const rejected = new Map<string, RejectedChange>();
  return {
    /** The ids of `collection`'s documents kept with a refusal at the end of an earlier visit (undefined: not recorded). */
    keptRefusals(collection: string): string[] | undefined {
      if (!refusedStore) return undefined;
      const prefix = `${collection}/`;
      return [...keptRefusals].filter((k) => k.startsWith(prefix)).map((k) => k.slice(prefix.length));
    },
    /** A document's current refusal (`null`: it carries none, or is gone). */
    rejection(collection: string, id: string, refusal: { code: string; message: string } | null) {
      const key = `${collection}/${id}`;
      if (refusedStore && keptRefusals.has(key) !== !!refusal) {
        if (refusal) keptRefusals.add(key);
        else keptRefusals.delete(key);
        refusedStore.save([...keptRefusals]);
      }
      if (refusal) rejected.set(key, { collection, id, code: refusal.code, message: refusal.message });
      else if (!rejected.delete(key)) return;
      changed([...rejected.values()]);
    },
  };
}
