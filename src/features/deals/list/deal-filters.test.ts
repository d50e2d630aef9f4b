import { expect, test } from 'vitest';
import { dealDocument, type DealDocument } from '../../../domain/collections/index.ts';
import { filterDeals, NO_FILTERS, visibleToCreator } from './deal-filters.ts';

const deal = (over: Partial<DealDocument>): DealDocument =>
  dealDocument.parse({
    id: '0193a5b0-0000-7000-8000-000000000001',
    brand_id: '0193a5b0-0000-7000-8000-0000000000b1',
    title: 't',
    description: 'd',
    amount_cents: 10_000,
    niches: ['Fitness'],
    ...over,
  });

const a = deal({ id: '0193a5b0-0000-7000-8000-00000000000a', amount_cents: 5_000, category: 'Giveaway', niches: ['Food'] });
const b = deal({ id: '0193a5b0-0000-7000-8000-00000000000b', amount_cents: 50_000, category: 'Tutorial', niches: ['Fitness', 'Travel'] });
const pro = deal({ id: '0193a5b0-0000-7000-8000-00000000000c', pro_only: true });

test('no filters keeps every deal', () => {
  expect(filterDeals([a, b], NO_FILTERS)).toEqual([a, b]);
});

test('amount bounds are inclusive dollars', () => {
  expect(filterDeals([a, b], { ...NO_FILTERS, minAmount: '50' })).toEqual([a, b]);
  expect(filterDeals([a, b], { ...NO_FILTERS, minAmount: '50.01' })).toEqual([b]);
  expect(filterDeals([a, b], { ...NO_FILTERS, maxAmount: '500' })).toEqual([a, b]);
  expect(filterDeals([a, b], { ...NO_FILTERS, maxAmount: '499.99' })).toEqual([a]);
});

test('category must match; any chosen niche matches', () => {
  expect(filterDeals([a, b], { ...NO_FILTERS, category: 'Tutorial' })).toEqual([b]);
  expect(filterDeals([a, b], { ...NO_FILTERS, niches: ['Travel', 'Food'] })).toEqual([a, b]);
  expect(filterDeals([a, b], { ...NO_FILTERS, niches: ['Gaming'] })).toEqual([]);
});

test('non-Pro creators never get Pro-only deals; closed deals are not listed', () => {
  const closed = deal({ id: '0193a5b0-0000-7000-8000-00000000000d', status: 'completed' });
  expect(visibleToCreator([a, pro, closed], { isPro: false, isAdmin: false })).toEqual([a]);
  expect(visibleToCreator([a, pro, closed], { isPro: true, isAdmin: false })).toEqual([a, pro]);
  expect(visibleToCreator([a, pro], { isPro: false, isAdmin: true })).toEqual([a, pro]);
});
