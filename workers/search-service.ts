/**
 * The device's search index of deals and creators (MiniSearch, in the worker: building the index of
 * 10,000 deals is a long task that would freeze typing on the main thread). No side effects on
 * import, so tests and the bench run it anywhere.
 */
import MiniSearch, { type SearchResult } from 'minisearch';
import { recommendCreators, recommendDeals } from '../src/domain/recommendation.ts';
import { newestFirst, queryTerms, searchWords } from '../src/domain/search.ts';
import type {
  LocalCreatorSearch,
  LocalDealSearch,
  LocalSearchAnswer,
  SearchableCreator,
  SearchableDeal,
} from './worker-api.ts';

// Fields are joined lists for MiniSearch, which indexes strings.
const joinField = (doc: object, field: string): string => {
  const value = (doc as Record<string, unknown>)[field];
  if (Array.isArray(value)) return value.join(' ');
  return typeof value === 'string' ? value : '';
};

/**
 * Words typed so far: the last one is still being typed, so it is a prefix ("prot" finds "protein")
 * once it has two letters (one letter would expand to a good part of the vocabulary, the slowest
 * lookup there is, for results nobody reads); a word of five letters or more forgives a typo; and
 * every word must match somewhere (AND), as people expect of a box that narrows as they type.
 */
const searchOptions = {
  prefix: (term: string, i: number, terms: string[]) => i === terms.length - 1 && term.length >= 2,
  fuzzy: (term: string) => (term.length >= 5 ? 0.2 : false),
  combineWith: 'AND' as const,
};

function makeIndex(fields: string[], boost: Record<string, number>) {
  return new MiniSearch<{ id: string }>({
    fields,
    idField: 'id',
    extractField: joinField,
    tokenize: searchWords,
    processTerm: (term) => term,
    searchOptions: { ...searchOptions, boost, tokenize: (q: string) => queryTerms(q) },
  });
}

/** Documents by id with the index over them; an upsert replaces a document's entry. */
class Indexed<T extends { id: string }> {
  readonly docs = new Map<string, T>();
  constructor(private readonly index: MiniSearch<{ id: string }>) {}

  apply(upserts: readonly T[], removedIds: readonly string[]): number {
    for (const id of removedIds) this.remove(id);
    for (const doc of upserts) {
      this.remove(doc.id);
      this.index.add(doc);
      this.docs.set(doc.id, doc);
    }
    return this.docs.size;
  }

  clear(): void {
    this.index.removeAll();
    this.docs.clear();
  }

  private remove(id: string): void {
    if (!this.docs.has(id)) return;
    // discard: the entry is dropped lazily (vacuumed by MiniSearch), without the document's old text.
    this.index.discard(id);
    this.docs.delete(id);
  }

  /** Text matches with their matched words, best first; no text: every document. */
  match(q: string): { doc: T; terms: string[] }[] {
    if (queryTerms(q).length === 0) return [...this.docs.values()].map((doc) => ({ doc, terms: [] }));
    return this.index.search(q).flatMap((r: SearchResult) => {
      const doc = this.docs.get(r.id as string);
      return doc ? [{ doc, terms: r.terms }] : [];
    });
  }
}

const hasAny = (tags: readonly string[] | null | undefined, wanted: readonly string[] | undefined): boolean => {
  if (!wanted?.length) return true;
  const own = new Set((tags ?? []).map((t) => t.toLowerCase()));
  return wanted.some((w) => own.has(w.toLowerCase()));
};

function answer<T extends { id: string }>(
  ordered: readonly { doc: T; terms: string[] }[],
  limit: number,
): LocalSearchAnswer {
  return { matches: ordered.slice(0, limit).map(({ doc, terms }) => ({ id: doc.id, terms })), total: ordered.length };
}

export function createSearchService() {
  const deals = new Indexed<SearchableDeal>(
    makeIndex(['title', 'brand_name', 'niches', 'category', 'deliverables', 'description'], {
      title: 3,
      brand_name: 2,
      niches: 2,
      category: 1.5,
      deliverables: 1.2,
    }),
  );
  const creators = new Indexed<SearchableCreator>(
    makeIndex(['name', 'username', 'niches', 'region', 'bio'], { name: 3, username: 3, niches: 2, region: 1.5 }),
  );

  return {
    /** Adds or replaces deals and drops removed ones; answers how many the index holds. */
    indexDeals(upserts: readonly SearchableDeal[], removedIds: readonly string[], reset = false): { count: number } {
      if (reset) deals.clear();
      return { count: deals.apply(upserts, removedIds) };
    },

    indexCreators(
      upserts: readonly SearchableCreator[],
      removedIds: readonly string[],
      reset = false,
    ): { count: number } {
      if (reset) creators.clear();
      return { count: creators.apply(upserts, removedIds) };
    },

    searchDeals(request: LocalDealSearch): LocalSearchAnswer {
      const { category, minCents, maxCents, niches } = request;
      const found = deals
        .match(request.q)
        .filter(
          ({ doc }) =>
            (!category || doc.category === category) &&
            (minCents === undefined || doc.amount_cents >= minCents) &&
            (maxCents === undefined || doc.amount_cents <= maxCents) &&
            hasAny(doc.niches, niches),
        );
      const hasText = queryTerms(request.q).length > 0;
      if (request.sort === 'recommended' && request.creator) {
        const terms = new Map(found.map((f) => [f.doc.id, f.terms]));
        const ranked = recommendDeals(
          request.creator,
          found.map((f) => f.doc),
          { creatorIsPro: request.creatorIsPro },
          { now: request.now, limit: Infinity },
        );
        return answer(
          ranked.map((r) => ({ doc: r.item, terms: terms.get(r.item.id) ?? [] })),
          request.limit,
        );
      }
      if (request.sort === 'amount')
        found.sort((a, b) => b.doc.amount_cents - a.doc.amount_cents || newestFirst(a.doc, b.doc));
      // Best match without text (nothing to match) is the list's own order: newest first.
      else if (request.sort === 'newest' || !hasText) found.sort((a, b) => newestFirst(a.doc, b.doc));
      return answer(found, request.limit);
    },

    searchCreators(request: LocalCreatorSearch): LocalSearchAnswer {
      const { niches, minFollowers, minRating } = request;
      const region = request.region?.trim().toLowerCase();
      const found = creators
        .match(request.q)
        .filter(
          ({ doc }) =>
            (doc.role == null || doc.role === 'creator') &&
            hasAny(doc.niches, niches) &&
            (minFollowers === undefined || (doc.followers ?? 0) >= minFollowers) &&
            (minRating === undefined || (doc.rating ?? 0) >= minRating) &&
            (!region || (doc.region ?? '').toLowerCase() === region),
        );
      const hasText = queryTerms(request.q).length > 0;
      if (request.sort === 'recommended' && request.deal) {
        const terms = new Map(found.map((f) => [f.doc.id, f.terms]));
        const ranked = recommendCreators(
          request.deal,
          found.map((f) => f.doc),
          {},
          { now: request.now, limit: Infinity },
        );
        return answer(
          ranked.map((r) => ({ doc: r.item, terms: terms.get(r.item.id) ?? [] })),
          request.limit,
        );
      }
      const byFollowers = (a: SearchableCreator, b: SearchableCreator) =>
        (b.followers ?? 0) - (a.followers ?? 0) || a.id.localeCompare(b.id);
      if (request.sort === 'rating')
        found.sort((a, b) => (b.doc.rating ?? 0) - (a.doc.rating ?? 0) || byFollowers(a.doc, b.doc));
      else if (request.sort === 'followers' || !hasText) found.sort((a, b) => byFollowers(a.doc, b.doc));
      return answer(found, request.limit);
    },
  };
}
