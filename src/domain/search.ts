import { z } from 'zod';
import { dealDocument, profileDocument } from './collections/index.ts';

/**
 * Search over deals (creators) and creators (brands): the one contract of `/api/search/*` that the
 * server and the app both use, and the pure parts of searching that both the device's index and the
 * screens need (words of a query, highlighted parts of a text, merging the device's results with the
 * server's).
 */

/** Longest search text accepted: a long sentence, never a document pasted whole. */
export const SEARCH_TEXT_MAX = 200;
/** Results in one page from the server. */
export const SEARCH_PAGE_MAX = 50;
export const SEARCH_PAGE_DEFAULT = 20;
/** How far a search may page: past it, a narrower query finds the deal faster than paging. */
export const SEARCH_OFFSET_MAX = 1_000;
/** Words of a query that count; the rest are ignored (no query needs more to find a deal). */
export const SEARCH_TERMS_MAX = 10;

export const DEAL_SORTS = ['best', 'newest', 'amount', 'recommended'] as const;
export type DealSort = (typeof DEAL_SORTS)[number];
export const CREATOR_SORTS = ['best', 'followers', 'rating', 'recommended'] as const;
export type CreatorSort = (typeof CREATOR_SORTS)[number];

export const DEAL_SORT_TEXT: Record<DealSort, string> = {
  best: 'Best match',
  newest: 'Newest',
  amount: 'Highest amount',
  recommended: 'Recommended',
};
export const CREATOR_SORT_TEXT: Record<CreatorSort, string> = {
  best: 'Best match',
  followers: 'Most followers',
  rating: 'Best rated',
  recommended: 'Recommended',
};

/** A comma-separated list in a query string ("Fitness,Travel"). */
const tagList = z
  .string()
  .max(2_000)
  .transform((s) =>
    s
      .split(',')
      .map((t) => t.trim())
      .filter(Boolean),
  )
  .pipe(z.array(z.string().max(80)).max(26));
const whole = (max: number) => z.coerce.number().int().min(0).max(max);
const text = z.string().max(SEARCH_TEXT_MAX, `must be at most ${SEARCH_TEXT_MAX} characters`);
const paging = {
  offset: whole(SEARCH_OFFSET_MAX).default(0),
  limit: z.coerce.number().int().min(1).max(SEARCH_PAGE_MAX).default(SEARCH_PAGE_DEFAULT),
};

/** GET /api/search/deals query string: text, the deals list's filters, a sort and a page. */
export const dealSearchRequest = z
  .object({
    q: text.default(''),
    category: z.string().max(80).optional(),
    min_cents: whole(1e12).optional(),
    max_cents: whole(1e12).optional(),
    niches: tagList.optional(),
    sort: z.enum(DEAL_SORTS).default('best'),
    ...paging,
  })
  .strict();
export type DealSearchRequest = z.infer<typeof dealSearchRequest>;

/** GET /api/search/creators query string: text, niches, followers, region and rating, a sort and a page. */
export const creatorSearchRequest = z
  .object({
    q: text.default(''),
    niches: tagList.optional(),
    min_followers: whole(1e10).optional(),
    region: z.string().max(80).optional(),
    min_rating: z.coerce.number().min(0).max(5).optional(),
    sort: z.enum(CREATOR_SORTS).default('best'),
    ...paging,
  })
  .strict();
export type CreatorSearchRequest = z.infer<typeof creatorSearchRequest>;

/** One page of server results, best first in the asked sort; `next_offset` null on the last page. */
export const dealSearchResponse = z.object({
  deals: z.array(dealDocument),
  next_offset: z.number().int().nullable(),
});
export const creatorSearchResponse = z.object({
  creators: z.array(profileDocument),
  next_offset: z.number().int().nullable(),
});

/** A query string for a search request (defaults and empty values left out). */
export function searchQueryString(request: Record<string, string | number | readonly string[] | undefined>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(request)) {
    if (value === undefined || value === '') continue;
    if (Array.isArray(value)) {
      if (value.length) params.set(key, value.join(','));
    } else params.set(key, String(value));
  }
  return params.toString();
}

const WORD = /[\p{L}\p{N}]+/gu;

/** The words of a text, lower-cased, in order (what the device's index stores and looks up). */
export function searchWords(input: string): string[] {
  return input.toLowerCase().match(WORD) ?? [];
}

/** The distinct words of a query, at most SEARCH_TERMS_MAX. */
export function queryTerms(query: string): string[] {
  return [...new Set(searchWords(query))].slice(0, SEARCH_TERMS_MAX);
}

export type TextPart = { text: string; match: boolean };

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * A text cut into parts, the matches marked: every place a word of the text starts with one of
 * `terms` (case-insensitive), longest term first, so "prot" marks the start of "Protein" and a
 * matched "protein" marks all of it. No terms: the text as one unmarked part.
 */
export function highlightParts(text: string, terms: readonly string[]): TextPart[] {
  const words = [...new Set(terms.map((t) => t.toLowerCase()).filter(Boolean))].sort((a, b) => b.length - a.length);
  if (!text || words.length === 0) return text ? [{ text, match: false }] : [];
  const pattern = new RegExp(`(?<![\\p{L}\\p{N}])(?:${words.map(escapeRegExp).join('|')})`, 'giu');
  const parts: TextPart[] = [];
  let last = 0;
  for (const found of text.matchAll(pattern)) {
    const at = found.index;
    if (at > last) parts.push({ text: text.slice(last, at), match: false });
    parts.push({ text: found[0], match: true });
    last = at + found[0].length;
  }
  if (last < text.length) parts.push({ text: text.slice(last), match: false });
  return parts;
}

/** A result and whether the device holds it (and so opens it offline). */
export type SearchHit<T> = { item: T; onDevice: boolean };

/**
 * The device's results and the server's as one list, each once. The device's copy wins (it may hold a
 * change the server has not seen). With `compare` (a sort both sides share: newest, amount) the list
 * is ordered by it; without (best match, recommended: scores of two different engines that cannot be
 * compared), the device's results come first in their order, then the server's others in theirs.
 */
export function mergeHits<T extends { id: string }>(
  local: readonly T[],
  server: readonly T[],
  compare?: (a: T, b: T) => number,
): SearchHit<T>[] {
  const seen = new Set(local.map((d) => d.id));
  const hits: SearchHit<T>[] = [
    ...local.map((item) => ({ item, onDevice: true })),
    ...server.filter((d) => !seen.has(d.id)).map((item) => ({ item, onDevice: false })),
  ];
  return compare ? hits.sort((a, b) => compare(a.item, b.item)) : hits;
}

type Sortable = { id: string; amount_cents: number; created_at?: string | null | undefined };

/** Newest first: the creation time, then the id (UUID v7: time-ordered too). */
export const newestFirst = (a: Sortable, b: Sortable): number =>
  (b.created_at ?? '').localeCompare(a.created_at ?? '') || b.id.localeCompare(a.id);

/** The order both sides share for a deal sort, or undefined for the scored ones. */
export function dealSortOrder(sort: DealSort): ((a: Sortable, b: Sortable) => number) | undefined {
  if (sort === 'newest') return newestFirst;
  if (sort === 'amount') return (a, b) => b.amount_cents - a.amount_cents || newestFirst(a, b);
  return undefined;
}
