import type { MessageDocument } from '../../domain/collections/index.ts';

/** Pure parts of the dashboard (no React, no database): what it shows, computed from documents. */

export type Stat = { label: string; value: number | string };

/** Newest first; equal times (one server transaction) fall back to the id, so the order is stable. */
const newestFirst = <T extends { id: string; created_at?: string }>(a: T, b: T) =>
  (b.created_at ?? '').localeCompare(a.created_at ?? '') || b.id.localeCompare(a.id);

export function sortNewestFirst<T extends { id: string; created_at?: string }>(docs: readonly T[]): T[] {
  return [...docs].sort(newestFirst);
}

/** A figure not counted yet (the dashboard's list is read first). */
export const COUNTING = '…';

/** What the brand's Quick Stats show, each a count the local database answers from an index. */
export type BrandCounts = { total: number; open: number; in_progress: number; completed: number; received: number };

/** The brand's Quick Stats; `counts` undefined while they are being counted. */
export function brandStats(counts: BrandCounts | undefined): Stat[] {
  return [
    { label: 'Total deals', value: counts?.total ?? COUNTING },
    { label: 'Open deals', value: counts?.open ?? COUNTING },
    { label: 'In progress', value: counts?.in_progress ?? COUNTING },
    { label: 'Completed', value: counts?.completed ?? COUNTING },
    { label: 'Applications received', value: counts?.received ?? COUNTING },
  ];
}

/** What the creator's Quick Stats count (applications by status), besides the profile's completed deals. */
export type CreatorCounts = { total: number; pending: number; accepted: number };

/** The creator's Quick Stats; `counts` undefined while they are being counted. */
export function creatorStats(counts: CreatorCounts | undefined, completedDeals: number): Stat[] {
  return [
    { label: 'Applications', value: counts?.total ?? COUNTING },
    { label: 'Pending', value: counts?.pending ?? COUNTING },
    { label: 'Accepted', value: counts?.accepted ?? COUNTING },
    { label: 'Completed deals', value: completedDeals },
  ];
}

/** Messages where the user is sender or recipient, newest first, 5. */
export function recentMessages(messages: readonly MessageDocument[], userId: string, limit = 5): MessageDocument[] {
  return sortNewestFirst(messages.filter((m) => m.sender_id === userId || m.recipient_id === userId)).slice(0, limit);
}

/**
 * The dashboard's greeting. Someone who has only just joined and has nothing on the board yet is
 * welcomed, not welcomed back.
 */
export function greeting(
  name: string,
  account: { createdAt: string | null | undefined; itemCount: number; messageCount: number },
  now: Date = new Date(),
): string {
  const ageMs = account.createdAt ? now.getTime() - Date.parse(account.createdAt) : 0;
  const isNew = account.itemCount === 0 && account.messageCount === 0 && ageMs < 7 * 24 * 3600 * 1000;
  return isNew ? `Welcome to Pacta, ${name}` : `Welcome back, ${name}`;
}
