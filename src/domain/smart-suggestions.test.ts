import { expect, test } from 'vitest';
import { MAX_SUGGESTIONS, seededRandom, smartSuggestions, type SuggestionInput } from './smart-suggestions.ts';

const complete = {
  role: 'creator',
  full_name: 'Maya',
  bio: 'Trail runner and outdoor filmmaker sharing honest gear reviews weekly.',
  niches: ['Outdoors', 'Fitness'],
  social_links: { instagram: 'https://instagram.com/maya' },
};
const base: SuggestionInput = {
  userId: 'user-1',
  day: '2026-11-23',
  role: 'creator',
  profile: complete,
  completedDealAmountsCents: [],
  openDeals: [],
  activityCount: 3,
};
const deal = (id: string, dollars: number, niches = ['Outdoors']) => ({
  id,
  title: `Deal ${id}`,
  amount_cents: dollars * 100,
  niches,
});

test('nothing to suggest for a complete, active profile with no completed deals', () => {
  expect(smartSuggestions(base)).toEqual([]);
});

test('profile gaps come first (high), then the first step (medium)', () => {
  const list = smartSuggestions({
    ...base,
    profile: { ...complete, bio: 'short', niches: ['Outdoors'] },
    activityCount: 0,
  });
  expect(list.map((s) => [s.id, s.priority])).toEqual([
    ['profile-bio', 'high'],
    ['profile-niches', 'high'],
    ['first-application', 'medium'],
  ]);
});

test('staff are not asked to complete a member profile', () => {
  const admin = { ...complete, role: 'admin', bio: '', niches: [] };
  expect(smartSuggestions({ ...base, role: 'brand', profile: admin }).map((s) => s.kind)).not.toContain('profile');
});

test('deal suggestions are open deals at 80–120% of the average completed deal, niche matches first', () => {
  const list = smartSuggestions({
    ...base,
    completedDealAmountsCents: [40_000, 60_000], // average $500
    openDeals: [deal('a', 390), deal('b', 610), deal('c', 450, ['Gaming']), deal('d', 520), deal('e', 480)],
  });
  const deals = list.filter((s) => s.kind === 'deal');
  expect(deals).toHaveLength(2);
  for (const s of deals) expect(['d', 'e']).toContain(s.to.replace('/deals/', ''));
  expect(list.some((s) => s.kind === 'budget')).toBe(false); // $500 is not above $500
});

test('a budget tip when the average exceeds $500; priorities high → medium → low; at most 5', () => {
  const list = smartSuggestions({
    ...base,
    profile: { ...complete, full_name: '', bio: '', niches: [], social_links: {} },
    completedDealAmountsCents: [50_100],
    openDeals: [deal('x', 501)],
    activityCount: 0,
  });
  expect(list).toHaveLength(MAX_SUGGESTIONS);
  const order = { high: 0, medium: 1, low: 2 };
  expect(list.map((s) => order[s.priority])).toEqual([...list.map((s) => order[s.priority])].sort());
  const brand = smartSuggestions({ ...base, role: 'brand', profile: null, completedDealAmountsCents: [90_000] });
  expect(brand.map((s) => [s.kind, s.priority])).toEqual([
    ['deal', 'medium'],
    ['budget', 'low'],
  ]);
});

test('the same user and day give the same suggestions; the amount stays within 80–120%', () => {
  const input = { ...base, role: 'brand' as const, profile: null, completedDealAmountsCents: [100_000] };
  expect(smartSuggestions(input)).toEqual(smartSuggestions({ ...input }));
  const amounts = new Set<string>();
  for (let d = 1; d <= 28; d++) {
    const text = smartSuggestions({ ...input, day: `2026-02-${String(d).padStart(2, '0')}` })[0]!.text;
    const dollars = Number(/\$([\d,]+)/.exec(text)![1]!.replace(/,/g, ''));
    expect(dollars).toBeGreaterThanOrEqual(800);
    expect(dollars).toBeLessThanOrEqual(1200);
    amounts.add(text);
  }
  expect(amounts.size).toBeGreaterThan(1);
});

test('the generator is seeded', () => {
  const a = seededRandom('x');
  const b = seededRandom('x');
  expect([a(), a(), a()]).toEqual([b(), b(), b()]);
});
