import 'fake-indexeddb/auto';
import { firstValueFrom } from 'rxjs';
import { getRxStorageDexie } from 'rxdb/plugins/storage-dexie';
import { v7 as uuidv7 } from 'uuid';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { createPactaDatabase, NEWEST_FIRST_SORT, type PactaDatabase } from '../../../db/index.ts';
import { applicationDocument, dealDocument, type DealDocument } from '../../../domain/collections/index.ts';
import {
  appliedDealIds$,
  creatorApplicationsPage$,
  creatorDealCounts$,
  dealsPageWithApplied$,
} from './deal-queries.ts';
import { candidatePageSize } from './use-deal-data.ts';

// A creator's reads against the real local database (RxDB on Dexie): My Deals' page of applications
// with their deals and its chips' counts, and which of the shown deals the creator applied to.
let db: PactaDatabase;
const brand = uuidv7();
const creator = uuidv7();
const otherCreator = uuidv7();
const at = (n: number) => new Date(Date.UTC(2026, 10, 1, 0, n)).toISOString();
let deals: DealDocument[];

beforeEach(async () => {
  db = await createPactaDatabase({
    userId: uuidv7(),
    storage: getRxStorageDexie({ indexedDB, IDBKeyRange }),
    collections: ['deals', 'applications'],
    multiInstance: false,
  });
  const statuses = ['open', 'open', 'in_progress', 'completed', 'cancelled', 'open'] as const;
  deals = Array.from({ length: 30 }, (_, i) =>
    dealDocument.parse({
      id: uuidv7(),
      brand_id: brand,
      title: `Deal ${i}`,
      description: 'd',
      amount_cents: 10_000,
      niches: [],
      status: statuses[i % 6],
      created_at: at(i),
    }),
  );
  await db.deals.bulkInsert(deals);
});
afterEach(async () => {
  await db.remove();
});

/** The creator applies to deal n at minute 100 + m (its deal's status copied, as the server keeps it). */
const application = (n: number, m: number, creatorId = creator) =>
  applicationDocument.parse({
    id: uuidv7(),
    deal_id: deals[n]!.id,
    creator_id: creatorId,
    deal_status: deals[n]!.status,
    created_at: at(100 + m),
  });

test("My Deals (creator): a page of the creator's applications newest first with their deals, by the deal's status, and counts per status", async () => {
  // Applied to deals 0..11 (deal n at minute n), one application by someone else.
  // Of the two completed deals the creator was accepted on deal 9 and rejected on deal 3: only deal 9
  // is one of its completed deals (as the dashboard and /performance count them).
  await db.applications.bulkInsert([
    ...Array.from({ length: 12 }, (_, n) => ({
      ...application(n, n),
      status: n === 9 ? ('accepted' as const) : n === 3 ? ('rejected' as const) : ('pending' as const),
    })),
    application(13, 50, otherCreator),
  ]);
  const page = await firstValueFrom(creatorApplicationsPage$(db, creator, null, 5));
  expect(page.map((r) => r.deal?.title)).toEqual(['Deal 11', 'Deal 10', 'Deal 9', 'Deal 8', 'Deal 7']);
  expect(page.every((r) => r.application.deal_id === r.deal?.id)).toBe(true);
  const completed = await firstValueFrom(creatorApplicationsPage$(db, creator, 'completed', 5));
  expect(completed.map((r) => [r.deal?.title, r.deal?.status])).toEqual([['Deal 9', 'completed']]);
  expect(await firstValueFrom(creatorDealCounts$(db, creator))).toEqual({
    total: 12,
    open: 6,
    in_progress: 2,
    completed: 1,
    cancelled: 2,
  });
});

test('an application whose deal is not on this device, refused or not, is a row of its own, in its place and counted', async () => {
  const gone = applicationDocument.parse({ id: uuidv7(), deal_id: uuidv7(), creator_id: creator, created_at: at(300) });
  const refused = applicationDocument.parse({
    id: uuidv7(),
    deal_id: uuidv7(),
    creator_id: creator,
    created_at: at(200),
    sync_rejection: { code: 'deal_not_found', message: 'Deal not found.' },
  });
  await db.applications.bulkInsert([application(0, 0), refused, gone]);
  const page = await firstValueFrom(creatorApplicationsPage$(db, creator, null, 20));
  expect(page.map((r) => [r.application.id, r.deal?.title ?? null])).toEqual([
    [gone.id, null],
    [refused.id, null],
    [page[2]!.application.id, 'Deal 0'],
  ]);
  expect(page[1]!.application.sync_rejection).toEqual({ code: 'deal_not_found', message: 'Deal not found.' });
  expect((await firstValueFrom(creatorDealCounts$(db, creator))).total).toBe(3);
});

test('which of the shown deals the creator applied to: their applications only, whatever their status', async () => {
  await db.applications.bulkInsert([
    application(1, 1),
    application(2, 2),
    { ...application(3, 3), status: 'withdrawn' },
    application(4, 4, otherCreator),
  ]);
  const shown = deals.slice(0, 4).map((d) => d.id);
  expect([...(await firstValueFrom(appliedDealIds$(db, creator, shown)))].sort()).toEqual(
    [deals[1]!.id, deals[2]!.id, deals[3]!.id].sort(),
  );
  expect((await firstValueFrom(appliedDealIds$(db, creator, []))).size).toBe(0);
});

test('the candidates grow past the deals applied to until they hold the wanted number not applied to', async () => {
  // The newest 12 open deals applied to.
  const open = deals.filter((d) => d.status === 'open').reverse();
  await db.applications.bulkInsert(open.slice(0, 12).map((d, m) => application(deals.indexOf(d), m)));
  const wanted = 3;
  let limit = wanted;
  let reads = 0;
  for (;;) {
    const page = await firstValueFrom(dealsPageWithApplied$(db, creator, { status: 'open' }, limit));
    reads++;
    const next = candidatePageSize(wanted, page);
    if (next === limit) {
      expect(page.deals.filter((d) => !page.applied.has(d.id)).map((d) => d.id)).toEqual(
        open.slice(12, 15).map((d) => d.id),
      );
      break;
    }
    limit = next;
  }
  expect(reads).toBe(4);
  // Fewer matching deals than wanted: the page is not full and stops growing.
  const all = await firstValueFrom(dealsPageWithApplied$(db, creator, { status: 'open' }, 100));
  expect(candidatePageSize(wanted, all)).toBe(100);
});

test('a creator who applied to thousands of the newest deals: the candidates are found in a few reads', () => {
  const page = (limit: number, appliedTo: number) => ({
    limit,
    deals: Array.from({ length: limit }, (_, i) => ({ id: String(i) })) as DealDocument[],
    applied: new Set(Array.from({ length: Math.min(limit, appliedTo) }, (_, i) => String(i))),
  });
  // The 3,000 newest applied to, 500 wanted: 500 → 1,000 → 2,000 → 4,000 → (1,000 not applied) done.
  const sizes = [500];
  for (
    let next = candidatePageSize(500, page(500, 3_000));
    next !== sizes.at(-1);
    next = candidatePageSize(500, page(next, 3_000))
  )
    sizes.push(next);
  expect(sizes).toEqual([500, 1_000, 2_000, 4_000]);
  // One in ten applied to: one more read, a little larger.
  const sparse = {
    limit: 500,
    deals: page(500, 0).deals,
    applied: new Set(Array.from({ length: 50 }, (_, i) => String(i * 10))),
  };
  expect(candidatePageSize(500, sparse)).toBe(556);
});

test('every read of these screens is an index range; every figure an index count', () => {
  const plan = (q: {
    getPreparedQuery(): {
      queryPlan: { index: string[]; sortSatisfiedByIndex: boolean; selectorSatisfiedByIndex: boolean };
    };
  }) => q.getPreparedQuery().queryPlan;
  for (const selector of [{ creator_id: creator }, { creator_id: creator, deal_status: 'completed' as const }]) {
    expect(plan(db.applications.find({ selector, sort: NEWEST_FIRST_SORT, limit: 20 }))).toMatchObject({
      sortSatisfiedByIndex: true,
      selectorSatisfiedByIndex: true,
    });
    expect(plan(db.applications.count({ selector })).selectorSatisfiedByIndex).toBe(true);
  }
  // Read between the smallest and the largest of the deal ids, with the creator: no other range.
  const shown = deals.slice(0, 3).map((d) => d.id);
  const applied = db.applications
    .find({ selector: { deal_id: { $in: shown }, creator_id: creator } })
    .getPreparedQuery().queryPlan;
  expect(applied.index).toEqual(['_deleted', 'deal_id', 'creator_id', 'id']);
  expect([applied.startKeys.slice(0, 3), applied.endKeys.slice(0, 3)]).toEqual([
    [false, shown[0], creator],
    [false, shown[2], creator],
  ]);
});
