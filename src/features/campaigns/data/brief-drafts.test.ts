import 'fake-indexeddb/auto';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { getRxStorageDexie } from 'rxdb/plugins/storage-dexie';
import { v7 as uuidv7 } from 'uuid';
import { createPactaDatabase, type PactaDatabase } from '../../../db/index.ts';
import { EMPTY_BRIEF } from '../../../domain/campaign-brief.ts';
import {
  briefOf,
  createCampaignFromDraft,
  deleteBriefDraft,
  newDraftId,
  saveBriefEdits,
  summarize,
  BriefActionError,
} from './brief-drafts.ts';

let db: PactaDatabase;
const brand = uuidv7();

beforeEach(async () => {
  db = await createPactaDatabase({
    userId: uuidv7(),
    storage: getRxStorageDexie({ indexedDB, IDBKeyRange }),
    collections: ['deals', 'drafts'],
    multiInstance: false,
  });
});
afterEach(async () => {
  await db.remove();
});

test('the first edit creates the draft; later edits update it field by field with their time and device', async () => {
  const id = newDraftId();
  await saveBriefEdits(db, brand, id, [{ name: 'title', value: 'Trail shoes', at: 1_000 }], 'Chrome on Android');
  await saveBriefEdits(
    db,
    brand,
    id,
    [
      { name: 'goals', value: 'Reach runners', at: 2_000 },
      { name: 'step', value: 1, at: 2_001 },
    ],
    'Chrome on Linux',
  );
  const doc = (await db.drafts.findOne(id).exec())!;
  expect(doc.title).toBe('Trail shoes');
  expect(briefOf(doc)).toMatchObject({ title: 'Trail shoes', goals: 'Reach runners' });
  expect(summarize(doc)).toMatchObject({
    title: 'Trail shoes',
    step: 1,
    stepName: 'Content Requirements',
    lastEditedAt: 2_001,
    device: 'Chrome on Linux',
    waitingToSync: true,
  });
});

test('creating the campaign publishes a campaign deal and removes the draft', async () => {
  const id = newDraftId();
  const brief = {
    ...EMPTY_BRIEF,
    title: 'Trail',
    niches: ['Fitness'],
    goals: 'Reach',
    deliverables: ['Blog Post'],
    budget: '120',
    timeline: '1 month',
  };
  await saveBriefEdits(db, brand, id, [{ name: 'title', value: 'Trail', at: 1 }], 'Chrome on Linux');
  await expect(createCampaignFromDraft(db, brand, id, EMPTY_BRIEF)).rejects.toBeInstanceOf(BriefActionError);
  const dealId = await createCampaignFromDraft(db, brand, id, brief);
  const deal = (await db.deals.findOne(dealId).exec())!;
  expect(deal).toMatchObject({
    brand_id: brand,
    status: 'open',
    is_campaign: true,
    description: 'Reach',
    amount_cents: 12_000,
    deliverables: ['Blog Post'],
    timeline: '1 month',
  });
  expect(await db.drafts.findOne(id).exec()).toBeNull();
  await deleteBriefDraft(db, id); // already gone: nothing happens
});
