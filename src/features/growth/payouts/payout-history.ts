import type { GrowthDocument } from '../../../domain/collections/index.ts';

export const PAYOUT_FILTERS = ['all', 'pending', 'paid'] as const;
export type PayoutFilter = (typeof PAYOUT_FILTERS)[number];
export const PAYOUT_FILTER_LABELS: Record<PayoutFilter, string> = { all: 'All', pending: 'Pending', paid: 'Paid' };

export type PayoutRow = { id: string; type: string; amountCents: number; status: 'pending' | 'paid'; date: string };

/**
 * The payout history's rows (spec 001 "Referral payout history"): Type is reward_type with underscores
 * as spaces; Date is paid_at if present, otherwise issued_at; newest first. Only the user's own rewards.
 */
export function payoutRows(
  userId: string,
  docs: readonly Pick<GrowthDocument, 'id' | 'kind' | 'user_id' | 'data'>[],
  filter: PayoutFilter,
): PayoutRow[] {
  const rows: PayoutRow[] = [];
  for (const doc of docs) {
    if (doc.kind !== 'referral_reward' || doc.user_id !== userId) continue;
    const d = doc.data;
    const status = d.status === 'paid' ? 'paid' : 'pending';
    if (filter !== 'all' && status !== filter) continue;
    rows.push({
      id: doc.id,
      type: String(d.reward_type ?? '').replace(/_/g, ' '),
      amountCents: typeof d.amount_cents === 'number' ? d.amount_cents : 0,
      status,
      date: String(d.paid_at ?? d.issued_at ?? ''),
    });
  }
  return rows.sort((a, b) => b.date.localeCompare(a.date) || a.id.localeCompare(b.id));
}
