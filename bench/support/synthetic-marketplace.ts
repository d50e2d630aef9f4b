/**
 * Deterministic synthetic deals, brands and creators for benchmarks: the same seed gives the same data
 * on every run and machine, so figures are comparable.
 */
import { DAY_MS, type BrandInput, type CreatorInput, type DealInput } from '../../src/domain/recommendation.ts';
import { NICHES } from '../../src/domain/niches.ts';

const PLATFORMS = ['Instagram', 'TikTok', 'YouTube', 'Blog', 'Twitter'] as const;
const REGIONS = ['Europe', 'North America', 'South America', 'Asia', 'Africa', 'Oceania'] as const;
const TIERS = ['free', 'free', 'free', 'basic', 'premium'] as const;

/** mulberry32: a small seeded PRNG, uniform in [0, 1). */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function pickSome<T>(random: () => number, pool: readonly T[], min: number, max: number): T[] {
  const count = min + Math.floor(random() * (max - min + 1));
  const picked = new Set<T>();
  while (picked.size < count) picked.add(pool[Math.floor(random() * pool.length)]!);
  return [...picked];
}

function id(prefix: string, n: number): string {
  return `${prefix}-${String(n).padStart(6, '0')}`;
}

export interface SyntheticMarketplace {
  brands: BrandInput[];
  deals: DealInput[];
  creators: CreatorInput[];
}

export function syntheticMarketplace(options: {
  seed: number;
  now: number;
  deals: number;
  creators: number;
  brands: number;
}): SyntheticMarketplace {
  const random = seededRandom(options.seed);
  const future = new Date(options.now + 180 * DAY_MS).toISOString();
  const pro = () => {
    const pro_tier = TIERS[Math.floor(random() * TIERS.length)]!;
    return { pro_tier, pro_until: pro_tier === 'free' ? null : future };
  };
  const brands: BrandInput[] = Array.from({ length: options.brands }, (_, n) => ({
    id: id('brand', n),
    rating: Math.round(random() * 500) / 100,
    total_deals: Math.floor(random() * 25),
    ...pro(),
  }));
  const deals: DealInput[] = Array.from({ length: options.deals }, (_, n) => ({
    id: id('deal', n),
    brand_id: brands[Math.floor(random() * brands.length)]!.id,
    amount_cents: 100 * (50 + Math.floor(random() * 5000)),
    niches: pickSome(random, NICHES, 1, 5),
    platforms: pickSome(random, PLATFORMS, 0, 3),
    pro_only: random() < 0.15,
    // Mostly open, as in a live market; the rest must be filtered out.
    status: random() < 0.9 ? 'open' : 'in_progress',
    created_at: new Date(options.now - random() * 30 * DAY_MS).toISOString(),
  }));
  const creators: CreatorInput[] = Array.from({ length: options.creators }, (_, n) => {
    const min = random() < 0.7 ? 100 * (50 + Math.floor(random() * 1000)) : null;
    return {
      id: id('creator', n),
      role: 'creator',
      niches: pickSome(random, NICHES, 0, 6),
      platforms: pickSome(random, PLATFORMS, 0, 4),
      region: REGIONS[Math.floor(random() * REGIONS.length)]!,
      followers: Math.floor(random() * 500_000),
      engagement_rate: Math.round(random() * 1200) / 10_000,
      completed_deals: Math.floor(random() * 20),
      rating: Math.round(random() * 500) / 100,
      min_deal_amount_cents: min,
      max_deal_amount_cents: min !== null && random() < 0.8 ? min + 100 * Math.floor(random() * 4000) : null,
      ...pro(),
    };
  });
  return { brands, deals, creators };
}
