import type { DealDocument } from './collections/index.ts';

/**
 * The one definition of a user's completed deals, as the database counts `profiles.completed_deals`
 * (pacta_private.deals_effects): a completed deal the user published (brand), or a completed deal
 * the user was selected for (an accepted creator; a campaign selects several). An application to a
 * deal that was completed with someone else is not one, whatever its own status.
 */
export function isCompletedDealOf(
  deal: Pick<DealDocument, 'status' | 'brand_id' | 'selected_creator_ids'>,
  userId: string,
): boolean {
  return deal.status === 'completed' && (deal.brand_id === userId || deal.selected_creator_ids.includes(userId));
}

/**
 * The same for a creator's application, read from the application alone (My Deals counts and lists
 * applications): the server keeps the deal's status on it, and an accepted application is what puts
 * the creator among the deal's selected creators.
 */
export const COMPLETED_APPLICATION = { deal_status: 'completed', status: 'accepted' } as const;
