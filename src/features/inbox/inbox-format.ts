import type { ProfileDocument } from '../../domain/collections/index.ts';

/** Whom a conversation names when the other person's profile is not on the device. */
const NOT_YET_SYNCED_NAME = 'Pacta member';
/**
 * Every profile replicates to every device (any signed-in user may read profiles), so once this
 * session's first sync is complete a missing one is an account that was deleted: its messages stay,
 * shown as from "Deleted user".
 */
const DELETED_ACCOUNT_NAME = 'Deleted user';

export function absentPersonName(firstSyncComplete: boolean): string {
  return firstSyncComplete ? DELETED_ACCOUNT_NAME : NOT_YET_SYNCED_NAME;
}

/** A person's name as the inbox shows it; `absent` when their profile is not on the device. */
export function displayName(profile: ProfileDocument | undefined, absent = NOT_YET_SYNCED_NAME): string {
  if (!profile) return absent;
  return profile.full_name || (profile.username ? `@${profile.username}` : 'Pacta member');
}

/** Short time for lists: today's time, otherwise the date. */
export function shortTime(iso: string | null | undefined, now = new Date()): string {
  if (!iso) return '';
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return '';
  const sameDay = at.toDateString() === now.toDateString();
  return sameDay
    ? at.toLocaleTimeString('en-US', { hour: 'numeric', minute: '2-digit' })
    : at.toLocaleDateString('en-US', {
        month: 'short',
        day: 'numeric',
        ...(at.getFullYear() === now.getFullYear() ? {} : { year: 'numeric' }),
      });
}
