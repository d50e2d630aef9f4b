import { randomUUID } from 'node:crypto';
import { afterEach, expect, test } from 'vitest';
import type { PactaDatabase } from './create-database.ts';
import { openUnitDatabase } from './unit-database.ts';
import { prepareDocument } from './prepare-document.ts';
import { discardRefusedChange, readRefusedChange } from './refused-changes.ts';

let db: PactaDatabase | undefined;
afterEach(async () => {
  await db?.remove();
  db = undefined;
});

const refusal = { code: 'deal_funded', message: 'The amount cannot change once the deal is funded.' };
const deal = (fields: Record<string, unknown>) =>
  prepareDocument('deals', {
    id: randomUUID(),
    brand_id: randomUUID(),
    title: 'Deal',
    description: 'Brief',
    amount_cents: 10_000,
    niches: ['Fitness'],
    ...fields,
  });

test('discarding a refused change to a document the server holds keeps the server’s copy, without the refusal', async () => {
  db = await openUnitDatabase();
  const doc = deal({ version: 3, sync_rejection: refusal });
  await db.deals.insert(doc);
  expect(await readRefusedChange(db, 'deals', doc.id)).toMatchObject({ title: 'Deal', sync_rejection: refusal });
  await discardRefusedChange(db, 'deals', doc.id);
  const kept = (await db.deals.findOne(doc.id).exec())?.toJSON();
  expect(kept).toMatchObject({ title: 'Deal', amount_cents: 10_000, version: 3 });
  expect(kept?.sync_rejection ?? null).toBeNull();
});

test('discarding a refused new document removes it: it exists only on this device', async () => {
  db = await openUnitDatabase();
  const doc = deal({ sync_rejection: refusal });
  await db.deals.insert(doc);
  await discardRefusedChange(db, 'deals', doc.id);
  expect(await db.deals.findOne(doc.id).exec()).toBeNull();
});

test('a document without a refusal, or an unknown collection, is left alone', async () => {
  db = await openUnitDatabase();
  const doc = deal({ version: 1 });
  await db.deals.insert(doc);
  await discardRefusedChange(db, 'deals', doc.id);
  await discardRefusedChange(db, 'no_such_collection', doc.id);
  expect(await db.deals.findOne(doc.id).exec()).not.toBeNull();
  expect(await readRefusedChange(db, 'no_such_collection', doc.id)).toBeNull();
});
