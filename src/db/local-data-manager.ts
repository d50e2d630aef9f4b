import type { Subscription } from 'rxjs';
import {
  createPactaDatabase,
  startReplication,
  type PactaDatabase,
  type PactaReplication,
  type SyncStatus,
} from './index.ts';
import { getSessionManager, sessionRetryFetch } from '../lib/session/session.ts';
import { syncServerUrl } from '../lib/config.ts';
import { disposeRecommendationsWorker } from '../lib/recommendations-client.ts';
import { requestBackgroundSync, onBackgroundSyncWake } from './background-sync.ts';
import type { ReplicationOptions } from './replication.ts';
import { getSyncView, resetSyncView, setSyncView, subscribeSyncView } from './sync-view.ts';
import { COLLECTION_NAMES, MAX_PULL_LIMIT, type ProfileRole } from '../domain/collections/index.ts';
import { createSyncApi } from './sync-api.ts';
import { dropPrefetchedSnapshots, prefetchKey, prefetchSnapshot } from './snapshot-feed.ts';
import { electTabLeader, type TabLeadership } from './tab-leadership.ts';
import { openTabChannel, parseSyncTabMessage, type SyncTabMessage, type TabChannel } from './sync/tab-channel.ts';
import { runUploads } from './uploads/upload-queue.ts';
import { removeUserUploads, watchUploads } from './uploads/upload-store.ts';

/**
 * The signed-in user's local data, kept OUTSIDE React: one RxDB database per user,
 * opened once per tab and shared by every screen; replication runs in the elected leader tab only,
 * and the leader tells the other tabs its sync status over a BroadcastChannel.
 */

type Entry = {
  userId: string;
  db: Promise<PactaDatabase>;
  replication?: PactaReplication;
  stops: (() => void)[];
  subs: Subscription[];
  /** Files picked on this device that the server does not hold yet (any tab's). */
  uploadsWaiting?: number;
  stopUploads?: () => void;
  channel?: TabChannel<SyncTabMessage>;
  /** startUserSync ran for this entry (whether or not this tab is the one replicating). */
  syncing?: boolean;
  leadership?: TabLeadership;
};

let current: Entry | undefined;
/** A close or delete in progress: the next open of the same database waits for it. */
let closing: Promise<unknown> = Promise.resolve();

const patchView = setSyncView;

/** Opens (once) the user's database; another user's database in this tab is closed first. */
export function openUserDatabase(userId: string): Promise<PactaDatabase> {
  if (current?.userId === userId) return current.db;
  const previous = current;
  const db = (async () => {
    if (previous) await closeEntry(previous).then((db) => db?.close());
    await closing.catch(() => {});
    await prefetchFirstSync(userId).catch(() => {});
    return createPactaDatabase({ userId });
  })();
  current = { userId, db, stops: [], subs: [] };
  // A failed open must not stick: the next call tries again.
  const entry = current;
  db.catch(() => {
    if (current === entry) current = undefined;
  });
  return db;
}

/**
 * Starts replication for the signed-in user (idempotent). Every tab takes part in the election (see
 * tab-leadership.ts); only the elected tab replicates, and a tab that loses the election (it was frozen
 * and another took over) stops. Sync resumes on `online`, focus, visibility and Background Sync.
 */
export async function startUserSync(userId: string): Promise<void> {
  const db = await openUserDatabase(userId);
  const entry = current;
  if (!entry || entry.userId !== userId || entry.syncing) return;
  entry.syncing = true;
  // Only the leader tab replicates, so only it writes down what waits for the server.
  let leader = false;
  let replicationSub: Subscription | undefined;
  let stopping: Promise<void> = Promise.resolve();

  const channel = openTabChannel(`pacta-sync-status-${userId}`, parseSyncTabMessage);
  entry.channel = channel;
  const publish = (status: SyncStatus) => {
    if (!leader) return;
    patchView({ role: 'leader', status });
    channel.post({ type: 'status', status });
    if (status.pendingPush > 0 && !status.online) void requestBackgroundSync();
  };
  channel.onMessage((message) => {
    if (message.type === 'status' && !leader) patchView({ role: 'follower', status: message.status });
    if (message.type === 'hello' && leader && entry.replication) publish(entry.replication.syncStatus);
    if (message.type === 'retry' && leader) entry.replication?.reSync();
  });
  channel.post({ type: 'hello' });

  const onElected = () => {
    if (current !== entry) return;
    leader = true;
    // A replication this tab ran before it was frozen finishes stopping first.
    void stopping.then(() => {
      if (!leader || current !== entry || entry.replication) return;
      const replication = startReplication(
        db,
        userReplicationOptions(userId, () => leader && current === entry, leadership),
      );
      entry.replication = replication;
      replicationSub = replication.syncStatus$.subscribe(publish);
      // The tab that syncs also sends the queued files, so a file is never sent twice.
      entry.stopUploads = runUploads(db, userId);
    });
  };
  const onYield = () => {
    leader = false;
    entry.stopUploads?.();
    entry.stopUploads = undefined;
    replicationSub?.unsubscribe();
    const replication = entry.replication;
    entry.replication = undefined;
    stopping = replication?.stop().catch(() => {}) ?? Promise.resolve();
    patchView({ role: 'follower' });
    channel.post({ type: 'hello' });
  };
  const leadership: TabLeadership =
    db.multiInstance && typeof navigator !== 'undefined' && navigator.locks
      ? electTabLeader(userId.toLowerCase(), { onElected, onYield })
      : soleTab(onElected);
  entry.leadership = leadership;

  const resume = () => {
    if (leader && current === entry) entry.replication?.reSync();
  };
  const stopBrowserEvents = watchBrowser(resume);
  const uploadsSub = watchUploads(userId).subscribe((jobs) => {
    entry.uploadsWaiting = jobs.length;
  });
  // The moment the session ends, stop syncing (before React re-renders): no request may go out with a
  // token the server has just revoked.
  const sessionManager = getSessionManager();
  const stopSessionWatch = sessionManager.subscribe(() => {
    if (sessionManager.getState().status === 'signed_out' && current === entry) void closeUserDatabase();
  });
  entry.stops.push(() => {
    replicationSub?.unsubscribe();
    uploadsSub.unsubscribe();
    entry.stopUploads?.();
    stopSessionWatch();
    stopBrowserEvents();
  });
}

/**
 * How the signed-in user's database replicates in the tab that syncs. `keeps`: this tab still leads for
 * this database, so what waits for the server is its to write down.
 */
function userReplicationOptions(
  userId: string,
  keeps: () => boolean,
  leadership: Pick<TabLeadership, 'confirm'>,
): ReplicationOptions {
  return {
    serverUrl: syncServerUrl(),
    // No getAccessToken: the fetch below sets the current token on every request (sessionRetryFetch);
    // asking for it here as well would cost each pull a second session read (a lock) on its way out.
    // The 401 rule for sync calls too: refresh and retry once, then 'Session expired. Please sign in again.'
    // Nothing leaves a tab that has lost the election (checked before every request).
    fetch: async (input, init) => {
      if (!(await leadership.confirm())) throw new DOMException('Another tab syncs now.', 'AbortError');
      return sessionRetryFetch(input, init);
    },
    pendingStore: {
      load: () => readPending(userId),
      save: (ids) => {
        if (keeps()) writePending(userId, ids);
      },
    },
    refusedStore: {
      load: () => readPending(userId, 'refused'),
      save: (ids) => {
        if (keeps()) writePending(userId, ids, 'refused');
      },
    },
    waitForLeadership: false,
    userId,
    pullOnlyByRole: true,
    roleHint: claimedRole(userId),
  };
}

/**
 * Sync resumes when the browser is back online, the window gets focus or becomes visible, and on a
 * Background Sync wake; the view follows the browser's online state. Returns the stop function.
 */
function watchBrowser(resume: () => void): () => void {
  const onOnline = () => {
    patchView({ browserOnline: true });
    resume();
  };
  const onOffline = () => patchView({ browserOnline: false });
  const onVisible = () => {
    if (document.visibilityState === 'visible') resume();
  };
  window.addEventListener('online', onOnline);
  window.addEventListener('offline', onOffline);
  window.addEventListener('focus', resume);
  document.addEventListener('visibilitychange', onVisible);
  const stopWake = onBackgroundSyncWake(resume);
  return () => {
    window.removeEventListener('online', onOnline);
    window.removeEventListener('offline', onOffline);
    window.removeEventListener('focus', resume);
    document.removeEventListener('visibilitychange', onVisible);
    stopWake();
  };
}

/** The role the session says (the sign-up metadata until the profile arrives): a hint, never a reason for pull-only. */
function claimedRole(userId: string): ProfileRole | undefined {
  const user = getSessionManager().getState().user;
  return user?.id.toLowerCase() === userId.toLowerCase() ? user.role : undefined;
}

/** A database only this tab opens (no other tab can share it): this tab replicates from the start. */
function soleTab(onElected: () => void): TabLeadership {
  onElected();
  return { isLeader: true, confirm: () => Promise.resolve(true), stop: () => {} };
}

/** Try the server again now (the Retry of the sync status). */
export function retrySync(): void {
  current?.replication?.reSync();
  current?.channel?.post({ type: 'retry' });
}

/**
 * Local changes not yet accepted by the server (survives reloads: kept in localStorage by the leader
 * tab), and files waiting to upload.
 */
export function pendingChangeCount(): number {
  const view = getSyncView();
  const files = current?.uploadsWaiting ?? 0;
  if (current?.replication && view.role !== 'follower') return current.replication.syncStatus.pendingPush + files;
  return (view.status?.pendingPush ?? 0) + files;
}

/** `pending`: local changes waiting for the server; `refused`: documents kept with a refusal. */
type KeptIds = 'pending' | 'refused';
const pendingStorageKey = (userId: string, what: KeptIds = 'pending') => `pacta.${what}.${userId.toLowerCase()}`;

function readPending(userId: string, what: KeptIds = 'pending'): string[] {
  try {
    const raw = localStorage.getItem(pendingStorageKey(userId, what));
    const parsed: unknown = raw ? JSON.parse(raw) : [];
    return Array.isArray(parsed) ? parsed.filter((v): v is string => typeof v === 'string') : [];
  } catch {
    return [];
  }
}

function writePending(userId: string, ids: string[], what: KeptIds = 'pending'): void {
  try {
    if (ids.length) localStorage.setItem(pendingStorageKey(userId, what), JSON.stringify(ids));
    else localStorage.removeItem(pendingStorageKey(userId, what));
  } catch {
    // Storage full or blocked: the in-memory count still works for this visit.
  }
}

/** Can the server be reached right now? (`/api/health` is never cached by the service worker.) */
async function serverReachable(): Promise<boolean> {
  try {
    const res = await fetch(`${syncServerUrl()}/api/health`, { cache: 'no-store' });
    return res.ok;
  } catch {
    return false;
  }
}

/**
 * Resolves once nothing waits to be pushed. Rejects (with a network TypeError) when the browser has no
 * network, or when a sync request fails and the server cannot be reached either; a single failure right
 * after reconnecting (a dropped first request) does not end the wait. Gives up after `timeoutMs`.
 */
export async function waitForSync(timeoutMs = 20_000): Promise<void> {
  if (!current?.syncing) return;
  if (typeof navigator !== 'undefined' && !navigator.onLine) throw new TypeError('Failed to fetch: offline');
  retrySync();
  let lastSeen = getSyncView().status?.lastError ?? null;
  let probing = false;
  await new Promise<void>((resolve, reject) => {
    let done = false;
    const finish = (err?: Error) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      unsubscribe();
      if (err) reject(err);
      else resolve();
    };
    const check = () => {
      const status = getSyncView().status;
      if (!status) return;
      if (pendingChangeCount() === 0) return finish();
      if (status.lastError && status.lastError !== lastSeen && !status.online && !probing) {
        lastSeen = status.lastError;
        probing = true;
        void serverReachable().then((reachable) => {
          probing = false;
          if (!reachable) finish(new TypeError(`Failed to fetch: ${status.lastError?.message ?? 'offline'}`));
        });
      }
    };
    const unsubscribe = subscribeSyncView(check);
    const timer = setTimeout(() => {
      const reason = getSyncView().status?.lastError?.message;
      finish(new Error(reason ? `${reason}. Please try again.` : 'Sync did not finish. Please try again.'));
    }, timeoutMs);
    check();
  });
}

/**
 * A first sign-in on this device: no local database of the user exists yet, so every collection's
 * first sync will be a stream from the start of the feed. Those streams are opened now, before RxDB
 * opens the database (the replication takes them over, see snapshot-feed.ts): the server reads and
 * sends while the app sets up, instead of after. Collections already on the device are left to the
 * replication, which decides between the stream and a pull.
 */
async function prefetchFirstSync(userId: string): Promise<void> {
  if (typeof indexedDB === 'undefined' || typeof indexedDB.databases !== 'function' || navigator.onLine === false)
    return;
  const prefix = `rxdb-dexie-pacta-${userId.toLowerCase()}--`;
  const stored = (await indexedDB.databases()).map((d) => d.name ?? '').filter((n) => n.startsWith(prefix));
  const serverUrl = syncServerUrl();
  const api = createSyncApi({ serverUrl, fetch: sessionRetryFetch });
  for (const name of COLLECTION_NAMES) {
    if (stored.some((n) => n.endsWith(`--${name}`))) continue;
    prefetchSnapshot(prefetchKey(serverUrl, userId, name, MAX_PULL_LIMIT), (signal) =>
      api.snapshot(name, MAX_PULL_LIMIT, signal),
    );
  }
}

async function closeEntry(entry: Entry): Promise<PactaDatabase | undefined> {
  dropPrefetchedSnapshots();
  entry.stops.forEach((stop) => stop());
  entry.subs.forEach((sub) => sub.unsubscribe());
  entry.channel?.close();
  await entry.replication?.stop().catch(() => {});
  // Released only once this tab's replication has stopped, so two tabs never replicate at once.
  entry.leadership?.stop();
  resetSyncView();
  try {
    return await entry.db;
  } catch {
    return undefined;
  }
}

/** Signed out without deleting (session expired: unsynced changes go out after the next sign-in). */
export function closeUserDatabase(): Promise<void> {
  const entry = current;
  if (!entry) return closing.then(() => {});
  current = undefined;
  const done = closeEntry(entry).then((db) => db?.close());
  closing = done.catch(() => {});
  return done.then(() => {});
}

/** Sign-out: deletes the user's local database (and its record of waiting changes) from this device. */
export function clearUserDatabase(userId: string): Promise<void> {
  const entry = current?.userId === userId ? current : undefined;
  if (entry) current = undefined;
  const done = (async () => {
    await closing.catch(() => {});
    const open = entry ? await closeEntry(entry) : undefined;
    writePending(userId, []);
    writePending(userId, [], 'refused');
    await removeUserUploads(userId).catch(() => {});
    // The worker holds the signed-out user's deals and profiles for scoring: nothing of theirs stays.
    await disposeRecommendationsWorker();
    // Not open in this tab (or it failed to open): open it just to remove it.
    const db = open ?? (await createPactaDatabase({ userId }));
    const name = db.name;
    await db.remove();
    // RxDB's Dexie storage empties its IndexedDB databases but leaves them (named after the user) behind.
    await deleteIndexedDbsStartingWith(`rxdb-dexie-${name}--`);
  })();
  closing = done.catch(() => {});
  return done;
}

/** Deletes every IndexedDB database whose name starts with `prefix` (where the browser can list them). */
async function deleteIndexedDbsStartingWith(prefix: string): Promise<void> {
  if (typeof indexedDB === 'undefined' || typeof indexedDB.databases !== 'function') return;
  const names = (await indexedDB.databases()).map((d) => d.name ?? '').filter((n) => n.startsWith(prefix));
  await Promise.all(
    names.map(
      (n) =>
        new Promise<void>((resolve) => {
          const request = indexedDB.deleteDatabase(n);
          request.onsuccess = request.onerror = () => resolve();
          // Still open in another tab: it is deleted once that tab lets go; do not wait for it here.
          request.onblocked = () => resolve();
        }),
    ),
  );
}
