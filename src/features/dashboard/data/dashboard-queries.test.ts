import 'fake-indexeddb/auto';
import { filter, firstValueFrom, type Observable } from 'rxjs';
import { getRxStorageDexie } from 'rxdb/plugins/storage-dexie';
import { v7 as uuidv7 } from 'uuid';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { createPactaDatabase, NEWEST_FIRST_SORT, type PactaDatabase } from '../../../db/index.ts';
import { applicationDocument, dealDocument, type ApplicationDocument } from '../../../domain/collections/index.ts';
import { brandDashboard$, creatorDashboard$ } from './dashboard-queries.ts';

// The dashboard's reads against the real local database (RxDB on Dexie): the newest ten, and the
// Quick Stats as counts.
let db: PactaDatabase;
const brand = uuidv7();
const otherBrand = uuidv7();
const creator = uuidv7();
const otherCreator = uuidv7();
const at = (n: number) => new Date(Date.UTC(2026, 10, 1, 0, n)).toISOString();

beforeEach(async () => {
  db = await createPactaDatabase({
    userId: uuidv7(),
    storage: getRxStorageDexie({ indexedDB, IDBKeyRange }),
    collections: ['deals', 'applications'],
    multiInstance: false,
  });
  const deal = (n: number, brandId: string, status: 'open' | 'completed' | 'in_progress') =>
    dealDocument.parse({
      id: uuidv7(),
      brand_id: brandId,
      title: `Deal ${n}`,
      description: 'd',
      amount_cents: 10_000,
      niches: [],
      status,
      created_at: at(n),
    });
  const deals = [
    ...Array.from({ length: 12 }, (_, i) => deal(i + 1, brand, i < 2 ? 'completed' : i < 3 ? 'in_progress' : 'open')),
    deal(99, otherBrand, 'open'),
  ];
  await db.deals.bulkInsert(deals);
  const application = (n: number, creatorId: string, status: ApplicationDocument['status']) =>
    applicationDocument.parse({
      id: uuidv7(),
      deal_id: deals[n]!.id,
      creator_id: creatorId,
      status,
      created_at: at(100 + n),
    });
  await db.applications.bulkInsert([
    application(0, creator, 'accepted'),
    application(1, creator, 'pending'),
    application(2, creator, 'withdrawn'),
    application(3, otherCreator, 'rejected'),
    application(12, creator, 'pending'),
  ]);
});
afterEach(async () => {
  await db.remove();
});

/** The dashboard once its figures are counted (the list comes first). */
const counted = <T extends { counts?: unknown }>(dashboard$: Observable<T>) =>
  firstValueFrom(dashboard$.pipe(filter((d): d is T & { counts: NonNullable<T['counts']> } => d.counts !== undefined)));

test('a brand: its ten newest deals and its counts by status; applications received leave out the withdrawn', async () => {
  // The list first, before anything is counted.
  expect((await firstValueFrom(brandDashboard$(db, brand, false))).counts).toBeUndefined();
  const { deals, counts } = await counted(brandDashboard$(db, brand, false));
  expect(deals.map((d) => d.title)).toEqual([
    'Deal 12',
    'Deal 11',
    'Deal 10',
    'Deal 9',
    'Deal 8',
    'Deal 7',
    'Deal 6',
    'Deal 5',
    'Deal 4',
    'Deal 3',
  ]);
  expect(counts).toEqual({ total: 12, open: 9, in_progress: 1, completed: 2, received: 4 });
  const admin = await counted(brandDashboard$(db, uuidv7(), true));
  expect(admin.deals[0]!.title).toBe('Deal 99');
  expect(admin.counts.total).toBe(13);
});

test('a creator: the newest applications with their deals, and the counts by status', async () => {
  const { applications, counts } = await counted(creatorDashboard$(db, creator, false));
  expect(applications.map((a) => [a.deal?.title, a.application.status])).toEqual([
    ['Deal 99', 'pending'],
    ['Deal 3', 'withdrawn'],
    ['Deal 2', 'pending'],
    ['Deal 1', 'accepted'],
  ]);
  expect(counts).toEqual({ total: 4, pending: 2, accepted: 1 });
  expect((await counted(creatorDashboard$(db, uuidv7(), true))).counts).toEqual({
    total: 5,
    pending: 2,
    accepted: 1,
  });
});

test('every list is read in index order up to its limit, every figure counted on an index', () => {
  for (const selector of [{ brand_id: brand }, {}]) {
    expect(db.deals.find({ selector, sort: NEWEST_FIRST_SORT, limit: 10 }).getPreparedQuery().queryPlan).toMatchObject({
      sortSatisfiedByIndex: true,
      selectorSatisfiedByIndex: true,
    });
    expect(
      db.deals.count({ selector: { ...selector, status: 'open' } }).getPreparedQuery().queryPlan
        .selectorSatisfiedByIndex,
    ).toBe(true);
  }
  for (const selector of [{ creator_id: creator }, {}]) {
    expect(
      db.applications.find({ selector, sort: NEWEST_FIRST_SORT, limit: 10 }).getPreparedQuery().queryPlan,
    ).toMatchObject({ sortSatisfiedByIndex: true, selectorSatisfiedByIndex: true });
    expect(
      db.applications.count({ selector: { ...selector, status: 'pending' } }).getPreparedQuery().queryPlan
        .selectorSatisfiedByIndex,
    ).toBe(true);
  }
});
