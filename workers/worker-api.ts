/**
 * The one typed boundary of the recommendations worker. The worker implements `WorkerApi`
 * (workers/recommendations-service.ts); the main thread reaches it only through
 * src/lib/recommendations-client.ts, where Comlink turns every method into a Promise.
 *
 * Only plain data crosses the boundary (structured clone): documents go in once per load, and scoring
 * answers with ids and scores, not whole documents, so an answer stays small whatever the data size.
 */
import type { BrandInput, CreatorInput, DealInput, Instant } from '../src/domain/recommendation.ts';
import type { CreatorSort, DealSort } from '../src/domain/search.ts';

export type { BrandInput, CreatorInput, DealInput, Instant };

/** One recommendation: the document id and its recommendation score. Best first in every answer. */
export interface ScoredId {
  id: string;
  score: number;
}

export interface LoadSummary {
  /** How many documents the worker now holds for this kind (a load replaces the previous one). */
  count: number;
}

export interface ScoreDealsOptions {
  /** Required: the pure scoring never reads the clock itself. */
  now: Instant;
  /**
   * Default 10. Every eligible deal is scored whatever the limit; the limit only bounds the answer.
   * The swipe stack asks for a page (e.g. 50) and asks again as cards are applied to or skipped —
   * those are excluded — rather than for Infinity: a 10,000-entry answer costs the main thread
   * tens of milliseconds to receive.
   */
  limit?: number;
  appliedDealIds?: readonly string[];
  skippedDealIds?: readonly string[];
  /** The session's Pro status when known (it also counts granted Pro features); default: from the profile. */
  creatorIsPro?: boolean;
}

export interface ScoreCreatorsOptions {
  now: Instant;
  /** Default 10. */
  limit?: number;
  /** Creators not to suggest (already applicants, already selected). */
  excludeCreatorIds?: readonly string[];
}

/** A deal as the index holds it: what the text search reads, what the filters and sorts read. */
export interface SearchableDeal extends DealInput {
  title: string;
  description: string;
  brand_name: string;
  deliverables: readonly string[];
  category: string | null;
  amount_cents: number;
}

/** A creator as the index holds it. */
export interface SearchableCreator extends CreatorInput {
  name: string;
  username: string | null;
  bio: string;
}

export interface LocalDealSearch {
  q: string;
  category?: string | undefined;
  minCents?: number | undefined;
  maxCents?: number | undefined;
  /** At least one of these. */
  niches?: readonly string[] | undefined;
  sort: DealSort;
  limit: number;
  /** For sort 'recommended': who the deals are scored for. */
  creator?: CreatorInput | undefined;
  creatorIsPro?: boolean | undefined;
  now: Instant;
}

export interface LocalCreatorSearch {
  q: string;
  niches?: readonly string[] | undefined;
  minFollowers?: number | undefined;
  /** The region, as written, case-insensitive. */
  region?: string | undefined;
  minRating?: number | undefined;
  sort: CreatorSort;
  limit: number;
  /** For sort 'recommended': the deal the creators are scored for. */
  deal?: DealInput | undefined;
  now: Instant;
}

/** One result: the document id and the words of it that matched (for highlighting). */
export interface SearchMatch {
  id: string;
  terms: string[];
}

export interface LocalSearchAnswer {
  matches: SearchMatch[];
  /** How many documents on the device match, whatever the limit. */
  total: number;
}

export interface WorkerApi {
  /** Handshake: answers once the worker module has evaluated and exposed the API. */
  ready(): 'ready';
  /** Replaces the deals and their brands' profiles (rating, total_deals, Pro membership) held by the worker. */
  loadDeals(deals: readonly DealInput[], brands: readonly BrandInput[]): LoadSummary;
  /**
   * Adds deals (and brands) to the last load: large sets go in chunks, because posting a message
   * serialises it on the sender's thread and 10,000 documents at once would block the main thread.
   * The caller sends each id once per load.
   */
  appendDeals(deals: readonly DealInput[], brands?: readonly BrandInput[]): LoadSummary;
  /** Replaces the creator profiles held by the worker. */
  loadCreators(creators: readonly CreatorInput[]): LoadSummary;
  /** Adds creators to the last load (see appendDeals). */
  appendCreators(creators: readonly CreatorInput[]): LoadSummary;
  /** The loaded deals ranked for this creator (see recommendDeals). Throws if no deals were loaded. */
  scoreDealsFor(creator: CreatorInput, options: ScoreDealsOptions): ScoredId[];
  /** The loaded creators ranked for this deal (see recommendCreators). Throws if no creators were loaded. */
  scoreCreatorsFor(deal: DealInput, options: ScoreCreatorsOptions): ScoredId[];
  /**
   * The search index of the device's deals: adds or replaces `upserts`, drops `removedIds` (`reset`
   * empties it first). The caller sends only what changed since its last call (and in chunks).
   */
  indexDeals(upserts: readonly SearchableDeal[], removedIds: readonly string[], reset?: boolean): LoadSummary;
  /** The search index of the device's creators (see indexDeals). */
  indexCreators(upserts: readonly SearchableCreator[], removedIds: readonly string[], reset?: boolean): LoadSummary;
  /** The indexed deals matching a search, in its sort: ids and matched words, and how many match. */
  searchDeals(request: LocalDealSearch): LocalSearchAnswer;
  /** The indexed creators matching a search (see searchDeals). */
  searchCreators(request: LocalCreatorSearch): LocalSearchAnswer;
}
