import { randomUUID } from 'node:crypto';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { getRxStorageDexie } from 'rxdb/plugins/storage-dexie';
import { vi } from 'vitest';
import { createPactaDatabase, type PactaDatabase } from './create-database.ts';

/** For unit tests: a new user's database on an in-memory IndexedDB, in this realm only. */
export function openUnitDatabase(): Promise<PactaDatabase> {
  vi.spyOn(console, 'warn').mockImplementation(() => {}); // RxDB's open-core storage notice
  return createPactaDatabase({
    userId: randomUUID(),
    name: `unit-${randomUUID()}`,
    storage: getRxStorageDexie({ indexedDB: new IDBFactory(), IDBKeyRange }),
    multiInstance: false,
  });
}
