import { createPactaDatabase, databaseNameFor, startReplication, type PactaDatabase } from './index.ts';
import { getSessionManager, sessionRetryFetch } from '../lib/session/session.ts';
import { syncServerUrl } from '../lib/config.ts';
import { sleep } from '../lib/retry.ts';
import { disposeRecommendationsWorker } from '../lib/recommendations-client.ts';
import { requestBackgroundSync, onBackgroundSyncWake } from './background-sync.ts';
import { getSyncView, resetSyncView, setSyncView, subscribeSyncView } from './sync-view.ts';
import {
  COLLECTION_NAMES,
  MAX_PULL_LIMIT,
  type CollectionName,
  type ProfileRole,
} from '../domain/collections/index.ts';
import { createSyncApi } from './sync-api.ts';
import { dropPrefetchedSnapshots, prefetchKey, prefetchSnapshot } from './snapshot-feed.ts';
import { electTabLeader } from './tab-leadership.ts';
import { browserPort } from './sync/browser-port.ts';
import { SyncEngine } from './sync/sync-engine.ts';
import { runUploadsWhenQueued } from './uploads/run-when-queued.ts';
import { removeUserUploads, watchUploads } from './uploads/upload-store.ts';

/**
 * The one sync engine of this tab (src/db/sync/sync-engine.ts), wired to the real browser, RxDB, the
 * session and the sync server. Everything else reaches the user's local data through these functions.
 */
const browser = browserPort();

/**
 * A warm start shows the device's data before it syncs. Starting the replication (a request per
 * collection, each reading and writing its checkpoint in IndexedDB) beside the first screen's reads
 * made that screen wait: with 10,000 deals on the device, a reload of `/swipe` was usable 0.63 s after
 * the database opened, against 0.20 s with the replication started a second later (decision 052).
 */
const WARM_START_SYNC_PAUSE_MS = 1_000;
/** Users whose data was on this device when this page load opened their database (a warm start). */
const warmStarts = new Set<string>();
/** What the first screens (the dashboard, `/deals`, `/swipe`) show first: deals, the creator's applications to them, the user's name. */
const FIRST_SCREEN: readonly CollectionName[] = ['deals', 'applications', 'profiles'];
/** The longest the first screen's streams are the only ones on a first sign-in (see `prefetchFirstSync`). */
const FIRST_SCREEN_HEAD_START_MS = 500;
/** Users whose first screen's collection was not on this device when this page load opened their database. */
const firstScreenMissing = new Set<string>();
/** Counts the drops of the streams opened early: the rest of a first sign-in's streams open only in the same round. */
let prefetchRound = 0;

const engine = new SyncEngine({
  browser,
  async createDatabase(userId) {
    const stored = await storedCollections(userId).catch((): string[] => []);
    if (stored.length > 0) warmStarts.add(userId);
    if (FIRST_SCREEN.some((name) => !stored.includes(name))) firstScreenMissing.add(userId);
    await prefetchFirstSync(userId, stored).catch(() => {});
    return createPactaDatabase({ userId });
  },
  replicate: (db, userId, hooks) =>
    startReplication(db, {
      serverUrl: syncServerUrl(),
      // No getAccessToken: the fetch below sets the current token on every request (sessionRetryFetch);
      // asking for it here as well would cost each pull a second session read (a lock) on its way out.
      // The 401 rule for sync calls too: refresh and retry once, then 'Session expired. Please sign in again.'
      // Nothing leaves a tab that has lost the election (checked before every request).
      fetch: async (input, init) => {
        if (!(await hooks.mayFetch())) throw new DOMException('Another tab syncs now.', 'AbortError');
        return sessionRetryFetch(input, init);
      },
      pendingStore: hooks.pendingStore,
      refusedStore: hooks.refusedStore,
      waitForLeadership: false,
      userId,
      pullOnlyByRole: true,
      ...sessionRoles(userId),
      // Once per page load: a tab taking over later starts at once.
      startAfter: warmStarts.delete(userId) ? sleep(WARM_START_SYNC_PAUSE_MS) : undefined,
      startFirst: firstScreenMissing.delete(userId) ? FIRST_SCREEN : undefined,
    }),
  electLeader: (name, hooks) => electTabLeader(name, hooks, { openBroadcast: browser.openBroadcast }),
  runUploads: runUploadsWhenQueued,
  watchUploadCount(userId, onCount) {
    const sub = watchUploads(userId).subscribe((jobs) => onCount(jobs.length));
    return () => sub.unsubscribe();
  },
  onSignedOut(handler) {
    const sessionManager = getSessionManager();
    return sessionManager.subscribe(() => {
      if (sessionManager.getState().status === 'signed_out') handler();
    });
  },
  backgroundSync: { request: () => void requestBackgroundSync(), onWake: onBackgroundSyncWake },
  serverReachable,
  removeUserData,
  dropPrefetched() {
    prefetchRound++;
    dropPrefetchedSnapshots();
  },
  view: { get: getSyncView, patch: setSyncView, reset: resetSyncView, subscribe: subscribeSyncView },
});

/** Whether this page load found the first screen's data of `userId` on the device (known once their database opened). */
export const holdsFirstScreen = (userId: string): boolean => !firstScreenMissing.has(userId);

export const {
  openUserDatabase,
  startUserSync,
  closeUserDatabase,
  clearUserDatabase,
  retrySync,
  pendingChangeCount,
  waitForSync,
  phase: enginePhase,
  subscribe: subscribeEnginePhase,
} = engine;

/**
 * The roles the session says for `userId`: `roleHint`, the sign-up metadata until the profile arrives (a
 * hint, never a reason for pull-only); `serverRole`, only when the server decided it (app_metadata, or
 * the profile on this device).
 */
function sessionRoles(userId: string): { roleHint?: ProfileRole; serverRole?: ProfileRole } {
  const user = getSessionManager().getState().user;
  if (user?.id.toLowerCase() !== userId.toLowerCase()) return {};
  return { roleHint: user.role, serverRole: user.roleKnown ? user.role : undefined };
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
 * A first sign-in on this device: no local database of the user exists yet, so every collection's
 * first sync will be a stream from the start of the feed. Those streams are opened now, before RxDB
 * opens the database (the replication takes them over, see snapshot-feed.ts): the server reads and
 * sends while the app sets up, instead of after. Collections already on the device are left to the
 * replication, which decides between the stream and a pull.
 *
 * The first screen's collections go first, until their first pages arrive or
 * FIRST_SCREEN_HEAD_START_MS pass: with thirteen streams opened together, sharing the server and the
 * browser's connections, the deals' first page arrived 0.6 to 0.9 s after its request; opened first,
 * 0.3 to 0.5 s.
 */
async function prefetchFirstSync(userId: string, stored: readonly string[]): Promise<void> {
  if (typeof indexedDB === 'undefined' || typeof indexedDB.databases !== 'function' || !browser.online()) return;
  const serverUrl = syncServerUrl();
  const api = createSyncApi({ serverUrl, fetch: sessionRetryFetch });
  const open = (name: CollectionName) =>
    prefetchSnapshot(prefetchKey(serverUrl, userId, name, MAX_PULL_LIMIT), (signal) =>
      api.snapshot(name, MAX_PULL_LIMIT, signal),
    );
  const missing = COLLECTION_NAMES.filter((name) => !stored.includes(name));
  const first = missing.filter((name) => FIRST_SCREEN.includes(name));
  const round = prefetchRound;
  const firstPages = Promise.all(first.map(open));
  void Promise.race([firstPages, sleep(FIRST_SCREEN_HEAD_START_MS)]).then(() => {
    if (round !== prefetchRound) return;
    for (const name of missing) if (!first.includes(name)) void open(name);
  });
}

/** The user's collections whose IndexedDB database is on this device (none where the browser cannot list them). */
async function storedCollections(userId: string): Promise<string[]> {
  if (typeof indexedDB === 'undefined' || typeof indexedDB.databases !== 'function') return [];
  const prefix = storagePrefix(userId);
  const stored = (await indexedDB.databases()).map((d) => d.name ?? '').filter((n) => n.startsWith(prefix));
  return COLLECTION_NAMES.filter((name) => stored.some((n) => n.endsWith(`--${name}`)));
}

/** Sign-out: the user's queued files, the scoring worker's copy and the database itself leave the device. */
async function removeUserData(userId: string, open: PactaDatabase | undefined): Promise<void> {
  await removeUserUploads(userId).catch(() => {});
  // The worker holds the signed-out user's deals and profiles for scoring: nothing of theirs stays.
  await disposeRecommendationsWorker();
  try {
    // Not open in this tab (or it failed to open): open it just to remove it.
    const db = open ?? (await createPactaDatabase({ userId }));
    await db.remove();
  } finally {
    // RxDB's Dexie storage empties its IndexedDB databases but leaves them (named after the user) behind;
    // and where its removal failed (the database closed under it), nothing of the user's may stay either.
    await deleteIndexedDbsStartingWith(storagePrefix(userId));
  }
}

/** The start of the names of a user's IndexedDB databases (RxDB's Dexie storage, one per collection and store). */
function storagePrefix(userId: string): string {
  return `rxdb-dexie-${databaseNameFor(userId)}--`;
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
