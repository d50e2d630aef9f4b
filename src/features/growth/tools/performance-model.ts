import type { DealDocument, MessageDocument, ReviewDocument } from '../../../domain/collections/index.ts';
import { isCompletedDealOf } from '../../../domain/completed-deals.ts';
import { lastMonths, monthKey, monthLabel } from './month-series.ts';

export const PERFORMANCE_MONTHS = 6;

export type Performance = {
  completedDeals: number;
  averageRating: number | null;
  ratingByMonth: { month: string; label: string; value: number | null }[];
  /** Average minutes between a message received and the user's next reply in that conversation. */
  responseMinutes: number | null;
  replies: number;
};

/**
 * Completed deals (isCompletedDealOf: as a selected creator or as brand), the rating received over time (average per month)
 * and the response time in the inbox.
 */
export function performance(
  userId: string,
  opts: {
    deals: readonly Pick<DealDocument, 'brand_id' | 'selected_creator_ids' | 'status'>[];
    reviews: readonly Pick<ReviewDocument, 'reviewee_id' | 'rating' | 'created_at'>[];
    messages: readonly Pick<MessageDocument, 'conversation_id' | 'sender_id' | 'recipient_id' | 'created_at'>[];
    now: Date;
  },
): Performance {
  const completedDeals = opts.deals.filter((d) => isCompletedDealOf(d, userId)).length;
  const received = opts.reviews.filter((r) => r.reviewee_id === userId);
  const months = lastMonths(opts.now, PERFORMANCE_MONTHS);
  const byMonth = new Map<string, number[]>();
  for (const r of received) {
    const key = r.created_at ? monthKey(r.created_at) : null;
    if (key) byMonth.set(key, [...(byMonth.get(key) ?? []), r.rating]);
  }
  const avg = (xs: readonly number[]) => Math.round((xs.reduce((a, b) => a + b, 0) / xs.length) * 100) / 100;

  // Response time: for each conversation in time order, a received message waiting for an answer is
  // answered by the user's next message; later received messages before that reply do not restart it.
  const byConversation = new Map<string, { mine: boolean; at: number }[]>();
  for (const m of opts.messages) {
    if (m.sender_id !== userId && m.recipient_id !== userId) continue;
    const at = m.created_at ? Date.parse(m.created_at) : NaN;
    if (!Number.isFinite(at)) continue;
    byConversation.set(m.conversation_id, [
      ...(byConversation.get(m.conversation_id) ?? []),
      { mine: m.sender_id === userId, at },
    ]);
  }
  const waits: number[] = [];
  for (const thread of byConversation.values()) {
    thread.sort((a, b) => a.at - b.at);
    let waitingSince: number | null = null;
    for (const m of thread) {
      if (!m.mine && waitingSince === null) waitingSince = m.at;
      if (m.mine && waitingSince !== null) {
        waits.push((m.at - waitingSince) / 60_000);
        waitingSince = null;
      }
    }
  }
  return {
    completedDeals,
    averageRating: received.length ? avg(received.map((r) => r.rating)) : null,
    ratingByMonth: months.map((month) => ({
      month,
      label: monthLabel(month),
      value: byMonth.has(month) ? avg(byMonth.get(month)!) : null,
    })),
    responseMinutes: waits.length ? Math.round(waits.reduce((a, b) => a + b, 0) / waits.length) : null,
    replies: waits.length,
  };
}
