import { formatDistanceToNowStrict } from 'date-fns';

/** "5 minutes ago"; an unknown time reads "just now" (a local write not yet stamped). */
export function timeAgo(iso: string | null | undefined, now: Date = new Date()): string {
  if (!iso) return 'just now';
  const at = new Date(iso);
  if (Number.isNaN(at.getTime()) || now.getTime() - at.getTime() < 45_000) return 'just now';
  return formatDistanceToNowStrict(at, { addSuffix: true });
}

export function dateTime(iso: string | null | undefined): string {
  if (!iso) return '';
  const at = new Date(iso);
  return Number.isNaN(at.getTime()) ? '' : at.toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short' });
}
