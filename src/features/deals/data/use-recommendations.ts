import { useEffect, useRef, useState } from 'react';
import type { DealDocument, ProfileDocument } from '../../../domain/collections/index.ts';
import type { BrandInput, CreatorInput, DealInput } from '../../../domain/recommendation.ts';
import { useLatest } from '../../../lib/use-latest.ts';
import {
  loadCreators,
  loadDeals,
  scoreCreatorsFor,
  scoreDealsFor,
  warmRecommendationsWorker,
  type ScoredId,
} from '../../../lib/recommendations-client.ts';

/**
 * Recommendations come from the worker (src/lib/recommendations-client.ts): the main thread only
 * sends the documents (in chunks) and receives ids. The worker keeps one set of deals and one of
 * creators; these signatures remember what it holds, so screens that open one after another do not
 * send the same documents again.
 */
let loadedDealsSignature = '';
let loadedCreatorsSignature = '';

/**
 * What the scores read, and nothing else: a deal's applications_count changes after every
 * application, and must not make the page send every deal to the worker again.
 */
const dealKey = (d: DealDocument) =>
  [
    d.id,
    d.brand_id,
    d.amount_cents,
    d.niches.join('+'),
    d.platforms.join('+'),
    d.pro_only,
    d.status,
    d.created_at ?? '',
  ].join('|');
const brandKey = (b: BrandInput) =>
  [b.id, b.rating, b.total_deals, b.pro_tier, b.pro_until ?? '', JSON.stringify(b.granted_pro_features)].join('|');
const dealSignature = (docs: readonly DealDocument[], brands: readonly BrandInput[]) =>
  `${docs.map(dealKey).join(',')}#${brands.map(brandKey).join(',')}`;
const creatorSignature = (docs: readonly CreatorInput[]) => JSON.stringify(docs);

export const toDealInput = (d: DealDocument): DealInput => ({
  id: d.id,
  brand_id: d.brand_id,
  amount_cents: d.amount_cents,
  niches: d.niches,
  platforms: d.platforms,
  pro_only: d.pro_only,
  status: d.status,
  created_at: d.created_at ?? null,
});

export const toCreatorInput = (p: ProfileDocument): CreatorInput => ({
  id: p.id,
  role: p.role,
  niches: p.niches,
  platforms: p.platforms,
  region: p.region,
  followers: p.followers,
  engagement_rate: p.engagement_rate,
  completed_deals: p.completed_deals,
  rating: p.rating,
  min_deal_amount_cents: p.min_deal_amount_cents,
  max_deal_amount_cents: p.max_deal_amount_cents,
  pro_tier: p.pro_tier,
  pro_until: p.pro_until,
  granted_pro_features: p.granted_pro_features,
});

const toBrandInput = (p: ProfileDocument): BrandInput => ({
  id: p.id,
  rating: p.rating,
  total_deals: p.total_deals,
  pro_tier: p.pro_tier,
  pro_until: p.pro_until,
  granted_pro_features: p.granted_pro_features,
});

async function ensureDealsLoaded(
  deals: readonly DealDocument[],
  profiles: ReadonlyMap<string, ProfileDocument>,
): Promise<void> {
  const brandIds = new Set(deals.map((d) => d.brand_id));
  const brands = [...brandIds].flatMap((id) => {
    const p = profiles.get(id);
    return p ? [toBrandInput(p)] : [];
  });
  const sig = dealSignature(deals, brands);
  if (sig === loadedDealsSignature) return;
  await loadDeals(deals.map(toDealInput), brands);
  loadedDealsSignature = sig;
}

async function ensureCreatorsLoaded(creators: readonly ProfileDocument[]): Promise<void> {
  const inputs = creators.map(toCreatorInput);
  const sig = creatorSignature(inputs);
  if (sig === loadedCreatorsSignature) return;
  await loadCreators(inputs);
  loadedCreatorsSignature = sig;
}

export type Ranked = { ids: string[]; loading: boolean; error: Error | null };

/**
 * Scoring waits this long after the last change so a burst of synced documents is sent once. A
 * screen's first ranking does not wait: nothing of it shows until that ranking arrives.
 */
const SETTLE_MS = 50;

/**
 * What both rankings share: the worker starts while the screen still reads its documents (its
 * start-up is off the way to the first card), and whether a ranking was delivered yet (one object
 * for the component's life).
 */
function useRankingStart(): { delivered: boolean } {
  useEffect(warmRecommendationsWorker, []);
  return useRef({ delivered: false }).current;
}

/**
 * Runs `rank` once the settle pause is over (at once for a screen's first ranking) and delivers its
 * ids, or its error, unless the effect was cleaned up meanwhile. Returns that cleanup.
 */
function scheduleRanking(
  start: { delivered: boolean },
  rank: () => Promise<ScoredId[]>,
  deliver: (ranked: Ranked) => void,
): () => void {
  let cancelled = false;
  const timer = setTimeout(
    () => {
      rank().then(
        (scored) => {
          if (cancelled) return;
          start.delivered = true;
          deliver({ ids: scored.map((s) => s.id), loading: false, error: null });
        },
        (error: unknown) => {
          if (!cancelled)
            deliver({ ids: [], loading: false, error: error instanceof Error ? error : new Error(String(error)) });
        },
      );
    },
    start.delivered ? SETTLE_MS : 0,
  );
  return () => {
    cancelled = true;
    clearTimeout(timer);
  };
}

/** Open deals ranked for the creator, best first, leaving out `excludeIds` (applied, skipped). */
export function useRankedDeals(opts: {
  creator: ProfileDocument | null;
  creatorIsPro: boolean;
  deals: readonly DealDocument[] | null;
  profiles: ReadonlyMap<string, ProfileDocument>;
  excludeIds: readonly string[];
  limit: number;
}): Ranked {
  const { creator, creatorIsPro, deals, profiles, excludeIds, limit } = opts;
  const [state, setState] = useState<Ranked>({ ids: [], loading: true, error: null });
  const excludeKey = excludeIds.join(',');
  // excludeKey stands for excludeIds; profiles only matter through the deals' brands (their count).
  const latest = useLatest({ excludeIds, profiles });
  const start = useRankingStart();
  useEffect(() => {
    if (!creator || !deals) return;
    const { excludeIds, profiles } = latest.current;
    return scheduleRanking(
      start,
      async () => {
        await ensureDealsLoaded(deals, profiles);
        if (!deals.length) return [];
        return scoreDealsFor(toCreatorInput(creator), {
          now: Date.now(),
          limit,
          skippedDealIds: excludeIds,
          creatorIsPro,
        });
      },
      setState,
    );
  }, [creator, creatorIsPro, deals, excludeKey, limit, profiles.size, latest, start]);
  return state;
}

/** Creators recommended for a deal (or for the brand's deals page when `deal` is a brand profile stand-in). */
export function useRankedCreators(opts: {
  deal: DealInput | null;
  creators: readonly ProfileDocument[] | null;
  excludeIds: readonly string[];
  limit: number;
  enabled?: boolean;
}): Ranked {
  const { deal, creators, excludeIds, limit, enabled = true } = opts;
  const [state, setState] = useState<Ranked>({ ids: [], loading: true, error: null });
  const excludeKey = excludeIds.join(',');
  const dealKey = deal ? `${deal.id}:${deal.amount_cents}:${(deal.niches ?? []).join('|')}` : '';
  // dealKey and excludeKey stand for deal and excludeIds (new objects on every render of the caller).
  const latest = useLatest({ deal, excludeIds });
  const start = useRankingStart();
  useEffect(() => {
    const { deal, excludeIds } = latest.current;
    if (!enabled || !deal || !creators) return;
    return scheduleRanking(
      start,
      async () => {
        await ensureCreatorsLoaded(creators);
        if (!creators.length) return [];
        return scoreCreatorsFor(deal, { now: Date.now(), limit, excludeCreatorIds: excludeIds });
      },
      setState,
    );
  }, [enabled, dealKey, creators, excludeKey, limit, latest, start]);
  return state;
}
