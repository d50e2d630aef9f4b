import { describe, expect, test } from 'vitest';
import { createSearchService } from './search-service.ts';
import type { SearchableCreator, SearchableDeal } from './worker-api.ts';

const NOW = Date.parse('2026-11-22T12:00:00.000Z');
const deal = (id: string, over: Partial<SearchableDeal> = {}): SearchableDeal => ({
  id,
  brand_id: 'brand-1',
  title: 'A sponsorship',
  description: 'Post about our product.',
  brand_name: 'Acme',
  niches: ['Fitness'],
  platforms: [],
  deliverables: [],
  category: null,
  amount_cents: 10_000,
  pro_only: false,
  status: 'open',
  created_at: '2026-11-01T00:00:00.000Z',
  ...over,
});

function service(deals: SearchableDeal[]) {
  const s = createSearchService();
  s.indexDeals(deals, []);
  return s;
}
const ids = (answer: { matches: { id: string }[] }) => answer.matches.map((m) => m.id);
const base = { sort: 'best' as const, limit: 50, now: NOW };

describe('the device search over deals', () => {
  const deals = [
    deal('title', { title: 'Kayak gear review', created_at: '2026-11-03T00:00:00.000Z', amount_cents: 30_000 }),
    deal('description', { description: 'Take our kayak to the lake', amount_cents: 90_000, niches: ['Travel'] }),
    deal('deliverable', { deliverables: ['Three kayaking reels'], created_at: '2026-11-02T00:00:00.000Z' }),
    deal('brand', { brand_name: 'Zephyrine Outdoors', category: 'Product Review', amount_cents: 50_000 }),
    deal('niche', { title: 'Morning routine', niches: ['Wellness'], created_at: '2026-11-04T00:00:00.000Z' }),
  ];

  test('finds by title, description, deliverables, brand name and niche; title matches rank first', () => {
    const s = service(deals);
    const kayak = s.searchDeals({ ...base, q: 'kayak' });
    expect(ids(kayak)[0]).toBe('title');
    expect(new Set(ids(kayak))).toEqual(new Set(['title', 'description', 'deliverable']));
    expect(kayak.total).toBe(3);
    expect(ids(s.searchDeals({ ...base, q: 'zephyrine' }))).toEqual(['brand']);
    expect(ids(s.searchDeals({ ...base, q: 'wellness' }))).toEqual(['niche']);
  });

  test('as one types: a prefix finds the word, and the matched words come back for highlighting', () => {
    const s = service(deals);
    const answer = s.searchDeals({ ...base, q: 'kaya' });
    expect(answer.matches.find((m) => m.id === 'deliverable')?.terms).toContain('kayaking');
    // A single letter is no prefix yet (it would expand to much of the vocabulary); earlier words are whole.
    expect(s.searchDeals({ ...base, q: 'k' }).total).toBe(0);
    expect(ids(s.searchDeals({ ...base, q: 'kayak gea' }))).toEqual(['title']);
    // Every word must match (AND).
    expect(ids(s.searchDeals({ ...base, q: 'kayak lake' }))).toEqual(['description']);
    // A longer word forgives a typo.
    expect(ids(s.searchDeals({ ...base, q: 'zephyrene' }))).toEqual(['brand']);
  });

  test('combines the text with the filters, and sorts', () => {
    const s = service(deals);
    expect(ids(s.searchDeals({ ...base, q: 'kayak', niches: ['travel'] }))).toEqual(['description']);
    expect(ids(s.searchDeals({ ...base, q: 'kayak', minCents: 20_000, maxCents: 40_000 }))).toEqual(['title']);
    expect(ids(s.searchDeals({ ...base, q: '', category: 'Product Review' }))).toEqual(['brand']);
    expect(ids(s.searchDeals({ ...base, q: 'kayak', sort: 'amount' }))).toEqual([
      'description',
      'title',
      'deliverable',
    ]);
    // No text: every deal, newest first; the limit bounds the answer, not the total.
    const all = s.searchDeals({ ...base, q: '', limit: 2 });
    expect(ids(all)).toEqual(['niche', 'title']);
    expect(all.total).toBe(5);
  });

  test('recommended: the matches in the order of the recommendation score', () => {
    const s = service(deals);
    const creator = { id: 'c', niches: ['Travel'], min_deal_amount_cents: 80_000 };
    expect(ids(s.searchDeals({ ...base, q: 'kayak', sort: 'recommended', creator }))[0]).toBe('description');
  });

  test('a changed deal is found by its new text only; a removed one is gone; reset empties', () => {
    const s = service(deals);
    s.indexDeals([deal('title', { title: 'Canoe gear review' })], ['niche']);
    expect(ids(s.searchDeals({ ...base, q: 'canoe' }))).toEqual(['title']);
    expect(ids(s.searchDeals({ ...base, q: 'kayak' }))).not.toContain('title');
    expect(s.searchDeals({ ...base, q: 'wellness' }).total).toBe(0);
    expect(s.indexDeals([], [], true)).toEqual({ count: 0 });
    expect(s.searchDeals({ ...base, q: '' }).total).toBe(0);
  });
});

test('the device search over creators: name, niche, region; filters by followers, region and rating; never a brand', () => {
  const creator = (id: string, over: Partial<SearchableCreator>): SearchableCreator => ({
    id,
    role: 'creator',
    name: 'Someone',
    username: null,
    bio: '',
    niches: [],
    region: null,
    followers: 1_000,
    rating: 0,
    ...over,
  });
  const s = createSearchService();
  s.indexCreators(
    [
      creator('marisol', {
        name: 'Marisol Quintero',
        niches: ['Cooking'],
        region: 'Spain',
        followers: 52_000,
        rating: 4.6,
      }),
      creator('theo', {
        name: 'Theo Brandt',
        niches: ['Cooking', 'Travel'],
        region: 'Germany',
        followers: 9_000,
        rating: 3.9,
      }),
      creator('brand', { role: 'brand', name: 'Marisol Foods', niches: ['Cooking'] }),
    ],
    [],
  );
  const find = (q: object) => ids(s.searchCreators({ q: '', sort: 'best', limit: 50, now: NOW, ...q }));
  expect(find({ q: 'marisol' })).toEqual(['marisol']);
  expect(find({ q: 'cooking', sort: 'followers' })).toEqual(['marisol', 'theo']);
  expect(find({ q: 'cook', minFollowers: 10_000 })).toEqual(['marisol']);
  expect(find({ region: 'germany' })).toEqual(['theo']);
  expect(find({ niches: ['Cooking'], minRating: 4.5 })).toEqual(['marisol']);
  expect(find({ sort: 'rating' })).toEqual(['marisol', 'theo']);
});
