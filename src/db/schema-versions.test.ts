import { createHash, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { createRxDatabase, type RxCollection, type RxDatabase, type RxStorage } from 'rxdb';
import { getRxStorageDexie } from 'rxdb/plugins/storage-dexie';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { z } from 'zod';
import { COLLECTION_NAMES, collectionSpecs, type CollectionSpec } from '../domain/collections/index.ts';
import { addPactaPlugins } from './create-database.ts';
import { rxSchemaFor } from './rx-schema.ts';
import { fillSchemaDefaults, migrationStrategiesFor } from './schema-migration.ts';

type Recorded = Record<string, { version: number; fingerprint: string } | undefined>;
const recorded = JSON.parse(readFileSync(new URL('./schema-fingerprints.json', import.meta.url), 'utf8')) as Recorded;

/** A stable fingerprint of a collection's RxDB schema (its shape, without the version number). */
function fingerprint(spec: CollectionSpec, name: keyof typeof collectionSpecs): string {
  const { version: _version, ...shape } = rxSchemaFor(name, spec);
  const sorted = (value: unknown): unknown =>
    Array.isArray(value)
      ? value.map(sorted)
      : value && typeof value === 'object'
        ? Object.fromEntries(
            Object.entries(value)
              .sort(([a], [b]) => a.localeCompare(b))
              .map(([k, v]) => [k, sorted(v)]),
          )
        : value;
  return createHash('sha256')
    .update(JSON.stringify(sorted(shape)))
    .digest('hex')
    .slice(0, 16);
}

describe('every collection changes shape only with a new schemaVersion', () => {
  test.each(COLLECTION_NAMES)('%s', (name) => {
    const spec: CollectionSpec = collectionSpecs[name];
    const now = { version: spec.schemaVersion, fingerprint: fingerprint(spec, name) };
    const before = recorded[name];
    if (before && before.fingerprint !== now.fingerprint && now.version <= before.version) {
      throw new Error(
        `The ${name} schema changed but its schemaVersion is still ${now.version}: add 1 to schemaVersion in ` +
          `src/domain/collections/registry.ts (devices that stored version ${before.version} could not open their database), ` +
          `then record ${JSON.stringify(now)} for ${name} in src/db/schema-fingerprints.json.`,
      );
    }
    expect(now, `record ${JSON.stringify(now)} for ${name} in src/db/schema-fingerprints.json`).toEqual(before);
  });
});

describe('a changed collection schema migrates the documents stored on the device', () => {
  const storedSpec: CollectionSpec = collectionSpecs.saved_lists;
  // A field added to the zod schema, with the default existing documents get.
  const nextSpec: CollectionSpec = {
    ...storedSpec,
    schema: storedSpec.schema.extend({ pinned: z.boolean().default(false) }),
    schemaVersion: storedSpec.schemaVersion + 1,
  };

  type Database = RxDatabase<{ saved_lists: RxCollection }>;
  let databases: Database[] = [];
  afterEach(async () => {
    await Promise.all(databases.map((db) => db.close()));
    databases = [];
  });

  async function open(indexedDB: IDBFactory, name: string, spec: CollectionSpec) {
    addPactaPlugins();
    const db: Database = await createRxDatabase<{ saved_lists: RxCollection }>({
      name,
      storage: getRxStorageDexie({ indexedDB, IDBKeyRange }) as RxStorage<unknown, unknown>,
      multiInstance: false,
    });
    databases.push(db);
    await db.addCollections({
      saved_lists: { schema: rxSchemaFor('saved_lists', spec), migrationStrategies: migrationStrategiesFor(spec) },
    });
    return db;
  }

  test('opened again at the next version, the documents are kept and the new field takes its default', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {}); // RxDB's open-core storage notice
    const indexedDB = new IDBFactory();
    const name = `unit-${randomUUID()}`;
    const userId = randomUUID();
    const id = randomUUID();

    const before = await open(indexedDB, name, storedSpec);
    await before.saved_lists.insert({ id, user_id: userId, kind: 'shortlist', items: ['a deal', 'a creator'] });
    await before.close();

    const after = await open(indexedDB, name, nextSpec);
    const doc = (await after.saved_lists.findOne(id).exec())?.toJSON() as Record<string, unknown> | undefined;
    expect(doc).toMatchObject({
      id,
      user_id: userId,
      kind: 'shortlist',
      items: ['a deal', 'a creator'],
      pinned: false,
    });
    expect(await after.saved_lists.count().exec()).toBe(1);
  });

  test('the same change without a new version cannot open the stored database (why the number matters)', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const indexedDB = new IDBFactory();
    const name = `unit-${randomUUID()}`;
    const before = await open(indexedDB, name, storedSpec);
    await before.close();
    await expect(open(indexedDB, name, { ...nextSpec, schemaVersion: storedSpec.schemaVersion })).rejects.toMatchObject(
      { code: 'DB6' },
    );
  });

  test('filling keeps every stored value and adds only defaults', () => {
    const stored = { id: 'x', items: ['kept'], user_id: 'u', kind: 'shortlist' };
    expect(fillSchemaDefaults(nextSpec, stored)).toMatchObject({ ...stored, pinned: false });
    expect(Object.keys(migrationStrategiesFor({ ...nextSpec, schemaVersion: 3 }))).toEqual(['1', '2', '3']);
  });
});
