import type { Tx } from '../db/database.ts';

/**
 * "A completed deal not released or disputed within 14 days is released automatically" — only a
 * deal without submissions; one whose work was submitted is released when its payout hold ends.
 */
export const AUTO_RELEASE_DAYS = 14;

/**
 * When held escrow is released on its own, as the money jobs will do it: for a deal whose work was
 * submitted, when the payout hold ends (one creator's, or the latest of all accepted creators');
 * otherwise 14 days after completion. Null while that moment is not known yet (work not approved,
 * deal not completed). The payment panel and the earnings page both ask this, so they agree.
 */
export async function escrowReleaseDue(
  tx: Tx,
  deal: { id: string; completed_at: Date | null },
  creatorId?: string,
): Promise<Date | null> {
  const { rows } = await tx.query<{ submitted: boolean; due: Date | null }>(
    `select exists (select 1 from public.deal_events where deal_id = $1 and kind = 'draft') as submitted,
            max(payout_due_at) as due
       from public.applications
      where deal_id = $1 and status = 'accepted' and ($2::uuid is null or creator_id = $2)`,
    [deal.id, creatorId ?? null],
  );
  const hold = rows[0]!;
  if (hold.submitted) return hold.due;
  return deal.completed_at ? new Date(deal.completed_at.getTime() + AUTO_RELEASE_DAYS * 86_400_000) : null;
}
