import type { ApplicationDocument, DealDocument, MessageDocument } from '../../domain/collections/index.ts';

/** Pure parts of the dashboard (no React, no database): what it shows, computed from documents. */

export type Stat = { label: string; value: number | string };

/** Newest first; equal times (one server transaction) fall back to the id, so the order is stable. */
const newestFirst = <T extends { id: string; created_at?: string }>(a: T, b: T) =>
  (b.created_at ?? '').localeCompare(a.created_at ?? '') || b.id.localeCompare(a.id);

export function sortNewestFirst<T extends { id: string; created_at?: string }>(docs: readonly T[]): T[] {
  return [...docs].sort(newestFirst);
}

export function brandStats(deals: readonly Pick<DealDocument, 'status' | 'applications_count'>[]): Stat[] {
  const count = (status: DealDocument['status']) => deals.filter((d) => d.status === status).length;
  return [
    { label: 'Total deals', value: deals.length },
    { label: 'Open deals', value: count('open') },
    { label: 'In progress', value: count('in_progress') },
    { label: 'Completed', value: count('completed') },
    { label: 'Applications received', value: deals.reduce((n, d) => n + d.applications_count, 0) },
  ];
}

export function creatorStats(applications: readonly Pick<ApplicationDocument, 'status'>[], completedDeals: number): Stat[] {
  const count = (status: ApplicationDocument['status']) => applications.filter((a) => a.status === status).length;
  return [
    { label: 'Applications', value: applications.length },
    { label: 'Pending', value: count('pending') },
    { label: 'Accepted', value: count('accepted') },
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
