/**
 * The recommendations worker's state and methods, with no side effects on import, so the logic can be
 * exposed by the real worker (recommendations.worker.ts) and tested or benchmarked anywhere.
 */
import {
  compareIds,
  recommendCreators,
  recommendDeals,
  type BrandInput,
  type CreatorInput,
  type DealInput,
} from '../src/domain/recommendation.ts';
import type { ScoredId, WorkerApi } from './worker-api.ts';

/**
 * Documents of one kind, loaded whole or in chunks, kept in id order for scoring: ranking id-ordered
 * candidates is cheaper (see IdOrderTracker in recommendation.ts). Sorting waits until the next
 * scoring call, so a load sent in many chunks is sorted once.
 */
class DocumentSet<T extends { id: string }> {
  private documents: T[] | null = null;
  private sorted = true;

  replace(documents: readonly T[]): number {
    this.documents = [...documents];
    this.sorted = false;
    return this.documents.length;
  }

  append(documents: readonly T[]): number | null {
    if (!this.documents) return null;
    for (const document of documents) this.documents.push(document);
    this.sorted = false;
    return this.documents.length;
  }

  forScoring(): readonly T[] | null {
    if (this.documents && !this.sorted) {
      this.documents.sort((a, b) => compareIds(a.id, b.id));
      this.sorted = true;
    }
    return this.documents;
  }
}

/** The recommendation half of the worker's API (the search half is search-service.ts). */
type RecommendationsApi = Omit<WorkerApi, 'indexDeals' | 'indexCreators' | 'searchDeals' | 'searchCreators'>;

export function createRecommendationsService(): RecommendationsApi {
  const deals = new DocumentSet<DealInput>();
  const creators = new DocumentSet<CreatorInput>();
  let brands = new Map<string, BrandInput>();

  return {
    ready: () => 'ready',

    loadDeals(nextDeals, nextBrands) {
      brands = new Map(nextBrands.map((brand) => [brand.id, brand]));
      return { count: deals.replace(nextDeals) };
    },

    appendDeals(moreDeals, moreBrands = []) {
      const count = deals.append(moreDeals);
      if (count === null) throw new Error('Recommendations worker: loadDeals() must be called before appendDeals()');
      for (const brand of moreBrands) brands.set(brand.id, brand);
      return { count };
    },

    loadCreators(nextCreators) {
      return { count: creators.replace(nextCreators) };
    },

    appendCreators(moreCreators) {
      const count = creators.append(moreCreators);
      if (count === null)
        throw new Error('Recommendations worker: loadCreators() must be called before appendCreators()');
      return { count };
    },

    scoreDealsFor(creator, options): ScoredId[] {
      const loaded = deals.forScoring();
      // Scoring before loading is a caller bug; answering [] would look like "no deals" to a user.
      if (!loaded) throw new Error('Recommendations worker: loadDeals() must be called before scoreDealsFor()');
      const { appliedDealIds, skippedDealIds, creatorIsPro } = options;
      const context = { brands, appliedDealIds, skippedDealIds, creatorIsPro };
      return recommendDeals(creator, loaded, context, options).map(({ item, score }) => ({ id: item.id, score }));
    },

    scoreCreatorsFor(deal, options): ScoredId[] {
      const loaded = creators.forScoring();
      if (!loaded) throw new Error('Recommendations worker: loadCreators() must be called before scoreCreatorsFor()');
      const context = { excludeCreatorIds: options.excludeCreatorIds };
      return recommendCreators(deal, loaded, context, options).map(({ item, score }) => ({ id: item.id, score }));
    },
  };
}
