import { describe, expect, test } from 'vitest';
import {
  dealSearchRequest,
  dealSortOrder,
  highlightParts,
  mergeHits,
  queryTerms,
  searchQueryString,
} from './search.ts';

describe('highlightParts', () => {
  test('marks every word that starts with a term, whatever its case, and nothing inside a word', () => {
    expect(highlightParts('Protein shake for protein fans; not reprotein', ['prot'])).toEqual([
      { text: 'Prot', match: true },
      { text: 'ein shake for ', match: false },
      { text: 'prot', match: true },
      { text: 'ein fans; not reprotein', match: false },
    ]);
  });

  test('the longest term wins where two start alike; every part together is the text', () => {
    const parts = highlightParts('Kayak kayaking trip', ['kayak', 'kayaking']);
    expect(parts.filter((p) => p.match).map((p) => p.text)).toEqual(['Kayak', 'kayaking']);
    expect(parts.map((p) => p.text).join('')).toBe('Kayak kayaking trip');
  });

  test('terms with regular-expression characters are text; no terms or no text mark nothing', () => {
    const parts = highlightParts('C++ (beginner) course', ['c++', '(beginner', '.*']);
    expect(parts.filter((p) => p.match).map((p) => p.text)).toEqual(['C++', '(beginner']);
    expect(highlightParts('Anything', [])).toEqual([{ text: 'Anything', match: false }]);
    expect(highlightParts('', ['a'])).toEqual([]);
  });

  test('letters beyond ASCII are word characters', () => {
    expect(highlightParts('Café Über', ['über']).filter((p) => p.match)).toEqual([{ text: 'Über', match: true }]);
  });
});

test('queryTerms: lower-cased distinct words, punctuation dropped, at most ten', () => {
  expect(queryTerms('  Kayak, KAYAK  trip!  ')).toEqual(['kayak', 'trip']);
  expect(queryTerms(Array.from({ length: 12 }, (_, i) => `w${i}`).join(' '))).toHaveLength(10);
  expect(queryTerms('...')).toEqual([]);
});

describe('mergeHits', () => {
  const deal = (id: string, created_at: string, amount_cents = 100) => ({ id, created_at, amount_cents });
  test("each result once, the device's copy winning and marked on the device; scored sorts keep each side's order", () => {
    const local = [deal('b', '2026-01-02'), deal('a', '2026-01-01')];
    const server = [{ ...deal('a', '2026-01-01'), stale: true }, deal('c', '2026-01-03')];
    const merged = mergeHits<{ id: string; created_at: string; amount_cents: number; stale?: boolean }>(local, server);
    expect(merged.map((h) => [h.item.id, h.onDevice])).toEqual([
      ['b', true],
      ['a', true],
      ['c', false],
    ]);
    expect(merged[1]!.item.stale).toBeUndefined();
  });

  test('a shared sort orders both sides together (newest, amount)', () => {
    const local = [deal('a', '2026-01-01', 500), deal('b', '2026-01-03', 100)];
    const server = [deal('c', '2026-01-02', 900)];
    expect(mergeHits(local, server, dealSortOrder('newest')).map((h) => h.item.id)).toEqual(['b', 'c', 'a']);
    expect(mergeHits(local, server, dealSortOrder('amount')).map((h) => h.item.id)).toEqual(['c', 'a', 'b']);
    expect(dealSortOrder('best')).toBeUndefined();
  });
});

describe('dealSearchRequest (the /api/search/deals query string)', () => {
  test('reads what searchQueryString writes, with defaults', () => {
    const query = searchQueryString({
      q: 'kayak trip',
      niches: ['Travel', 'Fitness'],
      min_cents: 5000,
      sort: 'amount',
    });
    expect(dealSearchRequest.parse(Object.fromEntries(new URLSearchParams(query)))).toEqual({
      q: 'kayak trip',
      niches: ['Travel', 'Fitness'],
      min_cents: 5000,
      sort: 'amount',
      offset: 0,
      limit: 20,
    });
  });

  test('refuses text past 200 characters, unknown sorts and keys, pages past the limits', () => {
    for (const bad of [
      { q: 'a'.repeat(201) },
      { sort: 'cheapest' },
      { limit: '51' },
      { offset: '1001' },
      { min_cents: '-5' },
      { page: '2' },
    ])
      expect(dealSearchRequest.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
  });
});
