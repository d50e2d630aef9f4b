import { toEpochMs, type Instant } from './instant.ts';

/**
 * The one answer to "is this user Pro now", mirrored in SQL by `public.is_pro_user` (the server's
 * answer, which decides what a user may see and do; this one lets the UI predict it offline):
 *
 *   a paid tier (anything but 'free') whose end date has not passed — no end date is an open-ended
 *   subscription, and the end instant itself is no longer Pro — OR an unexpired grant of the Pro
 *   access feature (`pro_deals`: referral rewards, support gestures; a grant without an end is permanent).
 *
 * The client learns of grants through the profile: the database mirrors the user's granted Pro
 * features onto `profiles.granted_pro_features` ({ feature: end instant | null }), which syncs like
 * every profile field (docs/decisions/010-pro-status-and-shared-constants.md).
 * `tests/rules/domain-constants.pg.test.ts` checks that both sides answer alike.
 */

/** The granted feature that makes a user Pro (the other features grant only themselves). */
export const PRO_ACCESS_FEATURE = 'pro_deals';

/** The Pro columns of a profile. */
export type ProMembership = {
  pro_tier?: string | null;
  pro_until?: string | null;
  /** Granted Pro features and when each ends (null: never), mirrored by the database. */
  granted_pro_features?: Readonly<Record<string, unknown>> | null;
};

/** Ends strictly after `now`, or never (null). An unreadable end counts as ended. */
function stillRunning(end: unknown, now: number): boolean {
  if (end === null) return true;
  if (typeof end !== 'string') return false;
  const ms = Date.parse(end);
  return Number.isFinite(ms) && ms > now;
}

/** A paid tier that has not lapsed. */
export function hasPaidProNow(member: ProMembership, now: Instant): boolean {
  if (!member.pro_tier || member.pro_tier === 'free') return false;
  return member.pro_until == null || stillRunning(member.pro_until, toEpochMs(now));
}

/** An unexpired grant of one Pro feature ('pro_deals', 'lower_commission', …). */
export function hasGrantedFeatureNow(member: ProMembership, feature: string, now: Instant): boolean {
  const grants = member.granted_pro_features;
  if (!grants || !Object.hasOwn(grants, feature)) return false;
  return stillRunning(grants[feature], toEpochMs(now));
}

/** Is this user Pro now: paid tier in date, or an unexpired grant of Pro access. */
export function isProNow(member: ProMembership | null | undefined, now: Instant = Date.now()): boolean {
  if (!member) return false;
  return hasPaidProNow(member, now) || hasGrantedFeatureNow(member, PRO_ACCESS_FEATURE, now);
}
