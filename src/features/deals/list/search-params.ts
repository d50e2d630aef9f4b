import { CREATOR_SORTS, DEAL_SORTS, SEARCH_TEXT_MAX, type CreatorSort, type DealSort } from '../../../domain/search.ts';
import { NO_FILTERS, type DealFilterValues } from './deal-filters.ts';

/**
 * A search on /deals lives in the page's address, so it can be shared and Back returns to the one
 * before: `?q=kayak&sort=amount&niches=Travel,Fitness&min=50&max=500&category=…` for deals,
 * `?q=…&niches=…&followers=10000&region=Spain&rating=4&sort=…` for creators. Defaults are left out.
 */
export type DealSearchState = { q: string; sort: DealSort; filters: DealFilterValues };
export type CreatorSearchState = {
  q: string;
  sort: CreatorSort;
  niches: string[];
  minFollowers: string;
  region: string;
  minRating: string;
};

const oneOf = <T extends string>(values: readonly T[], value: string | null, fallback: T): T =>
  values.includes(value as T) ? (value as T) : fallback;
const list = (value: string | null) =>
  (value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
const text = (params: URLSearchParams, key: string) => (params.get(key) ?? '').slice(0, SEARCH_TEXT_MAX);

export function readDealSearch(params: URLSearchParams): DealSearchState {
  return {
    q: text(params, 'q'),
    sort: oneOf(DEAL_SORTS, params.get('sort'), 'best'),
    filters: {
      category: params.get('category') ?? NO_FILTERS.category,
      minAmount: params.get('min') ?? NO_FILTERS.minAmount,
      maxAmount: params.get('max') ?? NO_FILTERS.maxAmount,
      niches: list(params.get('niches')),
    },
  };
}

export function readCreatorSearch(params: URLSearchParams): CreatorSearchState {
  return {
    q: text(params, 'q'),
    sort: oneOf(CREATOR_SORTS, params.get('sort'), 'best'),
    niches: list(params.get('niches')),
    minFollowers: params.get('followers') ?? '',
    region: params.get('region') ?? '',
    minRating: params.get('rating') ?? '',
  };
}

function write(entries: [string, string][]): URLSearchParams {
  return new URLSearchParams(entries.filter(([, v]) => v.trim() !== ''));
}

export function dealSearchParams(s: DealSearchState): URLSearchParams {
  return write([
    ['q', s.q],
    ['category', s.filters.category],
    ['min', s.filters.minAmount],
    ['max', s.filters.maxAmount],
    ['niches', s.filters.niches.join(',')],
    ['sort', s.sort === 'best' ? '' : s.sort],
  ]);
}

export function creatorSearchParams(s: CreatorSearchState): URLSearchParams {
  return write([
    ['q', s.q],
    ['niches', s.niches.join(',')],
    ['followers', s.minFollowers],
    ['region', s.region],
    ['rating', s.minRating],
    ['sort', s.sort === 'best' ? '' : s.sort],
  ]);
}

/**
 * Whether a change of the text gets its own entry in the history: starting a search and clearing it
 * do (as a filter or a sort does); each further letter typed replaces the entry (Back would otherwise
 * undo a query letter by letter).
 */
export function isNewHistoryEntry(before: { q: string }, after: { q: string }): boolean {
  return (before.q.trim() === '') !== (after.q.trim() === '');
}
