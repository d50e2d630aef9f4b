import { randomUUID } from 'node:crypto';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { createRxDatabase, type RxCollection, type RxDatabase, type RxStorage } from 'rxdb';
import { getRxStorageDexie } from 'rxdb/plugins/storage-dexie';
import { afterEach, expect, test, vi } from 'vitest';
import {
  collectionSpecs,
  dealDocument,
  NO_LAST_DAY,
  OPEN_UNTIL,
  type CollectionSpec,
} from '../domain/collections/index.ts';
import { addPactaPlugins, createPactaDatabase } from './create-database.ts';
import { NEWEST_FIRST_SORT, newestFirstKey, withNewestFirstKeys } from './newest-first.ts';
import { rxSchemaFor } from './rx-schema.ts';
import { migrationStrategiesFor } from './schema-migration.ts';

const closing: { close(): Promise<unknown> }[] = [];
afterEach(async () => {
  await Promise.all(closing.splice(0).map((db) => db.close()));
});

const deal = (title: string, createdAt?: string) =>
  dealDocument.parse({
    id: randomUUID(),
    brand_id: randomUUID(),
    title,
    description: 'd',
    amount_cents: 100,
    niches: [],
    ...(createdAt ? { created_at: createdAt } : {}),
  });

test('the key orders newest first to the microsecond Postgres stamps', () => {
  const keys = [
    '2026-11-23T08:29:19.123456+00:00',
    '2026-11-23T08:29:19.123457+00:00',
    '2026-11-23T08:29:20Z',
    '2026-11-23T09:29:19.5+01:00',
  ].map(newestFirstKey);
  expect(keys[1]).toBeLessThan(keys[0]!);
  expect(keys[2]).toBeLessThan(keys[1]!);
  // The same instant in another zone, half a second later.
  expect(keys[3]).toBe(keys[0]! - 376_544);
  expect(Number.isSafeInteger(keys[0])).toBe(true);
});

test('every write gets the key; a document written without created_at gets "now" and lists first', async () => {
  vi.spyOn(console, 'warn').mockImplementation(() => {});
  const db = await createPactaDatabase({
    userId: randomUUID(),
    storage: getRxStorageDexie({ indexedDB: new IDBFactory(), IDBKeyRange }),
    collections: ['deals'],
    multiInstance: false,
  });
  closing.push(db);
  await db.deals.bulkInsert([deal('old', '2026-01-01T00:00:00Z'), deal('older', '2025-01-01T00:00:00Z')]);
  const { created_at: _dropped, ...unstamped } = deal('new');
  await db.deals.insert(unstamped as typeof unstamped & { created_at: string });
  const newest = await db.deals.find({ sort: NEWEST_FIRST_SORT, limit: 2 }).exec();
  expect(newest.map((d) => d.title)).toEqual(['new', 'old']);
  expect(newest[0]!.created_at).toMatch(/^\d{4}-/);
  // A change keeps the key (created_at never changes on the device).
  await newest[1]!.incrementalPatch({ title: 'old, edited' });
  expect((await db.deals.find({ sort: NEWEST_FIRST_SORT }).exec()).map((d) => d.title)).toEqual([
    'new',
    'old, edited',
    'older',
  ]);
});

test('a removal the server sent bare is stored without a made-up date', async () => {
  vi.spyOn(console, 'warn').mockImplementation(() => {});
  const db = await createPactaDatabase({
    userId: randomUUID(),
    storage: getRxStorageDexie({ indexedDB: new IDBFactory(), IDBKeyRange }),
    collections: ['deals'],
    multiInstance: false,
  });
  closing.push(db);
  const id = randomUUID();
  await db.deals.storageInstance.bulkWrite(
    [{ document: { id, _deleted: true, _meta: { lwt: Date.now() }, _rev: '1-a', _attachments: {} } as never }],
    'test',
  );
  const [stored] = await db.deals.storageInstance.findDocumentsById([id], true);
  expect(stored).toMatchObject({ id, _deleted: true });
  expect(stored).not.toHaveProperty('created_at');
});

test('deals stored before the key existed get it when the device migrates to the new version', async () => {
  vi.spyOn(console, 'warn').mockImplementation(() => {});
  addPactaPlugins();
  const indexedDB = new IDBFactory();
  const name = `unit-${randomUUID()}`;
  // The deals collection as version 1 stored it: no newest_first, indexes on brand_id and status.
  const stored: CollectionSpec = { ...collectionSpecs.deals, schemaVersion: 1, indexes: ['brand_id', 'status'] };
  type Database = RxDatabase<{ deals: RxCollection }>;
  const open = async (spec: CollectionSpec) => {
    const db: Database = await createRxDatabase<{ deals: RxCollection }>({
      name,
      storage: withNewestFirstKeys(getRxStorageDexie({ indexedDB, IDBKeyRange }) as RxStorage<unknown, unknown>),
      multiInstance: false,
    });
    closing.push(db);
    await db.addCollections({
      deals: { schema: rxSchemaFor('deals', spec), migrationStrategies: migrationStrategiesFor(spec) },
    });
    return db;
  };
  const before = await open(stored);
  await before.deals.bulkInsert([deal('first', '2026-01-01T00:00:00Z'), deal('second', '2026-02-01T00:00:00Z')]);
  await before.close();

  const after = await open(collectionSpecs.deals);
  const list = await after.deals.find({ selector: { status: 'open' }, sort: NEWEST_FIRST_SORT }).exec();
  expect(list.map((d) => d.get('title') as string)).toEqual(['second', 'first']);
});

test('deals stored before their last offered day existed get it when the device migrates, from their deadline', async () => {
  vi.spyOn(console, 'warn').mockImplementation(() => {});
  addPactaPlugins();
  const indexedDB = new IDBFactory();
  const name = `unit-${randomUUID()}`;
  // The deals collection as version 2 stored it: newest first, no open_until.
  const stored: CollectionSpec = {
    ...collectionSpecs.deals,
    schemaVersion: 2,
    indexes: collectionSpecs.deals.indexes.filter((index) => !(index as readonly string[]).includes(OPEN_UNTIL)),
  };
  type Database = RxDatabase<{ deals: RxCollection }>;
  const open = async (spec: CollectionSpec) => {
    const db: Database = await createRxDatabase<{ deals: RxCollection }>({
      name,
      storage: withNewestFirstKeys(getRxStorageDexie({ indexedDB, IDBKeyRange }) as RxStorage<unknown, unknown>),
      multiInstance: false,
    });
    closing.push(db);
    await db.addCollections({
      deals: { schema: rxSchemaFor('deals', spec), migrationStrategies: migrationStrategiesFor(spec) },
    });
    return db;
  };
  const before = await open(stored);
  await before.deals.bulkInsert([
    { ...deal('past', '2026-01-01T00:00:00Z'), deadline: '2020-05-01' },
    { ...deal('dated', '2026-02-01T00:00:00Z'), deadline: '2027-01-15' },
    { ...deal('free text', '2026-03-01T00:00:00Z'), deadline: 'Flexible' },
  ]);
  await before.close();

  const after = await open(collectionSpecs.deals);
  const selector = { status: 'open', [OPEN_UNTIL]: { $gte: '2026-11-27' } };
  const list = await after.deals.find({ selector, sort: NEWEST_FIRST_SORT }).exec();
  expect(list.map((d) => [d.get('title') as string, d.get(OPEN_UNTIL) as string])).toEqual([
    ['free text', NO_LAST_DAY],
    ['dated', '2027-01-15'],
  ]);
  expect(await after.deals.count({ selector }).exec()).toBe(2);
});
