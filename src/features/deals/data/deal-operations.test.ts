import 'fake-indexeddb/auto';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { getRxStorageDexie } from 'rxdb/plugins/storage-dexie';
import { v7 as uuidv7 } from 'uuid';
import { createPactaDatabase, type PactaDatabase } from '../../../db/index.ts';
import { savedListId } from '../../../domain/saved-lists.ts';
import {
  applyToDeal,
  completeDeal,
  createDeal,
  DealActionError,
  setApplicationStatus,
  skipDeal,
  updateDeal,
  withdrawApplication,
} from './deal-operations.ts';

let db: PactaDatabase;
const brand = uuidv7();
const creator = uuidv7();
const fields = {
  title: 'Reel',
  description: 'A reel',
  amount_cents: 25_000,
  niches: ['Fitness'],
  requirements: [],
  deadline: null,
  category: null,
  payout_format: 'fixed' as const,
  is_campaign: false,
  budget_cents: null,
  max_creators: null,
  performance_rate: null,
};

beforeEach(async () => {
  db = await createPactaDatabase({
    userId: uuidv7(),
    storage: getRxStorageDexie({ indexedDB, IDBKeyRange }),
    collections: ['deals', 'applications', 'saved_lists'],
    multiInstance: false,
  });
});
afterEach(async () => {
  await db.remove();
});

test('createDeal writes an open deal with a UUID v7 id, not yet stamped by the server', async () => {
  const id = await createDeal(db, brand, fields);
  expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7/);
  const doc = (await db.deals.findOne(id).exec())!.toJSON();
  expect(doc).toMatchObject({
    brand_id: brand,
    status: 'open',
    amount_cents: 25_000,
    selected_creator_ids: [],
    winner_id: null,
  });
  expect(doc.version).toBeUndefined();
});

test('applyToDeal inserts one pending application per deal', async () => {
  const dealId = await createDeal(db, brand, fields);
  const application = await applyToDeal(db, creator, dealId);
  expect(application).toMatchObject({ deal_id: dealId, creator_id: creator, status: 'pending' });
  await expect(applyToDeal(db, creator, dealId)).rejects.toThrow(
    new DealActionError('You have already applied to this deal.'),
  );
  expect(await db.applications.count().exec()).toBe(1);
});

test("applyToDeal predicts the server's copy of the deal's status from the deal on this device", async () => {
  const dealId = await createDeal(db, brand, fields);
  expect((await applyToDeal(db, creator, dealId)).deal_status).toBe('open');
  const other = await createDeal(db, brand, fields);
  await (await db.deals.findOne(other).exec())!.incrementalPatch({ status: 'in_progress' });
  expect((await applyToDeal(db, creator, other)).deal_status).toBe('in_progress');
  // A deal this device does not hold: applications are only taken by open deals.
  expect((await applyToDeal(db, creator, uuidv7())).deal_status).toBe('open');
});

test('a status change clears a previous refusal so the write is sent again', async () => {
  const dealId = await createDeal(db, brand, fields);
  const application = await applyToDeal(db, creator, dealId);
  await (await db.applications.findOne(application.id).exec())!.incrementalPatch({
    sync_rejection: { code: 'x', message: 'No.' },
  });
  await setApplicationStatus(db, application.id, 'accepted');
  expect((await db.applications.findOne(application.id).exec())!.toJSON()).toMatchObject({
    status: 'accepted',
    sync_rejection: null,
  });
});

test('completeDeal needs a selected creator and records the first one as winner', async () => {
  const dealId = await createDeal(db, brand, fields);
  await expect(completeDeal(db, dealId)).rejects.toThrow(
    'You must select at least one creator before completing the deal.',
  );
  const other = uuidv7();
  // As the server's pull would bring it after the brand accepted two creators.
  await (await db.deals.findOne(dealId).exec())!.incrementalPatch({
    selected_creator_ids: [creator, other],
    status: 'in_progress',
  });
  await completeDeal(db, dealId);
  expect((await db.deals.findOne(dealId).exec())!.toJSON()).toMatchObject({ status: 'completed', winner_id: creator });
});

test('updateDeal changes the editable fields only', async () => {
  const dealId = await createDeal(db, brand, fields);
  await updateDeal(db, dealId, {
    title: 'New',
    description: 'D',
    amount_cents: 100,
    requirements: ['a'],
    category: 'Giveaway',
    deadline: 'Soon',
    pro_only: true,
  });
  expect((await db.deals.findOne(dealId).exec())!.toJSON()).toMatchObject({
    title: 'New',
    amount_cents: 100,
    pro_only: true,
    brand_id: brand,
    status: 'open',
  });
});

test('skipDeal keeps one skipped list per user, at the id every device derives, without duplicates', async () => {
  const a = uuidv7();
  const b = uuidv7();
  await skipDeal(db, creator, a);
  await skipDeal(db, creator, b);
  await skipDeal(db, creator, a);
  const lists = await db.saved_lists.find().exec();
  expect(lists.map((l) => l.toJSON())).toEqual([
    expect.objectContaining({
      id: savedListId(creator, 'skipped_deals'),
      kind: 'skipped_deals',
      user_id: creator,
      items: [a, b],
    }),
  ]);
});

test('the creator withdraws a pending application; an answered one cannot be withdrawn here', async () => {
  const dealId = await createDeal(db, brand, fields);
  const application = await applyToDeal(db, creator, dealId);
  await withdrawApplication(db, application.id);
  expect((await db.applications.findOne(application.id).exec())!.status).toBe('withdrawn');
  await expect(withdrawApplication(db, application.id)).rejects.toThrow('Only a pending application can be withdrawn.');
});

test('updateDeal writes nothing when the fields already hold the values (no server answer to wait for)', async () => {
  const dealId = await createDeal(db, brand, fields);
  const same = {
    title: fields.title,
    description: fields.description,
    amount_cents: fields.amount_cents,
    requirements: fields.requirements,
    category: fields.category,
    deadline: fields.deadline,
    pro_only: false,
  };
  expect(await updateDeal(db, dealId, same)).toBe(false);
  expect(await updateDeal(db, dealId, { ...same, title: 'Renamed' })).toBe(true);
});
