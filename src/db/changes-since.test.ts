import { randomUUID } from 'node:crypto';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import {
  createRxDatabase,
  getChangedDocumentsSinceQuery,
  prepareQuery,
  type RxCollection,
  type RxDatabase,
  type RxStorageInstance,
} from 'rxdb';
import { afterEach, expect, test, vi } from 'vitest';
import { pactaDexieStorage } from './batched-reads.ts';

type Note = { id: string; title: string; done: boolean };
const schema = {
  version: 0,
  primaryKey: 'id',
  type: 'object',
  properties: { id: { type: 'string', maxLength: 40 }, title: { type: 'string' }, done: { type: 'boolean' } },
  required: ['id', 'title', 'done'],
  indexes: ['done'],
} as const;

const opened: RxDatabase<{ notes: RxCollection<Note> }>[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((db) => db.remove()));
});

async function notes(): Promise<RxCollection<Note>> {
  vi.spyOn(console, 'warn').mockImplementation(() => {}); // RxDB's open-core storage notice
  const db = await createRxDatabase<{ notes: RxCollection<Note> }>({
    name: `changes-${randomUUID()}`,
    storage: pactaDexieStorage({ indexedDB: new IDBFactory(), IDBKeyRange }),
    multiInstance: false,
  });
  opened.push(db);
  await db.addCollections({ notes: { schema } });
  return db.notes;
}

type Checkpoint = { id: string; lwt: number } | undefined;
type Instance = RxStorageInstance<Note, unknown, unknown, Checkpoint>;

/** What RxDB answers without the storage's own method: its query over the `[_meta.lwt+id]` index. */
async function byQuery(instance: Instance, limit: number, checkpoint: Checkpoint) {
  const query = prepareQuery(instance.schema, getChangedDocumentsSinceQuery(instance, limit, checkpoint));
  const { documents } = await instance.query(query);
  const last = documents.at(-1);
  return { documents, checkpoint: last ? { id: last.id, lwt: last._meta.lwt } : (checkpoint ?? { id: '', lwt: 0 }) };
}

/** Every page from the start, as RxDB's upstream walks them. */
async function walk(
  read: (limit: number, checkpoint: Checkpoint) => Promise<{ documents: { id: string }[]; checkpoint: Checkpoint }>,
  limit: number,
) {
  const pages: { ids: string[]; checkpoint: Checkpoint }[] = [];
  let checkpoint: Checkpoint;
  for (;;) {
    const page = await read(limit, checkpoint);
    pages.push({ ids: page.documents.map((d) => d.id), checkpoint: page.checkpoint });
    if (page.documents.length === 0) return pages;
    checkpoint = page.checkpoint;
  }
}

test('documents changed after a checkpoint, read by key range, answer as RxDB’s query does (same-instant bulk writes, edits, deletions)', async () => {
  const collection = await notes();
  const instance = collection.storageInstance as unknown as Instance;
  expect(instance.getChangedDocumentsSince).toBeTypeOf('function');
  // Two bulk writes (each of one write time), then edits and deletions of some of the first ones.
  const first = Array.from({ length: 120 }, (_, i) => ({ id: randomUUID(), title: `Note ${i}`, done: i % 2 === 0 }));
  await collection.bulkInsert(first);
  await collection.bulkInsert(
    Array.from({ length: 45 }, (_, i) => ({ id: randomUUID(), title: `Later ${i}`, done: false })),
  );
  await collection.bulkUpsert(first.slice(0, 30).map((n) => ({ ...n, title: `${n.title}, edited` })));
  const removed = await collection.findByIds(first.slice(30, 40).map((n) => n.id)).exec();
  await Promise.all([...removed.values()].map((doc) => doc.remove()));

  for (const limit of [1, 7, 50, 500]) {
    const own = await walk((l, c) => instance.getChangedDocumentsSince!(l, c), limit);
    expect(own).toEqual(await walk((l, c) => byQuery(instance, l, c), limit));
    expect(own.flatMap((p) => p.ids)).toHaveLength(165);
  }
  // The documents come as stored: a deleted one is there with `_deleted`, booleans as booleans.
  const { documents } = await instance.getChangedDocumentsSince!(500, undefined);
  expect(documents.filter((d) => d._deleted)).toHaveLength(10);
  expect(documents.find((d) => d.id === first[0]!.id)).toMatchObject({
    title: 'Note 0, edited',
    done: true,
    _deleted: false,
  });
});

test('nothing written after the checkpoint: no documents, and the same checkpoint', async () => {
  const collection = await notes();
  const instance = collection.storageInstance as unknown as Instance;
  expect(await instance.getChangedDocumentsSince!(10, undefined)).toEqual({
    documents: [],
    checkpoint: { id: '', lwt: 0 },
  });
  await collection.insert({ id: 'a', title: 'A', done: false });
  const { checkpoint } = await instance.getChangedDocumentsSince!(10, undefined);
  expect(await instance.getChangedDocumentsSince!(10, checkpoint)).toEqual({ documents: [], checkpoint });
});
