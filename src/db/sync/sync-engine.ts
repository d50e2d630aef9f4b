import type { Subscription } from 'rxjs';
import type { PactaDatabase } from '../create-database.ts';
import type { PactaReplication } from '../replication.ts';
import type { SyncStatus } from '../sync-status.ts';
import type { LocalSyncView } from '../sync-view.ts';
import type { TabLeadership } from '../tab-leadership.ts';
import type { BrowserPort } from './browser-port.ts';
import { CLOSED, nextEnginePhase, type EngineEvent, type EnginePhase } from './engine-state.ts';
import { markBoot } from '../../lib/boot-marks.ts';
import { readKeptIds, writeKeptIds, type KeptIds } from './kept-ids.ts';
import { openTabChannel, parseSyncTabMessage, type SyncTabMessage, type TabChannel } from './tab-channel.ts';

/** Ids kept across reloads for the replication (see kept-ids.ts). */
export type KeptIdStore = { load(): string[]; save(ids: string[]): void };

/** What a replication this engine starts may do, decided by the engine. */
export type ReplicationHooks = {
  /** False once this tab lost the election: nothing may leave it then. */
  mayFetch(): Promise<boolean>;
  pendingStore: KeptIdStore;
  refusedStore: KeptIdStore;
};

/** Everything the engine needs from outside; the app passes the real ones (local-data-manager.ts). */
export type SyncEngineDeps = {
  browser: BrowserPort;
  /** Creates or opens the user's database (a first sign-in may start fetching first). */
  createDatabase(userId: string): Promise<PactaDatabase>;
  replicate(db: PactaDatabase, userId: string, hooks: ReplicationHooks): PactaReplication;
  /** Elects the one tab of this user that replicates (Web Locks); called only where they exist. */
  electLeader(userId: string, hooks: { onElected(): void; onYield(): void }): TabLeadership;
  /** Sends the files picked on this device; returns the stop. */
  runUploads(db: PactaDatabase, userId: string): () => void;
  /** Reports how many files wait to upload (any tab's); returns the unsubscribe. */
  watchUploadCount(userId: string, onCount: (count: number) => void): () => void;
  /** Calls `handler` when the session ends; returns the unsubscribe. */
  onSignedOut(handler: () => void): () => void;
  backgroundSync: { request(): void; onWake(handler: () => void): () => void };
  /** Can the sync server be reached right now? */
  serverReachable(): Promise<boolean>;
  /** Removes the user's database and whatever else of theirs the device keeps (queued files…). */
  removeUserData(userId: string, open: PactaDatabase | undefined): Promise<void>;
  /** Forgets first-sync streams opened early for a user. */
  dropPrefetched(): void;
  view: {
    get(): LocalSyncView;
    patch(patch: Partial<LocalSyncView>): void;
    reset(): void;
    subscribe(listener: () => void): () => void;
  };
};

type Entry = {
  userId: string;
  db: Promise<PactaDatabase>;
  replication?: PactaReplication;
  replicationSub?: Subscription;
  /** The stopping of a replication this tab ran before it lost the election. */
  stopping: Promise<void>;
  leader: boolean;
  stops: (() => void)[];
  /** Files picked on this device that the server does not hold yet (any tab's). */
  uploadsWaiting: number;
  stopUploads?: () => void;
  channel?: TabChannel<SyncTabMessage>;
  /** startUserSync ran for this entry (whether or not this tab is the one replicating). */
  syncing: boolean;
  leadership?: TabLeadership;
};

/**
 * The signed-in user's local data in this tab, kept outside React: one database per user, opened once
 * and shared by every screen; it alone opens, closes and deletes it (the phases of engine-state.ts).
 * Replication runs in the elected leader tab only; the leader tells the other tabs its sync status.
 * Its public members are bound functions, so callers may pass them around on their own.
 */
export class SyncEngine {
  private current: Entry | undefined;
  /** A close or delete in progress: the next open of the same database waits for it. */
  private closing: Promise<unknown> = Promise.resolve();
  private state: EnginePhase = CLOSED;
  private readonly listeners = new Set<() => void>();

  constructor(private readonly deps: SyncEngineDeps) {}

  /** Where the database is in its lifecycle (engine-state.ts). */
  phase = (): EnginePhase => this.state;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** Opens (once) the user's database; another user's database in this tab is closed first. */
  openUserDatabase = (userId: string): Promise<PactaDatabase> => {
    if (this.current?.userId === userId) return this.current.db;
    markBoot('database-opening');
    const previous = this.current;
    if (previous) this.move({ type: 'close', userId: previous.userId });
    this.move({ type: 'open', userId });
    const db = (async () => {
      if (previous) await this.closeEntry(previous).then((open) => open?.close());
      await this.closing.catch(() => {});
      return this.deps.createDatabase(userId);
    })();
    const entry: Entry = {
      userId,
      db,
      stopping: Promise.resolve(),
      leader: false,
      stops: [],
      uploadsWaiting: 0,
      syncing: false,
    };
    this.current = entry;
    // From the open on, not only once syncing: a database opened for the profile alone closes too.
    entry.stops.push(this.watchSession(entry));
    db.then(
      () => {
        markBoot('database-open');
        if (this.isCurrent(entry)) this.move({ type: 'opened', userId });
      },
      () => {
        // A failed open must not stick: the next call tries again.
        if (!this.isCurrent(entry)) return;
        this.current = undefined;
        this.move({ type: 'open_failed', userId });
      },
    );
    return db;
  };

  /**
   * Starts replication for the signed-in user (idempotent). Every tab takes part in the election; only
   * the elected tab replicates, and a tab that loses it (it was frozen and another took over) stops.
   * Sync resumes on `online`, focus, visibility and Background Sync.
   */
  startUserSync = async (userId: string): Promise<void> => {
    const db = await this.openUserDatabase(userId);
    const entry = this.current;
    if (!entry || entry.userId !== userId || entry.syncing) return;
    entry.syncing = true;
    const { browser } = this.deps;
    entry.channel = openTabChannel(`pacta-sync-status-${userId}`, parseSyncTabMessage, browser.openBroadcast);
    this.listenToOtherTabs(entry, entry.channel);
    const hooks = { onElected: () => this.lead(entry, db), onYield: () => this.follow(entry) };
    entry.leadership =
      db.multiInstance && browser.hasLocks()
        ? this.deps.electLeader(userId.toLowerCase(), hooks)
        : soleTab(hooks.onElected);
    entry.stops.push(this.watchResumes(entry), () => entry.replicationSub?.unsubscribe());
    entry.stops.push(this.deps.watchUploadCount(userId, (count) => (entry.uploadsWaiting = count)));
  };

  /** Signed out without deleting (session expired: unsynced changes go out after the next sign-in). */
  closeUserDatabase = (): Promise<void> => {
    const entry = this.current;
    if (!entry) return this.closing.then(() => {});
    this.current = undefined;
    this.move({ type: 'close', userId: entry.userId });
    const done = this.closeEntry(entry)
      .then((db) => db?.close())
      .finally(() => this.move({ type: 'closed', userId: entry.userId }));
    this.closing = done.catch(() => {});
    return done.then(() => {});
  };

  /** Sign-out: deletes the user's local database (and its record of waiting changes) from this device. */
  clearUserDatabase = (userId: string): Promise<void> => {
    const entry = this.current?.userId === userId ? this.current : undefined;
    if (entry) this.current = undefined;
    this.move({ type: 'delete', userId });
    const { browser } = this.deps;
    const done = (async () => {
      await this.closing.catch(() => {});
      const open = entry ? await this.closeEntry(entry) : undefined;
      writeKeptIds(browser.storage(), userId, 'pending', []);
      writeKeptIds(browser.storage(), userId, 'refused', []);
      await this.deps.removeUserData(userId, open);
    })().finally(() => this.move({ type: 'closed', userId }));
    this.closing = done.catch(() => {});
    return done;
  };

  /** Try the server again now (the Retry of the sync status). */
  retrySync = (): void => {
    this.current?.replication?.reSync();
    this.current?.channel?.post({ type: 'retry' });
  };

  /** Local changes not yet accepted by the server (the leader's count, kept across reloads), and files waiting. */
  pendingChangeCount = (): number => {
    const { view } = this.deps;
    const files = this.current?.uploadsWaiting ?? 0;
    if (this.current?.replication && view.get().role !== 'follower')
      return this.current.replication.syncStatus.pendingPush + files;
    return (view.get().status?.pendingPush ?? 0) + files;
  };

  waitForSync = (timeoutMs?: number): Promise<void> =>
    waitForSync(
      {
        syncing: Boolean(this.current?.syncing),
        retrySync: this.retrySync,
        pendingChangeCount: this.pendingChangeCount,
        deps: this.deps,
      },
      timeoutMs,
    );

  private move(event: EngineEvent) {
    const next = nextEnginePhase(this.state, event);
    if (next === this.state) return;
    this.state = next;
    for (const listener of this.listeners) listener();
  }

  private isCurrent(entry: Entry) {
    return this.current === entry;
  }

  /** The leader publishes its status to this tab's view and to the others. */
  private publish(entry: Entry, status: SyncStatus) {
    if (!entry.leader) return;
    this.deps.view.patch({ role: 'leader', status });
    entry.channel?.post({ type: 'status', status });
    // Only while the browser itself is offline: Background Sync wakes the pages once it sees a
    // connection, which, when it already has one (the server is what cannot be reached), is at once.
    // Each wake resyncs, restarting the change stream before it can report the server reachable, and
    // asks again: the stream reconnected in a loop until the server refused more streams.
    if (status.pendingPush > 0 && !status.online && !this.deps.browser.online()) this.deps.backgroundSync.request();
  }

  private listenToOtherTabs(entry: Entry, channel: TabChannel<SyncTabMessage>) {
    channel.onMessage((message) => {
      if (message.type === 'status' && !entry.leader)
        this.deps.view.patch({ role: 'follower', status: message.status });
      if (message.type === 'hello' && entry.leader && entry.replication)
        this.publish(entry, entry.replication.syncStatus);
      if (message.type === 'retry' && entry.leader) entry.replication?.reSync();
    });
    channel.post({ type: 'hello' });
  }

  /** This tab was elected: it replicates and sends the queued files (so a file is never sent twice). */
  private lead(entry: Entry, db: PactaDatabase) {
    if (!this.isCurrent(entry)) return;
    entry.leader = true;
    this.move({ type: 'elected', userId: entry.userId });
    // A replication this tab ran before it was frozen finishes stopping first.
    void entry.stopping.then(() => {
      if (!entry.leader || !this.isCurrent(entry) || entry.replication) return;
      const replication = this.deps.replicate(db, entry.userId, {
        mayFetch: () => entry.leadership?.confirm() ?? Promise.resolve(true),
        pendingStore: this.keptIdStore(entry, 'pending'),
        refusedStore: this.keptIdStore(entry, 'refused'),
      });
      entry.replication = replication;
      markBoot('replication-started');
      entry.replicationSub = replication.syncStatus$.subscribe((status) => this.publish(entry, status));
      entry.stopUploads = this.deps.runUploads(db, entry.userId);
    });
  }

  /** Only the leader writes down what waits for the server. */
  private keptIdStore(entry: Entry, what: KeptIds): KeptIdStore {
    const { browser } = this.deps;
    return {
      load: () => readKeptIds(browser.storage(), entry.userId, what),
      save: (ids) => {
        if (entry.leader && this.isCurrent(entry)) writeKeptIds(browser.storage(), entry.userId, what, ids);
      },
    };
  }

  /** Another tab took over: this one stops replicating and shows the leader's status. */
  private follow(entry: Entry) {
    entry.leader = false;
    this.move({ type: 'yielded', userId: entry.userId });
    entry.stopUploads?.();
    entry.stopUploads = undefined;
    entry.replicationSub?.unsubscribe();
    const replication = entry.replication;
    entry.replication = undefined;
    entry.stopping = replication?.stop().catch(() => {}) ?? Promise.resolve();
    this.deps.view.patch({ role: 'follower' });
    entry.channel?.post({ type: 'hello' });
  }

  /** Back online, focused, visible or woken by Background Sync: the leader tries the server at once. */
  private watchResumes(entry: Entry): () => void {
    const { browser, view, backgroundSync } = this.deps;
    const resume = () => {
      if (entry.leader && this.isCurrent(entry)) entry.replication?.reSync();
    };
    const stops = [
      browser.onWindow('online', () => {
        view.patch({ browserOnline: true });
        resume();
      }),
      browser.onWindow('offline', () => view.patch({ browserOnline: false })),
      browser.onWindow('focus', resume),
      browser.onVisible(resume),
      backgroundSync.onWake(resume),
    ];
    return () => stops.forEach((stop) => stop());
  }

  /**
   * The moment the session ends, stop syncing (before React re-renders): no request may go out with a
   * token the server has just revoked.
   */
  private watchSession(entry: Entry): () => void {
    return this.deps.onSignedOut(() => {
      if (this.isCurrent(entry)) void this.closeUserDatabase();
    });
  }

  private async closeEntry(entry: Entry): Promise<PactaDatabase | undefined> {
    this.deps.dropPrefetched();
    entry.stops.forEach((stop) => stop());
    entry.stopUploads?.();
    entry.channel?.close();
    await entry.replication?.stop().catch(() => {});
    // Released only once this tab's replication has stopped, so two tabs never replicate at once.
    entry.leadership?.stop();
    this.deps.view.reset();
    try {
      return await entry.db;
    } catch {
      return undefined;
    }
  }
}

/** A database only this tab opens (no other tab can share it): this tab replicates from the start. */
function soleTab(onElected: () => void): TabLeadership {
  onElected();
  return { isLeader: true, confirm: () => Promise.resolve(true), stop: () => {} };
}

type SyncWait = {
  syncing: boolean;
  retrySync(): void;
  pendingChangeCount(): number;
  deps: Pick<SyncEngineDeps, 'browser' | 'view' | 'serverReachable'>;
};

/**
 * Resolves once nothing waits to be pushed. Rejects (with a network TypeError) when the browser has no
 * network, or when a sync request fails and the server cannot be reached either; a single failure right
 * after reconnecting (a dropped first request) does not end the wait. Gives up after `timeoutMs`.
 */
async function waitForSync({ syncing, retrySync, pendingChangeCount, deps }: SyncWait, timeoutMs = 20_000) {
  const { view } = deps;
  if (!syncing) return;
  if (!deps.browser.online()) throw new TypeError('Failed to fetch: offline');
  retrySync();
  let lastSeen = view.get().status?.lastError ?? null;
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
      const status = view.get().status;
      if (!status) return;
      if (pendingChangeCount() === 0) return finish();
      if (status.lastError && status.lastError !== lastSeen && !status.online && !probing) {
        lastSeen = status.lastError;
        probing = true;
        void deps.serverReachable().then((reachable) => {
          probing = false;
          if (!reachable) finish(new TypeError(`Failed to fetch: ${status.lastError?.message ?? 'offline'}`));
        });
      }
    };
    const unsubscribe = view.subscribe(check);
    const timer = setTimeout(() => {
      const reason = view.get().status?.lastError?.message;
      finish(new Error(reason ? `${reason}. Please try again.` : 'Sync did not finish. Please try again.'));
    }, timeoutMs);
    check();
  });
}
