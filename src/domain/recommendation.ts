import { toEpochMs, type Instant } from './instant.ts';
import { isProNow, type ProMembership } from './pro.ts';

export type { Instant };

/**
 * Recommendation and match scores. Pure: no React, no I/O, no clock —
 * callers pass `now`. Imported by the recommendations worker, the UI and the server.
 *
 * The exact formula choices (amount fit, who the ×1.2 Pro multiplier applies to, order of operations,
 * rounding, tie-breaking) are explained in docs/decisions/002-recommendation-score.md.
 *
 * Inputs are minimal structural types shaped like the synced documents (snake_case columns of
 * supabase/migrations/20261122000100_core_tables.sql), so any document type that has these fields fits.
 */

export const DAY_MS = 24 * 60 * 60 * 1000;

/** Spec constants, named once. */
export const SCORE = {
  ratingFactor: 10,
  perSharedNiche: 20,
  perSharedPlatform: 15,
  amountFitMax: 25,
  /** No preferred range: half the maximum, so a stated range that fits ranks above and one that misses ranks below. */
  amountFitNeutral: 12.5,
  /** Outside the range, the fit falls linearly to 0 at this fraction beyond the nearest bound. */
  amountFitTolerance: 0.5,
  proMultiplier: 1.2,
  brandVolumeBonus: 10,
  /** Bonus only when the brand has strictly more deals than this. */
  brandVolumeThreshold: 10,
  freshDealBonus: 15,
  /** Bonus only when the deal is strictly younger than this. */
  freshDealMaxAgeMs: 7 * DAY_MS,
  experiencedCreatorBonus: 10,
  /** Bonus only when completed deals strictly exceed this. */
  experiencedCreatorThreshold: 5,
  engagementBonus: 15,
  /** Bonus only when the engagement rate strictly exceeds this. */
  engagementThreshold: 0.05,
} as const;

export const DEFAULT_RECOMMENDED_DEALS = 10;
export const DEFAULT_RECOMMENDED_CREATORS = 10;

/** Pro membership columns of a profile (the paid tier and the mirrored grants). */
export type ProMembershipInput = ProMembership;

export interface DealInput {
  id: string;
  brand_id: string;
  amount_cents: number;
  niches?: readonly string[] | null;
  platforms?: readonly string[] | null;
  pro_only?: boolean | null;
  status: string;
  /**
   * ISO timestamp, stamped by the server. Missing on a deal created on this device and not yet
   * synced — a deal that new counts as fresh.
   */
  created_at?: string | null;
  deleted?: boolean | null;
}

export interface CreatorInput extends ProMembershipInput {
  id: string;
  role?: string | null;
  niches?: readonly string[] | null;
  platforms?: readonly string[] | null;
  region?: string | null;
  followers?: number | null;
  /** 0..1, e.g. 0.05 = 5 %. */
  engagement_rate?: number | null;
  completed_deals?: number | null;
  /** 0..5 stars. */
  rating?: number | null;
  min_deal_amount_cents?: number | null;
  max_deal_amount_cents?: number | null;
  deleted?: boolean | null;
}

/** What the score needs to know about a deal's brand (its profile row). */
export interface BrandInput extends ProMembershipInput {
  id: string;
  /** 0..5 stars. */
  rating?: number | null;
  /** Number of deals the brand has published. */
  total_deals?: number | null;
}

/** A point in time: epoch milliseconds, an ISO string or a Date. */

// Tags come from small vocabularies (26 niches, a few platforms), so normalised forms are memoised:
// scoring 10,000 documents would otherwise allocate tens of thousands of identical strings.
const normalized = new Map<string, string>();
const NORMALIZED_MEMO_LIMIT = 10_000;

function normalize(tag: string): string {
  let key = normalized.get(tag);
  if (key === undefined) {
    key = tag.trim().toLowerCase();
    if (normalized.size >= NORMALIZED_MEMO_LIMIT) normalized.clear();
    normalized.set(tag, key);
  }
  return key;
}

/** Lower-cased, trimmed, de-duplicated tags (niches, platforms): 'Fitness' and 'fitness ' are one niche. */
export function tagSet(tags: readonly string[] | null | undefined): ReadonlySet<string> {
  const set = new Set<string>();
  if (tags) for (const tag of tags) if (tag.trim()) set.add(normalize(tag));
  return set;
}

/**
 * The creators a deal's brand is offered: those sharing at least one of the deal's niches (a deal
 * without niches offers everyone). The score only orders them; a Gaming creator is no match for an
 * Outdoors deal however well rated.
 */
export function creatorsForDealNiches<C extends { niches?: readonly string[] | null }>(
  dealNiches: readonly string[] | null | undefined,
  creators: readonly C[],
): C[] {
  const wanted = tagSet(dealNiches);
  if (wanted.size === 0) return [...creators];
  return creators.filter((c) => countShared(wanted, c.niches) > 0);
}

/** How many distinct tags of `tags` are in `reference` (each shared tag counts once). */
export function countShared(reference: ReadonlySet<string>, tags: readonly string[] | null | undefined): number {
  if (!tags || reference.size === 0) return 0;
  let shared = 0;
  // Documents carry a handful of tags: a small array de-duplicates faster than a Set.
  const counted: string[] = [];
  for (const tag of tags) {
    const key = normalize(tag);
    if (reference.has(key) && !counted.includes(key)) {
      counted.push(key);
      shared++;
    }
  }
  return shared;
}

/**
 * Up to 25 points for how well a deal amount fits a creator's preferred range [min, max] (cents).
 * - inside the range (bounds included): 25;
 * - outside: 25 × (1 − distance to the nearest bound ÷ (50 % of that bound)), floored at 0 — so 0 at
 *   half the minimum or one and a half times the maximum;
 * - only one bound set: the other side is open;
 * - no bound set: the neutral 12.5.
 * A range given upside down (min > max) is read the right way round.
 */
export function amountFitPoints(
  amountCents: number,
  minCents: number | null | undefined,
  maxCents: number | null | undefined,
): number {
  let min = minCents ?? null;
  let max = maxCents ?? null;
  if (min === null && max === null) return SCORE.amountFitNeutral;
  if (min !== null && max !== null && min > max) [min, max] = [max, min];
  let bound: number;
  if (min !== null && amountCents < min) bound = min;
  else if (max !== null && amountCents > max) bound = max;
  else return SCORE.amountFitMax;
  const tolerance = bound * SCORE.amountFitTolerance;
  if (tolerance <= 0) return 0;
  const distance = Math.abs(amountCents - bound);
  return Math.max(0, SCORE.amountFitMax * (1 - distance / tolerance));
}

/** Scores are rounded to hundredths so equal hand-computed scores compare equal (then ties go by id). */
function round2(value: number): number {
  return Math.round(value * 100) / 100;
}

export interface DealScoreBreakdown {
  /** Brand rating × 10. */
  rating: number;
  niches: number;
  platforms: number;
  amountFit: number;
  /** 1.2 when the deal's brand is Pro, else 1; multiplies rating + niches + platforms + amountFit. */
  proMultiplier: number;
  /** +10 when the brand has more than 10 deals. */
  brandVolume: number;
  /** +15 when the deal is less than 7 days old. */
  freshness: number;
  total: number;
}

/**
 * Recommendation score of a deal for a creator:
 * (brand rating × 10 + 20 × shared niches + 15 × shared platforms + amount fit) × (1.2 if the brand is Pro)
 * + 10 if the brand has more than 10 deals + 15 if the deal is under 7 days old.
 */
export function scoreDealForCreator(
  deal: DealInput,
  creator: CreatorInput,
  brand: BrandInput | null | undefined,
  now: Instant,
): DealScoreBreakdown {
  const nowMs = toEpochMs(now);
  return scoreDealPrepared(deal, prepareCreator(creator), brandTerms(brand, nowMs), nowMs);
}

interface PreparedCreator {
  creator: CreatorInput;
  niches: ReadonlySet<string>;
  platforms: ReadonlySet<string>;
}

function prepareCreator(creator: CreatorInput): PreparedCreator {
  return { creator, niches: tagSet(creator.niches), platforms: tagSet(creator.platforms) };
}

/** The brand's share of a deal's score: the same for all of a brand's deals, so computed once per brand. */
interface BrandTerms {
  rating: number;
  proMultiplier: number;
  brandVolume: number;
}

function brandTerms(brand: BrandInput | null | undefined, nowMs: number): BrandTerms {
  return {
    rating: (brand?.rating ?? 0) * SCORE.ratingFactor,
    proMultiplier: brand && isProNow(brand, nowMs) ? SCORE.proMultiplier : 1,
    brandVolume: (brand?.total_deals ?? 0) > SCORE.brandVolumeThreshold ? SCORE.brandVolumeBonus : 0,
  };
}

function scoreDealPrepared(
  deal: DealInput,
  prepared: PreparedCreator,
  brand: BrandTerms,
  nowMs: number,
): DealScoreBreakdown {
  const { creator } = prepared;
  const { rating, proMultiplier, brandVolume } = brand;
  const niches = countShared(prepared.niches, deal.niches) * SCORE.perSharedNiche;
  const platforms = countShared(prepared.platforms, deal.platforms) * SCORE.perSharedPlatform;
  const amountFit = amountFitPoints(deal.amount_cents, creator.min_deal_amount_cents, creator.max_deal_amount_cents);
  const ageMs = deal.created_at == null ? 0 : nowMs - Date.parse(deal.created_at);
  // An unparseable created_at gets no freshness bonus rather than poisoning the score with NaN.
  const freshness = Number.isFinite(ageMs) && ageMs < SCORE.freshDealMaxAgeMs ? SCORE.freshDealBonus : 0;
  const total = round2((rating + niches + platforms + amountFit) * proMultiplier + brandVolume + freshness);
  return { rating, niches, platforms, amountFit, proMultiplier, brandVolume, freshness, total };
}

export interface CreatorScoreBreakdown {
  /** Creator rating × 10. */
  rating: number;
  niches: number;
  platforms: number;
  amountFit: number;
  /** 1.2 when the creator is Pro, else 1; multiplies rating + niches + platforms + amountFit. */
  proMultiplier: number;
  /** +10 when completed deals exceed 5. */
  experience: number;
  /** +15 when the engagement rate exceeds 0.05. */
  engagement: number;
  total: number;
}

/**
 * Recommendation score of a creator for a deal:
 * (creator rating × 10 + 20 × shared niches + 15 × shared platforms + amount fit) × (1.2 if the creator is Pro)
 * + 10 if completed deals exceed 5 + 15 if engagement exceeds 0.05.
 * The brand-volume and freshness bonuses describe the deal, are the same for every creator of one deal
 * and so are left out (they would not change the order).
 */
export function scoreCreatorForDeal(creator: CreatorInput, deal: DealInput, now: Instant): CreatorScoreBreakdown {
  return scoreCreatorPrepared(creator, prepareDeal(deal), toEpochMs(now));
}

interface PreparedDeal {
  deal: DealInput;
  niches: ReadonlySet<string>;
  platforms: ReadonlySet<string>;
}

function prepareDeal(deal: DealInput): PreparedDeal {
  return { deal, niches: tagSet(deal.niches), platforms: tagSet(deal.platforms) };
}

function scoreCreatorPrepared(creator: CreatorInput, prepared: PreparedDeal, nowMs: number): CreatorScoreBreakdown {
  const rating = (creator.rating ?? 0) * SCORE.ratingFactor;
  const niches = countShared(prepared.niches, creator.niches) * SCORE.perSharedNiche;
  const platforms = countShared(prepared.platforms, creator.platforms) * SCORE.perSharedPlatform;
  const amountFit = amountFitPoints(
    prepared.deal.amount_cents,
    creator.min_deal_amount_cents,
    creator.max_deal_amount_cents,
  );
  const proMultiplier = isProNow(creator, nowMs) ? SCORE.proMultiplier : 1;
  const experience =
    (creator.completed_deals ?? 0) > SCORE.experiencedCreatorThreshold ? SCORE.experiencedCreatorBonus : 0;
  const engagement = (creator.engagement_rate ?? 0) > SCORE.engagementThreshold ? SCORE.engagementBonus : 0;
  const total = round2((rating + niches + platforms + amountFit) * proMultiplier + experience + engagement);
  return { rating, niches, platforms, amountFit, proMultiplier, experience, engagement, total };
}

export interface Ranked<T> {
  item: T;
  score: number;
}

/** Highest score first; equal scores by id ascending, so the order never depends on input order. */
function byScoreThenId<T extends { id: string }>(a: Ranked<T>, b: Ranked<T>): number {
  if (a.score !== b.score) return b.score - a.score;
  return compareIds(a.item.id, b.item.id);
}

function byScore<T>(a: Ranked<T>, b: Ranked<T>): number {
  return b.score - a.score;
}

export function compareIds(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Candidates in id order (the worker keeps its documents so) need only a score comparison: the sort is
 * stable, so equal scores stay in id order — the same result as byScoreThenId for a fraction of the
 * string comparisons. Tracked while scanning, so any input order still ranks correctly.
 */
class IdOrderTracker {
  private last: string | null = null;
  ascending = true;
  see(id: string): void {
    if (this.ascending && this.last !== null && id < this.last) this.ascending = false;
    this.last = id;
  }
}

/**
 * The `limit` best of `ranked`, in order. A short list (the usual 4 or 10) is kept by insertion while
 * scanning once instead of sorting thousands of candidates; a long one is sorted.
 */
function best<T extends { id: string }>(ranked: Ranked<T>[], limit: number, inIdOrder: boolean): Ranked<T>[] {
  if (limit >= 64 || limit * 4 >= ranked.length) {
    ranked.sort(inIdOrder ? byScore : byScoreThenId);
    return ranked.length > limit ? ranked.slice(0, limit) : ranked;
  }
  const top: Ranked<T>[] = [];
  for (const candidate of ranked) {
    if (top.length === limit && byScoreThenId(candidate, top[limit - 1]!) >= 0) continue;
    let at = top.length;
    while (at > 0 && byScoreThenId(candidate, top[at - 1]!) < 0) at--;
    top.splice(at, 0, candidate);
    if (top.length > limit) top.pop();
  }
  return top;
}

function normalizeLimit(limit: number | undefined, fallback: number): number {
  if (limit === undefined) return fallback;
  if (Number.isNaN(limit)) throw new RangeError('limit must be a number');
  return Math.max(0, Math.floor(limit));
}

export interface RecommendDealsContext {
  /** Brand profiles by id (rating, total_deals, Pro membership); a missing brand counts as rating 0, 0 deals, not Pro. */
  brands?: ReadonlyMap<string, BrandInput> | Readonly<Record<string, BrandInput>>;
  /** Deals the creator already applied to. */
  appliedDealIds?: Iterable<string>;
  /** Deals the creator skipped (swipe). */
  skippedDealIds?: Iterable<string>;
  /**
   * Whether the creator is Pro, when the caller knows better than the profile (the session's answer).
   * Default: isProNow(creator), from the profile's paid tier and mirrored grants.
   */
  creatorIsPro?: boolean;
}

export interface RecommendOptions {
  /** How many to return (default 10); Infinity returns them all, ranked. */
  limit?: number;
  now: Instant;
}

function lookupBrand(brands: RecommendDealsContext['brands'], id: string): BrandInput | undefined {
  if (!brands) return undefined;
  if (brands instanceof Map) return brands.get(id);
  return Object.prototype.hasOwnProperty.call(brands, id)
    ? (brands as Readonly<Record<string, BrandInput>>)[id]
    : undefined;
}

/**
 * The deals to recommend to a creator, best first: open, not deleted, not yet applied to or skipped,
 * and never Pro-only deals unless the creator is Pro.
 */
export function recommendDeals<D extends DealInput>(
  creator: CreatorInput,
  deals: Iterable<D>,
  context: RecommendDealsContext,
  options: RecommendOptions,
): Ranked<D>[] {
  const limit = normalizeLimit(options.limit, DEFAULT_RECOMMENDED_DEALS);
  if (limit === 0) return [];
  const nowMs = toEpochMs(options.now);
  const creatorIsPro = context.creatorIsPro ?? isProNow(creator, nowMs);
  const excluded = new Set<string>(context.appliedDealIds ?? []);
  for (const id of context.skippedDealIds ?? []) excluded.add(id);
  const prepared = prepareCreator(creator);
  const brands = new Map<string, BrandTerms>();
  const ranked: Ranked<D>[] = [];
  const order = new IdOrderTracker();
  for (const deal of deals) {
    if (deal.status !== 'open' || deal.deleted || excluded.has(deal.id)) continue;
    order.see(deal.id);
    if (deal.pro_only && !creatorIsPro) continue;
    let brand = brands.get(deal.brand_id);
    if (!brand) {
      brand = brandTerms(lookupBrand(context.brands, deal.brand_id), nowMs);
      brands.set(deal.brand_id, brand);
    }
    ranked.push({ item: deal, score: scoreDealPrepared(deal, prepared, brand, nowMs).total });
  }
  return best(ranked, limit, order.ascending);
}

export interface RecommendCreatorsContext {
  /** Creators not to suggest again (already applied, already selected, shortlisted…). */
  excludeCreatorIds?: Iterable<string>;
}

/**
 * The creators to recommend for a deal, best first: creator profiles (a profile without a role is taken
 * as a creator), not deleted, not the deal's own brand, not excluded; for a Pro-only deal only Pro
 * creators, since no one else may apply to it.
 */
export function recommendCreators<C extends CreatorInput>(
  deal: DealInput,
  creators: Iterable<C>,
  context: RecommendCreatorsContext,
  options: RecommendOptions,
): Ranked<C>[] {
  const limit = normalizeLimit(options.limit, DEFAULT_RECOMMENDED_CREATORS);
  if (limit === 0) return [];
  const nowMs = toEpochMs(options.now);
  const excluded = new Set<string>(context.excludeCreatorIds ?? []);
  const prepared = prepareDeal(deal);
  const ranked: Ranked<C>[] = [];
  const order = new IdOrderTracker();
  for (const creator of creators) {
    if (creator.deleted || (creator.role != null && creator.role !== 'creator')) continue;
    if (creator.id === deal.brand_id || excluded.has(creator.id)) continue;
    if (deal.pro_only && !isProNow(creator, nowMs)) continue;
    order.see(creator.id);
    ranked.push({ item: creator, score: scoreCreatorPrepared(creator, prepared, nowMs).total });
  }
  return best(ranked, limit, order.ascending);
}

/** What a brand (or a campaign brief) asks of a creator, for the simple match score. */
export interface MatchCriteria {
  niches?: readonly string[] | null;
  region?: string | null;
  /** Minimum follower count; none set means every creator meets it. */
  min_followers?: number | null;
}

/**
 * Simple match score (0..4): +2 if the creator shares at least one niche with the criteria (once, not
 * per niche), +1 if the regions are the same (case and surrounding spaces ignored; no region on either
 * side is no match), +1 if the creator's followers are at or above the minimum.
 */
export function simpleMatchScore(
  creator: Pick<CreatorInput, 'niches' | 'region' | 'followers'>,
  criteria: MatchCriteria,
): number {
  let score = 0;
  if (countShared(tagSet(criteria.niches), creator.niches) > 0) score += 2;
  const region = criteria.region?.trim().toLowerCase();
  if (region && creator.region?.trim().toLowerCase() === region) score += 1;
  if ((creator.followers ?? 0) >= (criteria.min_followers ?? 0)) score += 1;
  return score;
}
