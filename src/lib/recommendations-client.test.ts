import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  startBrowserRecommendationsHarness,
  type BrowserRecommendationsHarness,
} from '../../tests/support/recommendations-browser-harness.ts';
import {
  DAY_MS,
  recommendDeals,
  type BrandInput,
  type CreatorInput,
  type DealInput,
} from '../domain/recommendation.ts';
import type { LoadSummary, ScoreDealsOptions, ScoredId } from '../../workers/worker-api.ts';

// The client as the app ships it: bundled by Vite, in Chromium, with a real module worker.
const NOW = Date.parse('2026-11-22T12:00:00.000Z');
const brands: BrandInput[] = [
  { id: 'brand-pro', rating: 4.5, total_deals: 11, pro_tier: 'basic', pro_until: '2027-01-01T00:00:00.000Z' },
];
const deals: DealInput[] = Array.from({ length: 40 }, (_, i) => ({
  id: `deal-${String(i).padStart(2, '0')}`,
  brand_id: i % 2 ? 'brand-pro' : 'brand-other',
  amount_cents: 5_000 + i * 2_500,
  niches: i % 3 ? ['Fitness'] : ['Travel'],
  platforms: i % 4 ? [] : ['Instagram'],
  pro_only: i % 10 === 0,
  status: i % 7 === 0 ? 'completed' : 'open',
  created_at: new Date(NOW - i * DAY_MS).toISOString(),
}));
const creator: CreatorInput = {
  id: 'creator-1',
  niches: ['fitness'],
  platforms: ['Instagram'],
  min_deal_amount_cents: 20_000,
  max_deal_amount_cents: 60_000,
};

// The functions the page exposes (src/lib/recommendations-client.ts runs in the page, not in this process).
interface Client {
  loadDeals(deals: DealInput[], brands: BrandInput[]): Promise<LoadSummary>;
  scoreDealsFor(creator: CreatorInput, options: ScoreDealsOptions): Promise<ScoredId[]>;
  disposeRecommendationsWorker(): Promise<void>;
}

// Generous timeouts: a Vite build and a browser on a busy shared machine, not a speed check.
describe('recommendations client in Chromium', { timeout: 30_000 }, () => {
  let harness: BrowserRecommendationsHarness;
  beforeAll(async () => {
    harness = await startBrowserRecommendationsHarness();
  }, 60_000);
  afterAll(async () => {
    await harness?.close();
  });

  test('the first calls wait for the worker handshake and run in order; answers match the pure scoring', async () => {
    const answer = await harness.page.evaluate(
      async ({ deals, brands, creator, now }) => {
        const client = (globalThis as unknown as { recommendations: Client }).recommendations;
        // Not awaited on purpose: both calls are issued while the worker is still starting.
        const loaded = client.loadDeals(deals, brands);
        const ranked = client.scoreDealsFor(creator, { now, limit: 5, skippedDealIds: ['deal-01'] });
        return { loaded: await loaded, ranked: await ranked };
      },
      { deals, brands, creator, now: NOW },
    );
    expect(answer.loaded).toEqual({ count: 40 });
    const expected = recommendDeals(
      creator,
      deals,
      { brands: new Map(brands.map((b) => [b.id, b])), skippedDealIds: ['deal-01'] },
      { now: NOW, limit: 5 },
    );
    expect(answer.ranked).toEqual(expected.map((r) => ({ id: r.item.id, score: r.score })));
    expect(answer.ranked).toHaveLength(5);
  });

  test('a large load goes in chunks and every document is ranked, as by the pure scoring', async () => {
    // 2,500 deals: three messages of at most 1,000 (LOAD_CHUNK_SIZE); 1,200 brands: the last brand
    // (rated 5, Pro) travels in the second message.
    const manyBrands: BrandInput[] = Array.from({ length: 1_200 }, (_, i) => ({
      id: `filler-brand-${String(i).padStart(4, '0')}`,
      rating: 1,
    }));
    manyBrands.push({ id: 'brand-late', rating: 5, total_deals: 11, pro_tier: 'premium', pro_until: null });
    const many: DealInput[] = Array.from({ length: 2_500 }, (_, i) => ({
      id: `bulk-${String((i * 7919) % 2_500).padStart(4, '0')}`,
      brand_id: i % 3 ? 'brand-late' : 'brand-other',
      amount_cents: 10_000 + (i % 11) * 5_000,
      niches: i % 5 ? ['Food'] : ['Fitness'],
      status: 'open',
      created_at: new Date(NOW - (i % 9) * DAY_MS).toISOString(),
    }));
    const answer = await harness.page.evaluate(
      async ({ many, manyBrands, creator, now }) => {
        const client = (globalThis as unknown as { recommendations: Client }).recommendations;
        const loaded = await client.loadDeals(many, manyBrands);
        return { loaded, ranked: await client.scoreDealsFor(creator, { now, limit: 3_000 }) };
      },
      { many, manyBrands, creator, now: NOW },
    );
    expect(answer.loaded).toEqual({ count: 2_500 });
    const expected = recommendDeals(
      creator,
      many,
      { brands: new Map(manyBrands.map((b) => [b.id, b])) },
      { now: NOW, limit: 3_000 },
    );
    expect(answer.ranked).toEqual(expected.map((r) => ({ id: r.item.id, score: r.score })));
    // The late brand's deals lead: rated 5 and Pro, so they were scored with the second message's brand.
    expect(expected[0]!.item.brand_id).toBe('brand-late');
  });

  test('the worker is a separate bundle loaded by the page, not scoring code in the main bundle', async () => {
    const scripts = await harness.page.evaluate(() =>
      performance.getEntriesByType('resource').map((entry) => entry.name),
    );
    expect(scripts.some((name) => /recommendations\.worker-[\w-]+\.js$/.test(name))).toBe(true);
  });

  test('a worker error reaches the caller; after dispose the next call gets a fresh worker', async () => {
    const outcome = await harness.page.evaluate(
      async ({ creator, now }) => {
        const client = (globalThis as unknown as { recommendations: Client }).recommendations;
        const before = await client.scoreDealsFor(creator, { now }).then(
          (r) => r.length,
          (e: Error) => e.message,
        );
        await client.disposeRecommendationsWorker();
        const after = await client.scoreDealsFor(creator, { now }).then(
          (r) => `answered ${r.length}`,
          (e: Error) => e.message,
        );
        return { before, after };
      },
      { creator, now: NOW },
    );
    // Data loaded by the first test is still there; a fresh worker has none and says so.
    expect(typeof outcome.before).toBe('number');
    expect(outcome.after).toMatch(/loadDeals\(\) must be called before scoreDealsFor\(\)/);
  });
});
