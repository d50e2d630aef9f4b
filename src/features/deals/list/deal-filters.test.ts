import 'fake-indexeddb/auto';
import { firstValueFrom } from 'rxjs';
import { getRxStorageDexie } from 'rxdb/plugins/storage-dexie';
import { v7 as uuidv7 } from 'uuid';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { createPactaDatabase, type PactaDatabase } from '../../../db/index.ts';
import { dealDocument, OPEN_UNTIL, type DealDocument } from '../../../domain/collections/index.ts';
import { dealsCount$, dealsPage$, dealsPageQuery, type DealSelector } from '../data/deal-queries.ts';
import { amountFilterErrors, filterDeals, NO_FILTERS, offeredToCreator, visibleToCreator } from './deal-filters.ts';

// The filters run as selectors in the real local database (RxDB on Dexie), as on the device.
let db: PactaDatabase;
beforeEach(async () => {
  db = await createPactaDatabase({
    userId: uuidv7(),
    storage: getRxStorageDexie({ indexedDB, IDBKeyRange }),
    collections: ['deals'],
    multiInstance: false,
  });
  await db.deals.bulkInsert([a, b, pro, closed]);
});
afterEach(async () => {
  await db.remove();
});

const deal = (over: Partial<DealDocument>): DealDocument =>
  dealDocument.parse({
    id: uuidv7(),
    brand_id: '0193a5b0-0000-7000-8000-0000000000b1',
    title: 't',
    description: 'd',
    amount_cents: 10_000,
    niches: ['Fitness'],
    ...over,
  });

const a = deal({
  title: 'a',
  amount_cents: 5_000,
  category: 'Giveaway',
  niches: ['Food'],
  created_at: '2026-11-01T10:00:00.000001+00:00',
});
const b = deal({
  title: 'b',
  amount_cents: 50_000,
  category: 'Tutorial',
  niches: ['Fitness', 'Travel'],
  created_at: '2026-11-01T10:00:00.000002+00:00',
});
const pro = deal({ title: 'pro', pro_only: true, created_at: '2026-11-02T10:00:00+00:00' });
const closed = deal({ title: 'closed', status: 'completed', created_at: '2026-11-03T10:00:00+00:00' });

const creator = visibleToCreator({ isPro: false, isAdmin: false });
const titles = async (selector: DealSelector, limit = 10) =>
  (await firstValueFrom(dealsPage$(db, selector, limit))).map((d) => d.title);

test('no filters: the open deals a creator may see, newest first (to the microsecond)', async () => {
  expect(await titles(filterDeals(creator, NO_FILTERS))).toEqual(['b', 'a']);
  expect(await titles(filterDeals(creator, NO_FILTERS), 1)).toEqual(['b']);
  expect(await firstValueFrom(dealsCount$(db, creator))).toBe(2);
});

test('amount bounds are inclusive dollars; an unreadable bound is ignored', async () => {
  expect(await titles(filterDeals(creator, { ...NO_FILTERS, minAmount: '50' }))).toEqual(['b', 'a']);
  expect(await titles(filterDeals(creator, { ...NO_FILTERS, minAmount: '50.01' }))).toEqual(['b']);
  expect(await titles(filterDeals(creator, { ...NO_FILTERS, maxAmount: '500' }))).toEqual(['b', 'a']);
  expect(await titles(filterDeals(creator, { ...NO_FILTERS, maxAmount: '499.99' }))).toEqual(['a']);
  expect(await titles(filterDeals(creator, { ...NO_FILTERS, minAmount: 'lots' }))).toEqual(['b', 'a']);
});

test('category must match; any chosen niche matches', async () => {
  expect(await titles(filterDeals(creator, { ...NO_FILTERS, category: 'Tutorial' }))).toEqual(['b']);
  expect(await titles(filterDeals(creator, { ...NO_FILTERS, niches: ['Travel', 'Food'] }))).toEqual(['b', 'a']);
  expect(await titles(filterDeals(creator, { ...NO_FILTERS, niches: ['Gaming'] }))).toEqual([]);
  expect(await firstValueFrom(dealsCount$(db, filterDeals(creator, { ...NO_FILTERS, category: 'Tutorial' })))).toBe(1);
});

test('non-Pro creators never get Pro-only deals; closed deals are not listed', async () => {
  expect(await titles(visibleToCreator({ isPro: true, isAdmin: false }))).toEqual(['pro', 'b', 'a']);
  expect(await titles(visibleToCreator({ isPro: false, isAdmin: true }))).toEqual(['pro', 'b', 'a']);
});

test('the list reads one index in its order and stops at the page; the totals are counted on the index', () => {
  const plan = (selector: DealSelector, limit = 24) => dealsPageQuery(db, selector, limit).getPreparedQuery().queryPlan;
  for (const visible of [
    creator,
    visibleToCreator({ isPro: true, isAdmin: false }),
    offeredToCreator({ isPro: false, isAdmin: false, today: '2026-11-27' }),
    offeredToCreator({ isPro: true, isAdmin: false, today: '2026-11-27' }),
  ]) {
    // In index order, so the walk stops at the page (a deal past its deadline is skipped on the way).
    expect(plan(visible).sortSatisfiedByIndex).toBe(true);
    if (!(OPEN_UNTIL in visible)) expect(plan(visible).selectorSatisfiedByIndex).toBe(true);
    expect(
      plan(filterDeals(visible, { category: 'Tutorial', minAmount: '10', maxAmount: '', niches: ['Travel'] }))
        .sortSatisfiedByIndex,
    ).toBe(true);
    expect(plan({ ...visible, id: { $nin: [a.id] } }, 500).sortSatisfiedByIndex).toBe(true);
    expect(db.deals.count({ selector: visible }).getPreparedQuery().queryPlan.selectorSatisfiedByIndex).toBe(true);
  }
});

test('amount filters say what is wrong: not an amount, or a minimum above the maximum (which then does not filter)', () => {
  expect(amountFilterErrors({ minAmount: 'abc', maxAmount: '' })).toEqual({
    minAmount: 'Enter an amount in dollars, for example 250.',
  });
  expect(amountFilterErrors({ minAmount: '500', maxAmount: '100' })).toEqual({
    maxAmount: 'The maximum must be at least the minimum.',
  });
  expect(amountFilterErrors({ minAmount: '100', maxAmount: '500' })).toEqual({});
  const visible = visibleToCreator({ isPro: false, isAdmin: false });
  expect(filterDeals(visible, { ...NO_FILTERS, minAmount: '500', maxAmount: '100' }).amount_cents).toEqual({
    $gte: 50_000,
  });
});

test('a deal past its deadline is not offered; no deadline, today, a later day and free text are', async () => {
  await db.deals.bulkInsert([
    deal({ title: 'past', deadline: '2020-05-01', created_at: '2026-11-04T10:00:00+00:00' }),
    deal({ title: 'yesterday', deadline: '2026-11-26', created_at: '2026-11-05T10:00:00+00:00' }),
    deal({ title: 'today', deadline: '2026-11-27', created_at: '2026-11-06T10:00:00+00:00' }),
    deal({ title: 'later', deadline: '2027-01-15', created_at: '2026-11-07T10:00:00+00:00' }),
    deal({ title: 'free text', deadline: 'Within 2 weeks', created_at: '2026-11-08T10:00:00+00:00' }),
  ]);
  const offered = offeredToCreator({ isPro: false, isAdmin: false, today: '2026-11-27' });
  expect(await titles(offered)).toEqual(['free text', 'later', 'today', 'b', 'a']);
  expect(await titles(offered, 2)).toEqual(['free text', 'later']);
  expect(await firstValueFrom(dealsCount$(db, offered))).toBe(5);
  // Pro members and staff are not offered it either.
  expect(await titles(offeredToCreator({ isPro: true, isAdmin: false, today: '2026-11-27' }))).not.toContain('past');
  expect(await titles(offeredToCreator({ isPro: false, isAdmin: true, today: '2026-11-27' }))).not.toContain('past');
});

test('a deal whose deadline is moved into the past leaves the list and its total; moved back, it returns', async () => {
  const offered = offeredToCreator({ isPro: false, isAdmin: false, today: '2026-11-27' });
  const doc = await db.deals.findOne(b.id).exec();
  await doc!.incrementalPatch({ deadline: '2026-11-26' });
  expect(await titles(offered)).toEqual(['a']);
  expect(await firstValueFrom(dealsCount$(db, offered))).toBe(1);
  await doc!.incrementalPatch({ deadline: null });
  expect(await titles(offered)).toEqual(['b', 'a']);
  expect(await firstValueFrom(dealsCount$(db, offered))).toBe(2);
});
