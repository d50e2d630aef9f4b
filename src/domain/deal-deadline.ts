import { toEpochMs, type Instant } from './instant.ts';
import { NO_LAST_DAY } from './collections/fields.ts';

/**
 * A deal's deadline, as the create and edit forms store it: a calendar day 'YYYY-MM-DD' (older deals
 * may hold free text, which no rule reads). The rule, mirrored by the database when a deal is
 * published or its deadline changed (`pacta_private.deals_check`):
 *
 *   a deadline must not be a day that has already ended. The form asks against the user's own
 *   calendar (today is fine); the server, which does not know the user's time zone, refuses a day
 *   only once it has ended everywhere on Earth (UTC−12), so no one's "today" is refused.
 */

const ISO_DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

export const DEADLINE_MESSAGES = {
  past: 'The deadline has passed. Pick today or a later date.',
  invalid: 'Please pick the deadline from the date field.',
} as const;

/** A real calendar day written as YYYY-MM-DD (not 2026-02-31). */
export function isCalendarDay(text: string): boolean {
  const m = ISO_DAY.exec(text);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(y, mo - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d;
}

/** The user's own calendar day at `now`, as YYYY-MM-DD (the date field's `min`). */
export function localDay(now: Instant = Date.now()): string {
  const date = new Date(toEpochMs(now));
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/**
 * Why a deadline cannot be saved, or null when it can: empty (no deadline) and free text already on
 * the deal pass; a date must be a real day no earlier than `today` (YYYY-MM-DD, the user's calendar).
 */
export function deadlineError(deadline: string, today: string): string | null {
  const text = deadline.trim();
  if (!ISO_DAY.test(text)) return null;
  if (!isCalendarDay(text)) return DEADLINE_MESSAGES.invalid;
  return text < today ? DEADLINE_MESSAGES.past : null;
}

/**
 * The last calendar day a deal is offered to creators (YYYY-MM-DD): its deadline when that is a real
 * day; no deadline, or the free text of an older deal, never ends (NO_LAST_DAY). A deal whose day is
 * before the creator's today refuses applications, so no list offers it.
 */
export function lastOfferedDay(deadline: string | null): string {
  const text = deadline?.trim() ?? '';
  return isCalendarDay(text) ? text : NO_LAST_DAY;
}
