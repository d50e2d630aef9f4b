import type { ProfileDocument } from '../../domain/collections/index.ts';

/** A person's name as the inbox shows it. */
export function displayName(profile: ProfileDocument | undefined): string {
  if (!profile) return 'Pacta member';
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
