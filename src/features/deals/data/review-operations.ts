import { v7 as uuidv7 } from 'uuid';
import type { PactaDatabase } from '../../../db/index.ts';
import { prepareDocument } from '../../../db/index.ts';
import type { DealDocument, ReviewDocument } from '../../../domain/collections/index.ts';

/** "within 14 days" of the deal's completion; "text up to 2,000 characters". */
export const REVIEW_WINDOW_MS = 14 * 24 * 3600 * 1000;
export const MAX_REVIEW_LENGTH = 2_000;

export class ReviewError extends Error {}

/** Whom the user reviews on this deal: the brand reviews its selected creators, a selected creator the brand. */
export function revieweesFor(
  deal: Pick<DealDocument, 'brand_id' | 'selected_creator_ids' | 'status'>,
  userId: string,
): string[] {
  if (deal.status !== 'completed') return [];
  if (deal.brand_id === userId) return [...deal.selected_creator_ids];
  return deal.selected_creator_ids.includes(userId) ? [deal.brand_id] : [];
}

/** When the review window closes (null while the deal is not completed, or before its completion is known). */
export function reviewWindowClosesAt(deal: Pick<DealDocument, 'completed_at'>): number | null {
  return deal.completed_at ? Date.parse(deal.completed_at) + REVIEW_WINDOW_MS : null;
}

/** Whether others may read the review now (blind reviews: both written, or the window closed). */
export function isPublished(review: Pick<ReviewDocument, 'published_at'>, now: number): boolean {
  return review.published_at !== null && Date.parse(review.published_at) <= now;
}

/** Writes the user's review (once; the server re-checks every rule and may refuse it with a reason). */
export async function writeReview(
  db: PactaDatabase,
  input: { dealId: string; reviewerId: string; revieweeId: string; rating: number; content: string },
): Promise<void> {
  if (!Number.isInteger(input.rating) || input.rating < 1 || input.rating > 5)
    throw new ReviewError('Choose a rating from 1 to 5 stars.');
  const content = input.content.trim();
  if (content.length > MAX_REVIEW_LENGTH) throw new ReviewError('A review can be at most 2,000 characters.');
  const existing = await db.reviews
    .findOne({ selector: { deal_id: input.dealId, reviewer_id: input.reviewerId, reviewee_id: input.revieweeId } })
    .exec();
  if (existing) throw new ReviewError('You have already reviewed this deal.');
  await db.reviews.insert(
    prepareDocument('reviews', {
      id: uuidv7(),
      deal_id: input.dealId,
      reviewer_id: input.reviewerId,
      reviewee_id: input.revieweeId,
      rating: input.rating,
      content,
      created_at: new Date().toISOString(),
    }),
  );
}
