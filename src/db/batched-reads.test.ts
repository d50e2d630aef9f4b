import { randomUUID } from 'node:crypto';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { createRxDatabase, type RxCollection, type RxDatabase, type RxStorage } from 'rxdb';
import { getRxStorageDexie } from 'rxdb/plugins/storage-dexie';
import { afterEach, expect, test, vi } from 'vitest';
import { pactaDexieStorage } from './batched-reads.ts';

type Note = { id: string; title: string };
const schema = {
  version: 0,
  primaryKey: 'id',
  type: 'object',
  properties: { id: { type: 'string', maxLength: 40 }, title: { type: 'string' } },
  required: ['id', 'title'],
} as const;

const opened: RxDatabase<{ notes: RxCollection<Note> }>[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((db) => db.remove()));
});

async function notes(storage: RxStorage<unknown, unknown>): Promise<RxCollection<Note>> {
  vi.spyOn(console, 'warn').mockImplementation(() => {}); // RxDB's open-core storage notice
  const db = await createRxDatabase<{ notes: RxCollection<Note> }>({
    name: `batched-${randomUUID()}`,
    storage,
    multiInstance: false,
  });
  opened.push(db);
  await db.addCollections({ notes: { schema } });
  return db.notes;
}

/** The same documents in a database read through batched reads and in one read as Dexie reads. */
async function pair(stored: string[]) {
  const batched = await notes(
    pactaDexieStorage({ indexedDB: new IDBFactory(), IDBKeyRange }) as RxStorage<unknown, unknown>,
  );
  const plain = await notes(
    getRxStorageDexie({ indexedDB: new IDBFactory(), IDBKeyRange }) as RxStorage<unknown, unknown>,
  );
  const docs = stored.map((id, i) => ({ id, title: `Note ${i}` }));
  if (docs.length) {
    await batched.bulkInsert(docs);
    await plain.bulkInsert(docs);
  }
  return { batched, plain };
}

const ids = (n: number) => Array.from({ length: n }, () => randomUUID());
const read = async (collection: RxCollection<Note>, asked: string[]) => {
  const found = await collection.storageInstance.findDocumentsById(asked, true);
  return found.map((doc) => ({ id: doc.id, title: doc.title })).sort((a, b) => a.id.localeCompare(b.id));
};

test('many ids of which none is stored read as nothing', async () => {
  const { batched } = await pair([]);
  expect(await read(batched, ids(100))).toEqual([]);
});

test('a mix of stored and missing ids, with a repeat, reads the same documents as Dexie reads them', async () => {
  const stored = ids(300);
  const { batched, plain } = await pair(stored);
  const asked = [...stored.slice(0, 40), ...ids(40), stored[0]!, ...stored.slice(250, 260)].sort(
    () => Math.random() - 0.5,
  );
  const result = await read(batched, asked);
  expect(result).toEqual(await read(plain, asked));
  expect(result).toHaveLength(51); // the repeated id reads twice, as with Dexie
});

test('a read among far more stored documents than ids asked, and a short read, are answered too', async () => {
  const stored = ids(1_000);
  const { batched, plain } = await pair(stored);
  const many = [...stored.slice(0, 40), ...ids(40)];
  expect(await read(batched, many)).toEqual(await read(plain, many));
  const few = [stored[5]!, randomUUID()];
  expect(await read(batched, few)).toEqual(await read(plain, few));
});

test('a storage write inside its transaction finds the stored documents: writing them as new is a conflict', async () => {
  const stored = ids(200);
  const { batched } = await pair(stored);
  const fresh = ids(60);
  const rows = [...stored.slice(0, 60), ...fresh].map((id) => ({
    document: {
      id,
      title: 'Written as new',
      _deleted: false,
      _rev: '1-pacta',
      _meta: { lwt: Date.now() },
      _attachments: {},
    },
  }));
  const result = await batched.storageInstance.bulkWrite(rows, 'batched-reads-test');
  expect(result.error.map((e) => [e.status, e.documentId]).sort()).toEqual(
    stored
      .slice(0, 60)
      .map((id) => [409, id])
      .sort(),
  );
  const after = await read(batched, [...stored.slice(0, 60), ...fresh]);
  expect(
    after
      .filter((doc) => doc.title === 'Written as new')
      .map((doc) => doc.id)
      .sort(),
  ).toEqual([...fresh].sort());
});
