import { formatDistanceToNowStrict } from 'date-fns';

/** 'at 14:05 (3 minutes ago)': when a board shown offline was last seen online. */
export function seenAtText(iso: string, now: Date = new Date()): string {
  const at = new Date(iso);
  const time = at.toLocaleString(
    undefined,
    at.toDateString() === now.toDateString()
      ? { hour: '2-digit', minute: '2-digit' }
      : { dateStyle: 'medium', timeStyle: 'short' },
  );
  return `at ${time} (${formatDistanceToNowStrict(at, { addSuffix: true })})`;
}
