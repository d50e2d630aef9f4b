import type { DealDocument, ProfileDocument } from '../../../domain/collections/index.ts';
import { countShared, scoreDealForCreator, tagSet, type CreatorInput } from '../../../domain/recommendation.ts';

export type BrandMatch = {
  brand: Pick<ProfileDocument, 'id' | 'full_name' | 'username' | 'rating' | 'verified'> | null;
  brandId: string;
  /** The best recommendation score among the brand's fitting deals. */
  score: number;
  deals: Pick<DealDocument, 'id' | 'title' | 'amount_cents' | 'niches'>[];
};

type Deal = Pick<
  DealDocument,
  'id' | 'title' | 'brand_id' | 'amount_cents' | 'niches' | 'platforms' | 'pro_only' | 'status' | 'created_at'
>;
type Brand = Pick<
  ProfileDocument,
  'id' | 'full_name' | 'username' | 'rating' | 'verified' | 'total_deals' | 'pro_tier' | 'pro_until'
>;

/**
 * Brands whose open deals fit the creator: at least one shared niche and, when the creator set one,
 * an amount inside their range. Brands are ordered by their best deal's recommendation score.
 */
export function brandMatches(
  creator: CreatorInput,
  deals: readonly Deal[],
  brands: ReadonlyMap<string, Brand>,
  now: Date,
): BrandMatch[] {
  const niches = tagSet(creator.niches);
  const min = creator.min_deal_amount_cents ?? null;
  const max = creator.max_deal_amount_cents ?? null;
  const byBrand = new Map<string, { score: number; deals: { deal: Deal; score: number }[] }>();
  for (const deal of deals) {
    if (deal.status !== 'open' || deal.brand_id === creator.id) continue;
    if (countShared(niches, deal.niches) === 0) continue;
    if ((min !== null && deal.amount_cents < min) || (max !== null && deal.amount_cents > max)) continue;
    const score = scoreDealForCreator(deal, creator, brands.get(deal.brand_id) ?? null, now).total;
    const entry = byBrand.get(deal.brand_id) ?? { score: 0, deals: [] };
    entry.score = Math.max(entry.score, score);
    entry.deals.push({ deal, score });
    byBrand.set(deal.brand_id, entry);
  }
  return [...byBrand.entries()]
    .map(([brandId, e]) => {
      const b = brands.get(brandId);
      return {
        brandId,
        brand: b
          ? { id: b.id, full_name: b.full_name, username: b.username, rating: b.rating, verified: b.verified }
          : null,
        score: e.score,
        deals: e.deals
          .sort((a, b) => b.score - a.score || a.deal.id.localeCompare(b.deal.id))
          .map(({ deal }) => ({
            id: deal.id,
            title: deal.title,
            amount_cents: deal.amount_cents,
            niches: deal.niches,
          })),
      };
    })
    .sort((a, b) => b.score - a.score || a.brandId.localeCompare(b.brandId));
}
