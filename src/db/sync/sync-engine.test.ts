import { BehaviorSubject } from 'rxjs';
import { expect, test, vi } from 'vitest';
import type { PactaDatabase } from '../create-database.ts';
import type { PactaReplication } from '../replication.ts';
import type { SyncStatus } from '../sync-status.ts';
import type { LocalSyncView } from '../sync-view.ts';
import type { BrowserPort } from './browser-port.ts';
import { SyncEngine, type ReplicationHooks, type SyncEngineDeps } from './sync-engine.ts';
import { inMemoryBroadcast } from './in-memory-broadcast.ts';

const STATUS: SyncStatus = {
  online: true,
  streaming: true,
  pendingPush: 0,
  lastSyncedAt: null,
  initialSync: { done: 0, total: 1, complete: false },
  lastError: null,
  rejected: [],
};

type FakeReplication = PactaReplication & { status$: BehaviorSubject<SyncStatus>; hooks: ReplicationHooks };

/** One tab: a browser whose events the test fires, a database, replications it can inspect. */
function tab(opts: {
  bus?: ReturnType<typeof inMemoryBroadcast>;
  multiInstance?: boolean;
  storage?: Map<string, string>;
  online?: () => boolean;
}) {
  const handlers = new Map<string, Set<() => void>>();
  const on = (type: string, handler: () => void) => {
    const set = handlers.get(type) ?? new Set();
    handlers.set(type, set);
    set.add(handler);
    return () => set.delete(handler);
  };
  const fire = (type: string) => handlers.get(type)?.forEach((h) => h());
  const storage = opts.storage ?? new Map<string, string>();
  const browser: BrowserPort = {
    online: opts.online ?? (() => true),
    onWindow: on,
    onVisible: (h) => on('visible', h),
    hasLocks: () => true,
    openBroadcast: opts.bus ?? inMemoryBroadcast(),
    storage: () => ({
      getItem: (k) => storage.get(k) ?? null,
      setItem: (k, v) => void storage.set(k, v),
      removeItem: (k) => void storage.delete(k),
    }),
  };
  const db = { multiInstance: opts.multiInstance ?? true, name: 'pacta-u1', close: vi.fn(async () => true) };
  const replications: FakeReplication[] = [];
  const election = { onElected: () => {}, onYield: () => {}, stop: vi.fn() };
  let view: LocalSyncView = { role: 'none', status: null, browserOnline: true };
  const viewListeners = new Set<() => void>();
  const signedOut = new Set<() => void>();
  let backgroundSyncRequests = 0;
  const deps: SyncEngineDeps = {
    browser,
    createDatabase: vi.fn(async () => db as unknown as PactaDatabase),
    replicate(_db, _userId, hooks) {
      const status$ = new BehaviorSubject(STATUS);
      const replication = {
        status$,
        hooks,
        syncStatus$: status$,
        get syncStatus() {
          return status$.value;
        },
        reSync: vi.fn(),
        stop: vi.fn(async () => {}),
      } as unknown as FakeReplication;
      replications.push(replication);
      return replication;
    },
    electLeader(_name, hooks) {
      Object.assign(election, hooks);
      return { isLeader: false, confirm: async () => true, stop: election.stop };
    },
    runUploads: () => () => {},
    watchUploadCount: () => () => {},
    onSignedOut: (h) => (signedOut.add(h), () => signedOut.delete(h)),
    backgroundSync: { request: () => void backgroundSyncRequests++, onWake: (h) => on('wake', h) },
    serverReachable: async () => true,
    removeUserData: vi.fn(async () => {}),
    dropPrefetched: () => {},
    view: {
      get: () => view,
      patch: (patch) => {
        view = { ...view, ...patch };
        viewListeners.forEach((l) => l());
      },
      reset: () => (view = { role: 'none', status: null, browserOnline: true }),
      subscribe: (l) => (viewListeners.add(l), () => viewListeners.delete(l)),
    },
  };
  const engine = new SyncEngine(deps);
  return {
    engine,
    deps,
    db,
    fire,
    replications,
    election,
    storage,
    view: () => view,
    signOut: () => signedOut.forEach((h) => h()),
    backgroundSyncRequests: () => backgroundSyncRequests,
  };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

test('a sole tab opens the database, replicates at once and shows its own status', async () => {
  const t = tab({ multiInstance: false });
  const phases: string[] = [];
  t.engine.subscribe(() => phases.push(t.engine.phase().phase));
  await t.engine.startUserSync('u1');
  await settle();
  expect(t.engine.phase()).toEqual({ phase: 'ready', userId: 'u1', role: 'leader' });
  expect(phases).toEqual(['opening', 'ready', 'ready']);
  expect(t.replications).toHaveLength(1);
  t.replications[0]!.status$.next({ ...STATUS, pendingPush: 2 });
  expect(t.view()).toMatchObject({ role: 'leader', status: { pendingPush: 2 } });
  expect(t.engine.pendingChangeCount()).toBe(2);
  // Starting again (a re-render) starts nothing twice.
  await t.engine.startUserSync('u1');
  expect(t.replications).toHaveLength(1);
});

test('changes waiting while the server cannot be reached ask for Background Sync only while the browser is offline', async () => {
  let browserOnline = false;
  const t = tab({ multiInstance: false, online: () => browserOnline });
  await t.engine.startUserSync('u1');
  await settle();
  const replication = t.replications[0]!;
  replication.status$.next({ ...STATUS, online: false, pendingPush: 1 });
  expect(t.backgroundSyncRequests()).toBe(1);
  // The browser has a connection, the server still cannot be reached. Background Sync would wake
  // the page at once, and each wake restarts the change stream: asking again would loop.
  browserOnline = true;
  t.fire('wake');
  expect(replication.reSync).toHaveBeenCalledTimes(1);
  replication.status$.next({ ...STATUS, online: false, pendingPush: 1, streaming: false });
  expect(t.backgroundSyncRequests()).toBe(1);
});

test('a follower tab shows the leader’s status, and its Retry makes the leader pull', async () => {
  const bus = inMemoryBroadcast();
  const leader = tab({ bus });
  const follower = tab({ bus });
  await leader.engine.startUserSync('u1');
  leader.election.onElected();
  await settle();
  await follower.engine.startUserSync('u1');
  expect(follower.engine.phase()).toEqual({ phase: 'ready', userId: 'u1', role: 'follower' });
  // The follower's hello was answered with the leader's status.
  expect(follower.view()).toMatchObject({ role: 'follower', status: { pendingPush: 0 } });
  leader.replications[0]!.status$.next({ ...STATUS, pendingPush: 3 });
  expect(follower.view().status?.pendingPush).toBe(3);
  expect(follower.engine.pendingChangeCount()).toBe(3);

  follower.engine.retrySync();
  expect(leader.replications[0]!.reSync).toHaveBeenCalledTimes(1);
  expect(follower.replications).toHaveLength(0);
});

test('a tab that loses the election stops replicating first; elected again, it starts a new replication', async () => {
  const t = tab({});
  await t.engine.startUserSync('u1');
  t.election.onElected();
  await settle();
  const first = t.replications[0]!;
  t.election.onYield();
  expect(first.stop).toHaveBeenCalledTimes(1);
  expect(t.engine.phase()).toEqual({ phase: 'ready', userId: 'u1', role: 'follower' });
  expect(t.view().role).toBe('follower');
  // Its kept ids are no longer its to write.
  first.hooks.pendingStore.save(['d1']);
  expect(t.storage.size).toBe(0);

  t.election.onElected();
  await settle();
  expect(t.replications).toHaveLength(2);
  t.replications[1]!.hooks.pendingStore.save(['d1']);
  expect(t.replications[1]!.hooks.pendingStore.load()).toEqual(['d1']);
});

test('online, focus, visibility and Background Sync make the leader try the server; a follower does not', async () => {
  const t = tab({});
  await t.engine.startUserSync('u1');
  t.election.onElected();
  await settle();
  const replication = t.replications[0]!;
  for (const event of ['online', 'focus', 'visible', 'wake']) t.fire(event);
  expect(replication.reSync).toHaveBeenCalledTimes(4);
  t.fire('offline');
  expect(t.view().browserOnline).toBe(false);
  t.election.onYield();
  t.fire('online');
  expect(replication.reSync).toHaveBeenCalledTimes(4);
  expect(t.view().browserOnline).toBe(true);
});

test('the session ending closes the database: replication stopped before the election is left', async () => {
  const t = tab({});
  await t.engine.startUserSync('u1');
  t.election.onElected();
  await settle();
  const order: string[] = [];
  t.replications[0]!.stop = vi.fn(async () => void order.push('replication stopped'));
  t.election.stop.mockImplementation(() => void order.push('election left'));
  t.signOut();
  expect(t.engine.phase()).toEqual({ phase: 'closing', userId: 'u1' });
  await settle();
  expect(order).toEqual(['replication stopped', 'election left']);
  expect(t.db.close).toHaveBeenCalledTimes(1);
  expect(t.engine.phase()).toEqual({ phase: 'closed' });
  // Events after the close reach nothing.
  t.fire('online');
  expect(t.replications[0]!.reSync).not.toHaveBeenCalled();
});

test('the session ending closes a database opened before sync started (the profile read at sign-in)', async () => {
  const t = tab({});
  await t.engine.openUserDatabase('u1');
  await settle();
  expect(t.engine.phase()).toMatchObject({ phase: 'ready', userId: 'u1' });
  t.signOut();
  await settle();
  expect(t.db.close).toHaveBeenCalledTimes(1);
  expect(t.engine.phase()).toEqual({ phase: 'closed' });
});

test('signing out deletes the database and the record of waiting changes', async () => {
  const t = tab({ multiInstance: false });
  await t.engine.startUserSync('u1');
  await settle();
  t.replications[0]!.hooks.pendingStore.save(['d1']);
  t.replications[0]!.hooks.refusedStore.save(['d2']);
  expect([...t.storage.keys()].sort()).toEqual(['pacta.pending.u1', 'pacta.refused.u1']);
  const cleared = t.engine.clearUserDatabase('u1');
  expect(t.engine.phase()).toEqual({ phase: 'deleting', userId: 'u1' });
  await cleared;
  expect(t.storage.size).toBe(0);
  expect(t.deps.removeUserData).toHaveBeenCalledWith('u1', t.db);
  expect(t.engine.phase()).toEqual({ phase: 'closed' });
});

test('a failed open does not stick: the next open tries again', async () => {
  const t = tab({});
  const create = vi.mocked(t.deps.createDatabase);
  create.mockRejectedValueOnce(new Error('QuotaExceededError'));
  await expect(t.engine.openUserDatabase('u1')).rejects.toThrow('QuotaExceededError');
  await settle();
  expect(t.engine.phase()).toEqual({ phase: 'closed' });
  await expect(t.engine.openUserDatabase('u1')).resolves.toBe(t.db);
  expect(create).toHaveBeenCalledTimes(2);
});
