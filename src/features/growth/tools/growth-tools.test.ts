import { expect, test } from 'vitest';
import { brandAnalytics, creatorAnalytics } from './analytics-model.ts';
import { brandMatches } from './brand-matching-model.ts';
import { calendarEvents, deadlineDay, monthGrid } from './calendar-model.ts';
import { lastMonths, percentChange } from './month-series.ts';
import { performance } from './performance-model.ts';

const now = new Date('2026-11-23T12:00:00Z');
const me = 'me';
const deal = (over: Record<string, unknown>) =>
  ({
    id: 'd',
    title: 'Deal',
    brand_id: 'b1',
    amount_cents: 10_000,
    niches: ['Fitness'],
    platforms: [],
    pro_only: false,
    status: 'open',
    winner_id: null,
    completed_at: null,
    created_at: '2026-11-01T00:00:00Z',
    deadline: null,
    selected_creator_ids: [],
    ...over,
  }) as never;

test('months run oldest first up to the current one; changes need a base', () => {
  expect(lastMonths(now, 3)).toEqual(['2026-09', '2026-10', '2026-11']);
  expect(percentChange(0, 5)).toBeNull();
  expect(percentChange(200, 300)).toBe(50);
});

test('creator analytics: applications, acceptance rate, earnings by month after commission, niche comparison', () => {
  const a = creatorAnalytics(me, {
    applications: [
      { deal_id: 'd1', creator_id: me, status: 'accepted', created_at: '2026-10-01T00:00:00Z' },
      { deal_id: 'd2', creator_id: me, status: 'rejected', created_at: '2026-10-02T00:00:00Z' },
      { deal_id: 'd3', creator_id: me, status: 'pending', created_at: '2026-10-03T00:00:00Z' },
      { deal_id: 'd4', creator_id: 'other', status: 'accepted', created_at: '2026-10-03T00:00:00Z' },
    ],
    deals: [
      deal({
        id: 'd1',
        status: 'completed',
        winner_id: me,
        completed_at: '2026-11-05T00:00:00Z',
        amount_cents: 100_000,
      }),
      deal({
        id: 'd5',
        status: 'completed',
        winner_id: me,
        completed_at: '2026-10-05T00:00:00Z',
        amount_cents: 50_000,
      }),
      deal({ id: 'o1', amount_cents: 30_000 }),
      deal({ id: 'o2', amount_cents: 10_000, niches: ['Gaming'] }),
    ],
    niches: ['Fitness'],
    isPro: false,
    now,
  });
  expect(a).toMatchObject({
    applications: 3,
    accepted: 1,
    // The rate is out of the answered applications (the pending one is not one of them).
    decided: 2,
    acceptanceRate: 0.5,
    totalEarningsCents: 95_000 + 47_500,
    earningsTrend: 100,
  });
  expect(a.earningsByMonth.map((m) => m.value)).toEqual([0, 0, 0, 0, 47_500, 95_000]);
  expect(a.niche).toEqual({ mineCents: 75_000, nicheCents: 30_000 });
});

test('brand analytics: deals, applicants per deal, spend with the service fee, time to first applicant', () => {
  const b = brandAnalytics('b1', {
    deals: [
      deal({ id: 'd1', created_at: '2026-11-01T00:00:00Z' }),
      deal({ id: 'd2', created_at: '2026-11-02T00:00:00Z', status: 'completed', completed_at: '2026-11-10T00:00:00Z' }),
      deal({ id: 'x', brand_id: 'b2' }),
    ],
    applications: [
      { deal_id: 'd1', creator_id: 'c1', status: 'pending', created_at: '2026-11-01T02:00:00Z' },
      { deal_id: 'd1', creator_id: 'c2', status: 'pending', created_at: '2026-11-01T10:00:00Z' },
      { deal_id: 'd2', creator_id: 'c1', status: 'accepted', created_at: '2026-11-02T04:00:00Z' },
    ],
    niches: ['Fitness'],
    now,
  });
  expect(b).toMatchObject({ deals: 2, totalSpendCents: 11_200, hoursToFirstApplicant: 3, dealsTrend: null });
  expect(b.applicantsPerDeal).toEqual([
    { title: 'Deal', value: 1 },
    { title: 'Deal', value: 2 },
  ]);
  expect(b.niche.nicheCents).toBe(10_000);
});

test('performance: completed deals, rating per month, average response time', () => {
  const p = performance(me, {
    // Selected on a campaign won by another creator counts too (as profiles.completed_deals does).
    deals: [
      deal({ status: 'completed', winner_id: me, selected_creator_ids: [me] }),
      deal({ status: 'completed', winner_id: 'x', selected_creator_ids: ['x', me] }),
      deal({ status: 'completed', winner_id: 'x', selected_creator_ids: ['x'] }),
    ],
    reviews: [
      { reviewee_id: me, rating: 4, created_at: '2026-10-03T00:00:00Z' },
      { reviewee_id: me, rating: 5, created_at: '2026-11-03T00:00:00Z' },
      { reviewee_id: me, rating: 3, created_at: '2026-11-04T00:00:00Z' },
    ],
    messages: [
      { conversation_id: 'c', sender_id: 'x', recipient_id: me, created_at: '2026-11-01T10:00:00Z' },
      { conversation_id: 'c', sender_id: 'x', recipient_id: me, created_at: '2026-11-01T10:30:00Z' },
      { conversation_id: 'c', sender_id: me, recipient_id: 'x', created_at: '2026-11-01T11:00:00Z' },
      { conversation_id: 'c', sender_id: 'x', recipient_id: me, created_at: '2026-11-02T10:00:00Z' },
      { conversation_id: 'c', sender_id: me, recipient_id: 'x', created_at: '2026-11-02T10:20:00Z' },
    ],
    now,
  });
  expect(p).toMatchObject({ completedDeals: 2, averageRating: 4, responseMinutes: 40, replies: 2 });
  expect(p.ratingByMonth.slice(-2).map((m) => m.value)).toEqual([4, 4]);
});

test('brand matching: open deals sharing a niche inside the creator range, brands by their best score', () => {
  const creator = { id: me, niches: ['Fitness'], min_deal_amount_cents: 5_000, max_deal_amount_cents: 50_000 };
  const brands = new Map([
    [
      'b1',
      {
        id: 'b1',
        full_name: 'Acme',
        username: null,
        rating: 4,
        verified: true,
        total_deals: 3,
        pro_tier: 'free',
        pro_until: null,
      },
    ],
    [
      'b2',
      {
        id: 'b2',
        full_name: 'Zen',
        username: null,
        rating: 1,
        verified: false,
        total_deals: 3,
        pro_tier: 'free',
        pro_until: null,
      },
    ],
  ]) as never;
  const matches = brandMatches(
    creator,
    [
      deal({ id: 'a', brand_id: 'b2', amount_cents: 20_000 }),
      deal({ id: 'b', brand_id: 'b1', amount_cents: 20_000 }),
      deal({ id: 'c', brand_id: 'b1', amount_cents: 90_000 }),
      deal({ id: 'd', brand_id: 'b1', niches: ['Gaming'] }),
      deal({ id: 'e', brand_id: 'b1', status: 'completed' }),
    ],
    brands,
    now,
  );
  expect(matches.map((m) => [m.brandId, m.deals.map((d) => d.id)])).toEqual([
    ['b1', ['b']],
    ['b2', ['a']],
  ]);
});

test("content calendar: deadlines that read as dates, a Monday-first month grid, the user's own deals", () => {
  const published = '2026-11-10T09:00:00Z';
  expect(deadlineDay('2026-12-01')).toEqual({ day: '2026-12-01', estimated: false });
  expect(deadlineDay('Dec 5, 2026')).toEqual({ day: '2026-12-05', estimated: false });
  expect(deadlineDay('Within 2 weeks', published)).toEqual({ day: '2026-11-24', estimated: true });
  expect(deadlineDay('Within 30 days', published)?.day).toBe('2026-12-10');
  expect(deadlineDay('End of next month', published)?.day).toBe('2026-12-31');
  expect(deadlineDay('Before the holidays', published)?.day).toBe('2026-12-24');
  expect(deadlineDay('Flexible', published, '1 month')?.day).toBe('2026-12-10');
  expect(deadlineDay('Flexible', published)).toBeNull();
  expect(deadlineDay('ASAP')).toBeNull();
  const grid = monthGrid(2026, 11); // 1 Nov 2026 is a Sunday
  expect(grid[0]).toEqual([null, null, null, null, null, null, '2026-11-01']);
  expect(grid.flat().filter(Boolean)).toHaveLength(30);
  const events = calendarEvents(me, 'creator', [
    deal({ id: 'a', title: 'A', deadline: '2026-11-20', selected_creator_ids: [me] }),
    deal({ id: 'b', title: 'B', deadline: 'soon', created_at: null, selected_creator_ids: [me] }),
    deal({ id: 'c', title: 'C', deadline: '2026-11-21' }),
    deal({ id: 'd', title: 'D', deadline: '2026-11-22', selected_creator_ids: [me], status: 'cancelled' }),
  ]);
  expect(events.dated.map((e) => e.dealId)).toEqual(['a']);
  expect(events.undated.map((e) => e.dealId)).toEqual(['b']);
  expect(calendarEvents('b1', 'brand', [deal({ id: 'c', deadline: '2026-11-21' })]).dated).toHaveLength(1);
});
