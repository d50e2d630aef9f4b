import { expect, test } from 'vitest';
import {
  creatorSearchParams,
  dealSearchParams,
  isNewHistoryEntry,
  readCreatorSearch,
  readDealSearch,
} from './search-params.ts';

test('a deal search round-trips through the address, defaults left out', () => {
  const state = {
    q: 'kayak trip',
    sort: 'amount' as const,
    filters: { category: 'Product Review', minAmount: '50', maxAmount: '', niches: ['Travel', 'Fitness'] },
  };
  const params = dealSearchParams(state);
  expect(params.toString()).toBe('q=kayak+trip&category=Product+Review&min=50&niches=Travel%2CFitness&sort=amount');
  expect(readDealSearch(params)).toEqual(state);
  expect(dealSearchParams(readDealSearch(new URLSearchParams())).toString()).toBe('');
});

test('an unknown sort reads as best match; text past 200 characters is cut', () => {
  const read = readDealSearch(new URLSearchParams({ sort: 'cheapest', q: 'x'.repeat(300) }));
  expect(read.sort).toBe('best');
  expect(read.q).toHaveLength(200);
});

test('a creator search round-trips through the address', () => {
  const state = {
    q: 'marisol',
    sort: 'followers' as const,
    niches: ['Cooking'],
    minFollowers: '10000',
    region: 'Spain',
    minRating: '4',
  };
  expect(readCreatorSearch(creatorSearchParams(state))).toEqual(state);
});

test('starting and clearing a search are history entries; further letters are not', () => {
  expect(isNewHistoryEntry({ q: '' }, { q: 'k' })).toBe(true);
  expect(isNewHistoryEntry({ q: 'k' }, { q: 'ka' })).toBe(false);
  expect(isNewHistoryEntry({ q: 'ka' }, { q: '' })).toBe(true);
});
