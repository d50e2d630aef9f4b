import { Subject, type Subscription } from 'rxjs';
import type { PactaDatabase, PactaReplication } from './index.ts';
import { isReplicationWrite } from './replication.ts';

const storageKey = (userId: string) => `pacta.pending.${userId.toLowerCase()}`;

export type PendingLedger = {
  count(): number;
  changes$: Subject<void>;
  stop(): void;
  /** Forget everything (the database is being deleted). */
  clear(): void;
};

/**
 * Which local changes have not reached the server yet, kept in localStorage so the count survives a
 * reload (the replication's own status counts from zero on every start, and sign-out must never drop
 * unsynced changes silently). Only the leader tab records: it replicates, and RxDB's multi-instance
 * events bring it the other tabs' writes. An id leaves the ledger when its push went through, or when
 * the replication is fully in sync (so an id whose removal was lost with a closed tab cannot stick).
 */
export function createPendingLedger(userId: string, db: PactaDatabase, replication: PactaReplication): PendingLedger {
  const key = storageKey(userId);
  const entries = new Set<string>(read(key));
  const changes$ = new Subject<void>();
  let leader = !db.multiInstance;
  let stopped = false;
  const subs: Subscription[] = [];

  const save = () => {
    if (!leader || stopped) return;
    try {
      if (entries.size) localStorage.setItem(key, JSON.stringify([...entries]));
      else localStorage.removeItem(key);
    } catch {
      // Storage full or blocked: the in-memory count still works for this visit.
    }
    changes$.next();
  };
  const add = (id: string) => {
    if (!entries.has(id)) {
      entries.add(id);
      save();
    }
  };
  const remove = (id: string) => {
    if (entries.delete(id)) save();
  };

  for (const [name, collection] of Object.entries(db.collections)) {
    subs.push(
      collection.eventBulks$.subscribe((bulk) => {
        if (!leader || isReplicationWrite(bulk.context)) return;
        bulk.events.forEach((event) => add(`${name}/${event.documentId}`));
      }),
    );
  }
  for (const [name, state] of replication.states) {
    subs.push(state.sent$.subscribe((doc) => remove(`${name}/${doc.id}`)));
  }

  // Fully in sync: everything recorded before the wait began has reached the server.
  let checking = false;
  const settleIfInSync = () => {
    if (checking || !leader || stopped || entries.size === 0) return;
    checking = true;
    const before = [...entries];
    void replication
      .awaitInSync()
      .then(() => {
        if (stopped) return;
        let changed = false;
        for (const id of before) changed = entries.delete(id) || changed;
        if (changed) save();
      })
      .catch(() => {})
      .finally(() => (checking = false));
  };
  subs.push(
    replication.syncStatus$.subscribe((status) => {
      if (status.online && !status.lastError && status.initialSync.complete) settleIfInSync();
    }),
  );

  if (db.multiInstance) {
    void db.waitForLeadership().then(() => {
      if (stopped) return;
      leader = true;
      // The previous leader may have recorded more meanwhile.
      read(key).forEach((id) => entries.add(id));
      save();
    });
  }

  return {
    count: () => entries.size,
    changes$,
    stop() {
      stopped = true;
      subs.forEach((sub) => sub.unsubscribe());
      changes$.complete();
    },
    clear() {
      entries.clear();
      clearFor(userId);
    },
  };
}

function read(key: string): string[] {
  try {
    const raw = localStorage.getItem(key);
    const parsed: unknown = raw ? JSON.parse(raw) : [];
    return Array.isArray(parsed) ? parsed.filter((v): v is string => typeof v === 'string') : [];
  } catch {
    return [];
  }
}

function clearFor(userId: string): void {
  try {
    localStorage.removeItem(storageKey(userId));
  } catch {
    // nothing stored
  }
}

createPendingLedger.clearFor = clearFor;
