import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  startNodeRecommendationsWorker,
  type NodeRecommendationsWorker,
} from '../tests/support/recommendations-node-worker.ts';
import {
  DAY_MS,
  recommendCreators,
  recommendDeals,
  type BrandInput,
  type CreatorInput,
  type DealInput,
} from '../src/domain/recommendation.ts';
import { createRecommendationsService } from './recommendations-service.ts';

// The real worker module, through Comlink, in a Node worker thread: what crosses the boundary
// (structured clone both ways) and what comes back must match the pure functions.
const NOW = Date.parse('2026-11-22T12:00:00.000Z');
const FUTURE = '2027-01-01T00:00:00.000Z';

const brands: BrandInput[] = [
  { id: 'brand-pro', rating: 4.5, total_deals: 11, pro_tier: 'basic', pro_until: FUTURE },
  { id: 'brand-plain', rating: 3, total_deals: 10, pro_tier: 'free' },
];

const deals: DealInput[] = [
  {
    id: 'fresh',
    brand_id: 'brand-plain',
    amount_cents: 30_000,
    niches: ['Travel'],
    platforms: [],
    status: 'open',
    created_at: new Date(NOW - DAY_MS).toISOString(),
  },
  {
    id: 'pro-brand',
    brand_id: 'brand-pro',
    amount_cents: 30_000,
    niches: ['Travel'],
    platforms: [],
    status: 'open',
    created_at: new Date(NOW - 30 * DAY_MS).toISOString(),
  },
  {
    id: 'pro-only',
    brand_id: 'brand-plain',
    amount_cents: 30_000,
    niches: ['Fitness'],
    pro_only: true,
    status: 'open',
    created_at: new Date(NOW - 30 * DAY_MS).toISOString(),
  },
  {
    id: 'closed',
    brand_id: 'brand-plain',
    amount_cents: 30_000,
    niches: ['Fitness'],
    status: 'completed',
    created_at: new Date(NOW - DAY_MS).toISOString(),
  },
  {
    id: 'skipped',
    brand_id: 'brand-plain',
    amount_cents: 30_000,
    niches: ['Fitness'],
    status: 'open',
    created_at: new Date(NOW - DAY_MS).toISOString(),
  },
];

const creator: CreatorInput = {
  id: 'creator-1',
  role: 'creator',
  niches: ['Fitness', 'Food'],
  platforms: ['Instagram'],
  rating: 4,
  completed_deals: 6,
  engagement_rate: 0.06,
  pro_tier: 'free',
  min_deal_amount_cents: 10_000,
  max_deal_amount_cents: 50_000,
};
const creators: CreatorInput[] = [
  creator,
  { ...creator, id: 'creator-pro', pro_tier: 'premium', pro_until: FUTURE },
  { ...creator, id: 'creator-new', completed_deals: 0, engagement_rate: 0.01 },
];

describe('recommendations worker through Comlink (Node worker thread)', { timeout: 30_000 }, () => {
  let worker: NodeRecommendationsWorker;
  beforeAll(async () => {
    worker = await startNodeRecommendationsWorker();
  }, 30_000);
  afterAll(async () => {
    await worker?.terminate();
  });

  test('answers the ready handshake', async () => {
    expect(await worker.api.ready()).toBe('ready');
  });

  test('refuses to score before data is loaded instead of answering "nothing to recommend"', async () => {
    const fresh = await startNodeRecommendationsWorker();
    try {
      await expect(fresh.api.scoreDealsFor(creator, { now: NOW })).rejects.toThrow(/loadDeals\(\) must be called/);
      await expect(fresh.api.scoreCreatorsFor(deals[0]!, { now: NOW })).rejects.toThrow(
        /loadCreators\(\) must be called/,
      );
    } finally {
      await fresh.terminate();
    }
  }, 30_000);

  test('ranks the loaded deals for a creator: ids and scores, best first, same as the pure function', async () => {
    expect(await worker.api.loadDeals(deals, brands)).toEqual({ count: 5 });
    const ranked = await worker.api.scoreDealsFor(creator, { now: NOW, skippedDealIds: ['skipped'] });
    // pro-brand: (45 + 25) × 1.2 + 10 = 94; fresh: 30 + 25 + 15 = 70; pro-only hidden from a non-Pro creator
    expect(ranked).toEqual([
      { id: 'pro-brand', score: 94 },
      { id: 'fresh', score: 70 },
    ]);
    const expected = recommendDeals(
      creator,
      deals,
      { brands: new Map(brands.map((b) => [b.id, b])), skippedDealIds: ['skipped'] },
      { now: NOW },
    );
    expect(ranked).toEqual(expected.map((r) => ({ id: r.item.id, score: r.score })));
  });

  test('accepts now as an ISO string or a Date, and the limit', async () => {
    await worker.api.loadDeals(deals, brands);
    const proCreator = { ...creator, pro_tier: 'premium', pro_until: FUTURE };
    const iso = await worker.api.scoreDealsFor(proCreator, {
      now: new Date(NOW).toISOString(),
      limit: 2,
      appliedDealIds: ['fresh'],
    });
    // pro-only: 30 + 20 + 25 = 75 (more than 7 days old, plain brand); skipped: 30 + 20 + 25 + 15 = 90
    expect(iso).toEqual([
      { id: 'pro-brand', score: 94 },
      { id: 'skipped', score: 90 },
    ]);
    expect(
      await worker.api.scoreDealsFor(proCreator, { now: new Date(NOW), limit: Infinity, appliedDealIds: ['fresh'] }),
    ).toHaveLength(3);
  });

  test('ranks the loaded creators for a deal; a new load replaces the previous one', async () => {
    expect(await worker.api.loadCreators(creators)).toEqual({ count: 3 });
    const deal = deals[2]!; // pro-only, niches Fitness, $300
    expect(await worker.api.scoreCreatorsFor(deal, { now: NOW })).toEqual([{ id: 'creator-pro', score: 127 }]); // (40 + 20 + 25) × 1.2 = 102, + 10 + 15
    const open = { ...deal, pro_only: false };
    const ranked = await worker.api.scoreCreatorsFor(open, { now: NOW, excludeCreatorIds: ['creator-1'] });
    expect(ranked).toEqual(
      recommendCreators(open, creators, { excludeCreatorIds: ['creator-1'] }, { now: NOW }).map((r) => ({
        id: r.item.id,
        score: r.score,
      })),
    );
    expect(ranked.map((r) => r.id)).toEqual(['creator-pro', 'creator-new']);
    expect(await worker.api.loadCreators([creators[2]!])).toEqual({ count: 1 });
    expect((await worker.api.scoreCreatorsFor(open, { now: NOW })).map((r) => r.id)).toEqual(['creator-new']);
  });
});

describe('recommendations service (the object the worker exposes)', () => {
  test('a load may arrive in chunks: appended deals, creators and brands are all ranked', () => {
    const service = createRecommendationsService();
    expect(() => service.appendDeals([deals[0]!])).toThrow(/loadDeals\(\) must be called before appendDeals\(\)/);
    expect(() => service.appendCreators([creator])).toThrow(
      /loadCreators\(\) must be called before appendCreators\(\)/,
    );
    expect(service.loadDeals([deals[1]!], [])).toEqual({ count: 1 });
    expect(service.appendDeals([deals[0]!], [brands[1]!])).toEqual({ count: 2 });
    expect(service.appendDeals([], [brands[0]!])).toEqual({ count: 2 });
    // same as loading everything at once: pro-brand 94, fresh 70
    expect(service.scoreDealsFor(creator, { now: NOW })).toEqual([
      { id: 'pro-brand', score: 94 },
      { id: 'fresh', score: 70 },
    ]);
    service.loadCreators([creators[2]!]);
    service.appendCreators([creators[0]!, creators[1]!]);
    expect(
      service.scoreCreatorsFor({ ...deals[2]!, pro_only: false }, { now: NOW, limit: Infinity }).map((r) => r.id),
    ).toEqual(['creator-pro', 'creator-1', 'creator-new']);
  });

  test('keeps deals and brands from the last load only', () => {
    const service = createRecommendationsService();
    service.loadDeals(deals, brands);
    service.loadDeals([deals[1]!], []);
    // brand-pro is no longer known: rating 0, not Pro, no volume bonus → only the amount fit 25
    expect(service.scoreDealsFor(creator, { now: NOW })).toEqual([{ id: 'pro-brand', score: 25 }]);
  });
});
