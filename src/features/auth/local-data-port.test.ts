import { expect, test, vi } from 'vitest';
import { createLocalDataPort, type LocalDatabaseLike } from './local-data-port.ts';

function fakeDatabase(profile: Record<string, unknown> | null) {
  const listeners: ((doc: { toJSON(): unknown } | null) => void)[] = [];
  const doc = (value: Record<string, unknown> | null) => (value ? { toJSON: () => value } : null);
  const db: LocalDatabaseLike = {
    collections: {
      profiles: {
        findOne: () => ({
          exec: async () => doc(profile),
          $: {
            subscribe(next) {
              listeners.push(next);
              return { unsubscribe: () => listeners.splice(listeners.indexOf(next), 1) };
            },
          },
        }),
      },
    },
    remove: vi.fn(async () => []),
  };
  return { db, emit: (value: Record<string, unknown> | null) => listeners.forEach((l) => l(doc(value))), listeners };
}

test('reads and watches the profile from the local database', async () => {
  const { db, emit, listeners } = fakeDatabase({ id: 'u1', role: 'brand', full_name: 'Bea' });
  const port = createLocalDataPort(db);
  expect(await port.loadProfile!('u1')).toEqual({ id: 'u1', role: 'brand', full_name: 'Bea' });
  const seen: unknown[] = [];
  const stop = port.watchProfile!('u1', (p) => seen.push(p));
  emit({ id: 'u1', role: 'brand', full_name: 'Bea Renamed' });
  expect(seen).toEqual([{ id: 'u1', role: 'brand', full_name: 'Bea Renamed' }]);
  stop();
  expect(listeners).toHaveLength(0);
});

test('a profile that has not synced yet is null', async () => {
  const port = createLocalDataPort(fakeDatabase(null).db);
  expect(await port.loadProfile!('u1')).toBeNull();
});

test('pending changes and waiting for sync come from the replication; sign-out removes the database', async () => {
  const { db } = fakeDatabase(null);
  const awaitInSync = vi.fn(async () => {});
  const port = createLocalDataPort(db, { syncStatus: { pendingPush: 4 }, awaitInSync });
  expect(await port.pendingChanges!()).toBe(4);
  await port.waitForSync!();
  expect(awaitInSync).toHaveBeenCalled();
  await port.clearUserData!('u1');
  expect(db.remove).toHaveBeenCalled();
});

test('without a replication in this tab nothing is pending', async () => {
  const port = createLocalDataPort(fakeDatabase(null).db);
  expect(await port.pendingChanges!()).toBe(0);
});
