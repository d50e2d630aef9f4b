/**
 * The recommendations worker's state and methods, with no side effects on import, so the logic can be
 * exposed by the real worker (recommendations.worker.ts) and tested or benchmarked anywhere.
 */
import { recommendCreators, recommendDeals, type BrandInput, type CreatorInput, type DealInput } from '../src/domain/recommendation.ts';
import type { ScoredId, WorkerApi } from './worker-api.ts';

export function createRecommendationsService(): WorkerApi {
  let deals: readonly DealInput[] | null = null;
  let brands = new Map<string, BrandInput>();
  let creators: readonly CreatorInput[] | null = null;

  return {
    ready: () => 'ready',

    loadDeals(nextDeals, nextBrands) {
      deals = nextDeals;
      brands = new Map(nextBrands.map((brand) => [brand.id, brand]));
      return { count: deals.length };
    },

    loadCreators(nextCreators) {
      creators = nextCreators;
      return { count: creators.length };
    },

    scoreDealsFor(creator, options): ScoredId[] {
      // Scoring before loading is a caller bug; answering [] would look like "no deals" to a user.
      if (!deals) throw new Error('Recommendations worker: loadDeals() must be called before scoreDealsFor()');
      const context = { brands, appliedDealIds: options.appliedDealIds, skippedDealIds: options.skippedDealIds };
      return recommendDeals(creator, deals, context, options).map(({ item, score }) => ({ id: item.id, score }));
    },

    scoreCreatorsFor(deal, options): ScoredId[] {
      if (!creators) throw new Error('Recommendations worker: loadCreators() must be called before scoreCreatorsFor()');
      const context = { excludeCreatorIds: options.excludeCreatorIds };
      return recommendCreators(deal, creators, context, options).map(({ item, score }) => ({ id: item.id, score }));
    },
  };
}
