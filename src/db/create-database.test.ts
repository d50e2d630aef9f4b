import { randomUUID } from 'node:crypto';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { getRxStorageDexie } from 'rxdb/plugins/storage-dexie';
import { afterEach, expect, test, vi } from 'vitest';
import { COLLECTION_NAMES } from '../domain/collections/index.ts';
import { createPactaDatabase, type PactaDatabase } from './create-database.ts';
import { prepareDocument } from './prepare-document.ts';

let db: PactaDatabase | undefined;
afterEach(async () => {
  await db?.remove();
  db = undefined;
});

test('all thirteen collections (the open-source limit) open in one realm with schemas derived from the shared zod schemas', async () => {
  vi.spyOn(console, 'warn').mockImplementation(() => {}); // RxDB's open-core storage notice
  db = await createPactaDatabase({
    userId: randomUUID(),
    name: `unit-${randomUUID()}`,
    storage: getRxStorageDexie({ indexedDB: new IDBFactory(), IDBKeyRange }),
    multiInstance: false,
  });
  expect(Object.keys(db.collections).sort()).toEqual([...COLLECTION_NAMES].sort());
  expect(COLLECTION_NAMES.length).toBeLessThanOrEqual(13);

  const user = randomUUID();
  const deal = prepareDocument('deals', {
    id: randomUUID(),
    brand_id: user,
    title: 'Deal',
    description: 'Brief',
    amount_cents: 10_000,
    niches: ['tech'],
  });
  await db.deals.insert(deal);
  const stored = await db.deals.findOne(deal.id).exec();
  expect(stored?.toJSON()).toMatchObject({
    status: 'open',
    escrow_status: 'none',
    pro_only: false,
    requirements: [],
    amount_cents: 10_000,
  });
  expect(await db.deals.find({ selector: { brand_id: user, status: 'open' } }).exec()).toHaveLength(1);
});

test('prepareDocument refuses a document of the wrong shape', () => {
  expect(() =>
    prepareDocument('messages', {
      id: 'nope',
      conversation_id: randomUUID(),
      sender_id: randomUUID(),
      recipient_id: randomUUID(),
      body: 'x',
    }),
  ).toThrow();
  expect(() =>
    prepareDocument('deals', {
      id: randomUUID(),
      brand_id: randomUUID(),
      title: 'x',
      description: 'y',
      amount_cents: 12.5,
      niches: [],
    }),
  ).toThrow();
});
