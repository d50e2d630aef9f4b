import { describe, expect, test } from 'vitest';
import {
  creatorsForDealNiches,
  DAY_MS,
  amountFitPoints,
  recommendCreators,
  recommendDeals,
  scoreCreatorForDeal,
  scoreDealForCreator,
  simpleMatchScore,
  type BrandInput,
  type CreatorInput,
  type DealInput,
} from './recommendation.ts';
import { dealDocument, profileDocument } from './collections/index.ts';
import { isProNow as isProActive } from './pro.ts';

// Every expected number below is worked out by hand in the comment next to it.
const NOW = Date.parse('2026-11-22T12:00:00.000Z');
const ago = (days: number) => new Date(NOW - days * DAY_MS).toISOString();
const FUTURE = '2027-01-01T00:00:00.000Z';

const creator: CreatorInput = {
  id: 'creator-1',
  role: 'creator',
  niches: ['Fitness', 'Food'],
  platforms: ['Instagram', 'TikTok'],
  region: 'Europe',
  followers: 12_000,
  engagement_rate: 0.04,
  completed_deals: 2,
  rating: 4,
  pro_tier: 'free',
  min_deal_amount_cents: 10_000, // $100
  max_deal_amount_cents: 50_000, // $500
};

const proBrand: BrandInput = { id: 'brand-pro', rating: 4.5, total_deals: 11, pro_tier: 'basic', pro_until: FUTURE };
const plainBrand: BrandInput = { id: 'brand-plain', rating: 3, total_deals: 10, pro_tier: 'free' };

function deal(overrides: Partial<DealInput> & { id: string }): DealInput {
  return {
    brand_id: plainBrand.id,
    amount_cents: 30_000,
    niches: ['Travel'],
    platforms: [],
    pro_only: false,
    status: 'open',
    created_at: ago(30),
    ...overrides,
  };
}

describe('recommendation score of a deal for a creator', () => {
  test('adds every term and applies the Pro multiplier to the match sum before the flat bonuses', () => {
    const score = scoreDealForCreator(
      deal({
        id: 'd',
        brand_id: proBrand.id,
        niches: ['Fitness', 'Travel'],
        platforms: ['Instagram', 'YouTube'],
        created_at: ago(2),
      }),
      creator,
      proBrand,
      NOW,
    );
    // rating 4.5×10 = 45, one shared niche 20, one shared platform 15, $300 inside $100–$500 → 25
    // (45 + 20 + 15 + 25) × 1.2 = 126, + 10 (11 deals) + 15 (2 days old) = 151
    expect(score).toEqual({
      rating: 45,
      niches: 20,
      platforms: 15,
      amountFit: 25,
      proMultiplier: 1.2,
      brandVolume: 10,
      freshness: 15,
      total: 151,
    });
  });

  test('the same deal from a non-Pro brand is not multiplied', () => {
    const nonPro = { ...proBrand, pro_tier: 'free' };
    const score = scoreDealForCreator(
      deal({ id: 'd', niches: ['Fitness', 'Travel'], platforms: ['Instagram', 'YouTube'], created_at: ago(2) }),
      creator,
      nonPro,
      NOW,
    );
    // 45 + 20 + 15 + 25 = 105, + 10 + 15 = 130
    expect(score.total).toBe(130);
  });

  test('a creator with no niches gets no niche points; every shared niche counts 20 once', () => {
    const d = deal({ id: 'd', niches: ['Fitness', 'Food', 'fitness'], platforms: ['TikTok'] });
    // plain brand: 3×10 = 30; platforms 15; fit 25; 10 deals → no bonus; 30 days old → no bonus
    expect(scoreDealForCreator(d, { ...creator, niches: [] }, plainBrand, NOW).total).toBe(30 + 0 + 15 + 25);
    // 'Fitness' and 'fitness' are one niche: two shared niches = 40
    expect(scoreDealForCreator(d, creator, plainBrand, NOW).niches).toBe(40);
    expect(scoreDealForCreator(d, { ...creator, niches: null }, plainBrand, NOW).niches).toBe(0);
  });

  test('brand with exactly 10 deals gets no bonus, with 11 it gets +10', () => {
    const d = deal({ id: 'd' });
    expect(scoreDealForCreator(d, creator, { ...plainBrand, total_deals: 10 }, NOW).brandVolume).toBe(0);
    expect(scoreDealForCreator(d, creator, { ...plainBrand, total_deals: 11 }, NOW).brandVolume).toBe(10);
    // 30 + 0 niches + 0 platforms + 25 + 10 = 65
    expect(scoreDealForCreator(d, creator, { ...plainBrand, total_deals: 11 }, NOW).total).toBe(65);
  });

  test('a deal exactly 7 days old gets no freshness bonus, one 6.99 days old gets +15', () => {
    expect(scoreDealForCreator(deal({ id: 'd', created_at: ago(7) }), creator, plainBrand, NOW).freshness).toBe(0);
    expect(scoreDealForCreator(deal({ id: 'd', created_at: ago(6.99) }), creator, plainBrand, NOW).freshness).toBe(15);
    // 30 + 25 + 15 = 70
    expect(scoreDealForCreator(deal({ id: 'd', created_at: ago(6.99) }), creator, plainBrand, NOW).total).toBe(70);
  });

  test('a deal not yet synced (no created_at) is fresh; an unreadable created_at is not', () => {
    expect(scoreDealForCreator(deal({ id: 'd', created_at: undefined }), creator, plainBrand, NOW).freshness).toBe(15);
    expect(scoreDealForCreator(deal({ id: 'd', created_at: 'yesterday' }), creator, plainBrand, NOW).freshness).toBe(0);
  });

  test('an unknown brand scores as rating 0, no deals, not Pro', () => {
    // only the amount fit: 25
    expect(scoreDealForCreator(deal({ id: 'd' }), creator, undefined, NOW).total).toBe(25);
  });

  test('amount outside the range loses fit linearly', () => {
    // $600 with max $500: 100 over, tolerance 50 % of 500 = 250 → 25 × (1 − 100/250) = 15
    const over = scoreDealForCreator(deal({ id: 'd', amount_cents: 60_000 }), creator, plainBrand, NOW);
    expect(over.amountFit).toBe(15);
    expect(over.total).toBe(30 + 15);
  });
});

describe('amount fit', () => {
  test('inside the range, bounds included: 25', () => {
    expect(amountFitPoints(10_000, 10_000, 50_000)).toBe(25);
    expect(amountFitPoints(50_000, 10_000, 50_000)).toBe(25);
  });
  test('below the minimum: 0 at half the minimum', () => {
    expect(amountFitPoints(7_500, 10_000, 50_000)).toBe(12.5); // 25 × (1 − 2500/5000)
    expect(amountFitPoints(5_000, 10_000, 50_000)).toBe(0);
    expect(amountFitPoints(100, 10_000, 50_000)).toBe(0);
  });
  test('above the maximum: 0 at one and a half times the maximum', () => {
    expect(amountFitPoints(75_000, 10_000, 50_000)).toBe(0);
    expect(amountFitPoints(80_000, 10_000, 50_000)).toBe(0);
    expect(amountFitPoints(55_000, 10_000, 50_000)).toBe(20); // 25 × (1 − 5000/25000)
  });
  test('no preference is neutral 12.5; one bound leaves the other side open', () => {
    expect(amountFitPoints(1_000_000, null, null)).toBe(12.5);
    expect(amountFitPoints(1_000_000, 10_000, null)).toBe(25);
    expect(amountFitPoints(100, null, 50_000)).toBe(25);
    expect(amountFitPoints(7_500, 10_000, undefined)).toBe(12.5);
  });
  test('a range given upside down is read the right way round; a zero maximum fits nothing above it', () => {
    expect(amountFitPoints(30_000, 50_000, 10_000)).toBe(25);
    expect(amountFitPoints(100, 0, 0)).toBe(0);
  });
});

describe('Pro membership', () => {
  test('a paid tier that has not lapsed is Pro; free, lapsed or ending now is not', () => {
    expect(isProActive({ pro_tier: 'premium', pro_until: FUTURE }, NOW)).toBe(true);
    expect(isProActive({ pro_tier: 'basic', pro_until: null }, NOW)).toBe(true);
    expect(isProActive({ pro_tier: 'free', pro_until: FUTURE }, NOW)).toBe(false);
    expect(isProActive({ pro_tier: 'basic', pro_until: new Date(NOW).toISOString() }, NOW)).toBe(false);
    expect(isProActive({}, NOW)).toBe(false);
  });
});

describe('recommendDeals', () => {
  const proCreator: CreatorInput = { ...creator, id: 'creator-pro', pro_tier: 'premium', pro_until: FUTURE };
  const brands = { [plainBrand.id]: plainBrand, [proBrand.id]: proBrand };

  test('ranks open deals best first and leaves out closed, deleted, applied and skipped ones', () => {
    const deals = [
      deal({ id: 'fresh', created_at: ago(1) }), // 30 + 25 + 15 = 70
      deal({ id: 'niche', niches: ['Food'] }), // 30 + 20 + 25 = 75
      deal({ id: 'pro-brand', brand_id: proBrand.id }), // (45 + 25) × 1.2 + 10 = 94
      deal({ id: 'plain' }), // 30 + 25 = 55
      deal({ id: 'closed', status: 'in_progress', niches: ['Food', 'Fitness'] }),
      deal({ id: 'deleted', deleted: true, niches: ['Food', 'Fitness'] }),
      deal({ id: 'applied', niches: ['Food', 'Fitness'] }),
      deal({ id: 'skipped', niches: ['Food', 'Fitness'] }),
    ];
    const ranked = recommendDeals(
      creator,
      deals,
      { brands, appliedDealIds: ['applied'], skippedDealIds: new Set(['skipped']) },
      { now: NOW },
    );
    expect(ranked.map((r) => [r.item.id, r.score])).toEqual([
      ['pro-brand', 94],
      ['niche', 75],
      ['fresh', 70],
      ['plain', 55],
    ]);
  });

  test('a non-Pro creator never gets Pro-only deals; a Pro creator does', () => {
    const deals = [deal({ id: 'pro-only', pro_only: true, niches: ['Fitness'] }), deal({ id: 'open-to-all' })];
    expect(recommendDeals(creator, deals, { brands }, { now: NOW, limit: Infinity }).map((r) => r.item.id)).toEqual([
      'open-to-all',
    ]);
    const lapsed = { ...proCreator, pro_until: ago(1) };
    expect(recommendDeals(lapsed, deals, { brands }, { now: NOW }).map((r) => r.item.id)).toEqual(['open-to-all']);
    expect(recommendDeals(proCreator, deals, { brands }, { now: NOW }).map((r) => r.item.id)).toEqual([
      'pro-only',
      'open-to-all',
    ]);
  });

  test('the caller may say the creator is Pro (a granted Pro feature the profile does not show)', () => {
    const deals = [deal({ id: 'pro-only', pro_only: true })];
    expect(recommendDeals(creator, deals, { brands, creatorIsPro: true }, { now: NOW }).map((r) => r.item.id)).toEqual([
      'pro-only',
    ]);
    expect(recommendDeals(proCreator, deals, { brands, creatorIsPro: false }, { now: NOW })).toEqual([]);
  });

  test('synced documents (the collection schemas) are scored as they are', () => {
    const brandId = '0193a1b2-0000-7000-8000-000000000001';
    const syncedDeal = dealDocument.parse({
      id: '0193a1b2-0000-7000-8000-0000000000d1',
      brand_id: brandId,
      title: 'Protein bar launch',
      description: 'Two posts',
      amount_cents: 30_000,
      niches: ['Fitness'],
      platforms: ['Instagram'],
      created_at: ago(3),
    });
    const syncedCreator = profileDocument.parse({
      id: '0193a1b2-0000-7000-8000-0000000000c1',
      niches: ['Fitness'],
      min_deal_amount_cents: 10_000,
      max_deal_amount_cents: 50_000,
    });
    const syncedBrand = profileDocument.parse({ id: brandId, role: 'brand', rating: 4, total_deals: 12 });
    // 40 + 20 + 0 (creator has no platforms) + 25 = 85, + 10 + 15 = 110
    const ranked = recommendDeals(syncedCreator, [syncedDeal], { brands: { [brandId]: syncedBrand } }, { now: NOW });
    expect(ranked.map((r) => r.score)).toEqual([110]);
    expect(recommendCreators(syncedDeal, [syncedCreator, syncedBrand], {}, { now: NOW }).map((r) => r.item.id)).toEqual(
      [syncedCreator.id],
    );
  });

  test('returns 10 by default, honours the limit, and breaks ties by id whatever the input order', () => {
    const deals = Array.from({ length: 15 }, (_, i) => deal({ id: `deal-${String(i).padStart(2, '0')}` }));
    const ranked = recommendDeals(creator, [...deals].reverse(), { brands }, { now: NOW });
    expect(ranked).toHaveLength(10);
    expect(ranked.map((r) => r.item.id)).toEqual(deals.slice(0, 10).map((d) => d.id));
    expect(recommendDeals(creator, deals, { brands }, { now: NOW, limit: 4 }).map((r) => r.item.id)).toEqual([
      'deal-00',
      'deal-01',
      'deal-02',
      'deal-03',
    ]);
    expect(recommendDeals(creator, deals, { brands }, { now: NOW, limit: 0 })).toEqual([]);
    expect(recommendDeals(creator, deals, { brands }, { now: NOW, limit: Infinity })).toHaveLength(15);
  });

  test('a short list picked from many deals is exactly the head of the full ranking, ties included', () => {
    // 300 deals with many equal scores (amounts and niches cycle), so the top 10 depends on tie-breaking.
    const many = Array.from({ length: 300 }, (_, i) =>
      deal({
        id: `m-${(i * 7919) % 300}`,
        amount_cents: 5_000 + (i % 7) * 10_000,
        niches: i % 3 ? ['Food'] : ['Travel'],
        brand_id: i % 2 ? proBrand.id : plainBrand.id,
      }),
    );
    const full = recommendDeals(creator, many, { brands }, { now: NOW, limit: Infinity });
    for (const limit of [1, 4, 10, 63]) {
      expect(recommendDeals(creator, many, { brands }, { now: NOW, limit })).toEqual(full.slice(0, limit));
    }
    // Input already in id order takes a faster sort; the ranking must be the same.
    const inIdOrder = [...many].sort((a, b) => (a.id < b.id ? -1 : 1));
    expect(recommendDeals(creator, inIdOrder, { brands }, { now: NOW, limit: Infinity })).toEqual(full);
    expect(full.slice(0, 3).map((r) => r.score)).toEqual([full[0]!.score, full[0]!.score, full[0]!.score]);
  });

  test('brands may be given as a Map', () => {
    const ranked = recommendDeals(
      creator,
      [deal({ id: 'x', brand_id: proBrand.id })],
      { brands: new Map([[proBrand.id, proBrand]]) },
      { now: NOW },
    );
    expect(ranked[0]?.score).toBe(94);
  });

  test('now is required to be a real instant', () => {
    expect(() => recommendDeals(creator, [], {}, { now: 'not a date' })).toThrow(RangeError);
  });
});

describe('recommendation score of a creator for a deal', () => {
  const theDeal = deal({
    id: 'deal',
    niches: ['Fitness', 'Travel'],
    platforms: ['Instagram', 'TikTok'],
    amount_cents: 30_000,
  });
  const star: CreatorInput = {
    ...creator,
    id: 'star',
    rating: 4.8,
    completed_deals: 6,
    engagement_rate: 0.06,
    pro_tier: 'premium',
    pro_until: FUTURE,
  };

  test('adds every term, Pro multiplies the match sum, then the experience and engagement bonuses', () => {
    // 4.8×10 = 48, niche 20, two platforms 30, fit 25 → 123 × 1.2 = 147.6, + 10 + 15 = 172.6
    expect(scoreCreatorForDeal(star, theDeal, NOW)).toEqual({
      rating: 48,
      niches: 20,
      platforms: 30,
      amountFit: 25,
      proMultiplier: 1.2,
      experience: 10,
      engagement: 15,
      total: 172.6,
    });
  });

  test('exactly 5 completed deals and exactly 0.05 engagement earn nothing', () => {
    const edge = { ...star, pro_tier: 'free', completed_deals: 5, engagement_rate: 0.05 };
    // 48 + 20 + 30 + 25 = 123
    expect(scoreCreatorForDeal(edge, theDeal, NOW)).toMatchObject({
      experience: 0,
      engagement: 0,
      proMultiplier: 1,
      total: 123,
    });
  });

  test('recommendCreators ranks creators only, never the deal brand, excluded or deleted ones; Pro-only deals get Pro creators', () => {
    const people: CreatorInput[] = [
      star, // 172.6
      { ...creator, id: 'plain' }, // 40 + 20 + 30 + 25 = 115
      { ...creator, id: 'no-niche', niches: [], platforms: [] }, // 40 + 25 = 65
      { ...creator, id: 'applied' },
      { ...creator, id: 'gone', deleted: true },
      { ...creator, id: 'a-brand', role: 'brand' },
      { ...creator, id: plainBrand.id, role: null },
    ];
    const ranked = recommendCreators(theDeal, people, { excludeCreatorIds: ['applied'] }, { now: NOW });
    expect(ranked.map((r) => [r.item.id, r.score])).toEqual([
      ['star', 172.6],
      ['plain', 115],
      ['no-niche', 65],
    ]);
    const proOnly = { ...theDeal, pro_only: true };
    expect(recommendCreators(proOnly, people, {}, { now: NOW }).map((r) => r.item.id)).toEqual(['star']);
    expect(recommendCreators(theDeal, people, {}, { now: NOW, limit: 1 }).map((r) => r.item.id)).toEqual(['star']);
  });

  test('defaults to 10 creators', () => {
    const many = Array.from({ length: 12 }, (_, i) => ({ ...creator, id: `c-${String(i).padStart(2, '0')}` }));
    expect(recommendCreators(theDeal, many, {}, { now: NOW }).map((r) => r.item.id)).toEqual(
      many.slice(0, 10).map((c) => c.id),
    );
  });
});

describe('simple match score', () => {
  test('niche +2, region +1, followers at or above the minimum +1, at most 4', () => {
    const criteria = { niches: ['fitness', 'Gaming'], region: 'europe ', min_followers: 12_000 };
    expect(simpleMatchScore(creator, criteria)).toBe(4);
    // two shared niches still count 2, not 4
    expect(simpleMatchScore({ ...creator, niches: ['Fitness', 'Gaming'] }, criteria)).toBe(4);
    expect(simpleMatchScore({ ...creator, followers: 11_999 }, criteria)).toBe(3);
    expect(simpleMatchScore({ ...creator, region: 'Asia' }, criteria)).toBe(3);
    expect(simpleMatchScore({ ...creator, niches: [] }, criteria)).toBe(2);
  });

  test('missing data: no region on either side is no match, no minimum is met by everyone', () => {
    expect(simpleMatchScore({ niches: null, region: null, followers: null }, {})).toBe(1);
    expect(simpleMatchScore({ ...creator, region: null }, { region: null })).toBe(1);
    expect(simpleMatchScore(creator, { niches: [], region: 'Europe', min_followers: 50_000 })).toBe(1);
  });
});

test('a deal offers only creators sharing one of its niches (any case); a deal without niches offers all', () => {
  const creators = [
    { id: 'a', niches: ['Outdoors', 'Travel'] },
    { id: 'b', niches: ['Gaming'] },
    { id: 'c', niches: ['parenting'] },
    { id: 'd', niches: [' outdoors '] },
    { id: 'e', niches: null },
  ];
  expect(creatorsForDealNiches(['Outdoors'], creators).map((c) => c.id)).toEqual(['a', 'd']);
  expect(creatorsForDealNiches([], creators)).toHaveLength(5);
});
