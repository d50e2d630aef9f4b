/**
 * The referral leaderboard (docs/design.md "leaderboard"): by qualified referrals, over a week (7 days),
 * a month (30 days) or all time; the top 50 on the page and the user's own rank. Computed by the
 * server (other users' referrals never reach a device); shared here so both sides agree on the shape.
 */
export const LEADERBOARD_PERIODS = ['week', 'month', 'all'] as const;
export type LeaderboardPeriod = (typeof LEADERBOARD_PERIODS)[number];
export const LEADERBOARD_SIZE = 50;

export const LEADERBOARD_PERIOD_LABELS: Record<LeaderboardPeriod, string> = {
  week: 'This week',
  month: 'This month',
  all: 'All time',
};

const PERIOD_DAYS: Record<LeaderboardPeriod, number | null> = { week: 7, month: 30, all: null };

/** The start of the period (referrals qualified at or after it count); null for all time. */
export function leaderboardSince(period: LeaderboardPeriod, now: Date): Date | null {
  const days = PERIOD_DAYS[period];
  return days === null ? null : new Date(now.getTime() - days * 86_400_000);
}

/** The name a leaderboard row shows: the username, else the name the server gives (first name and last initial). */
export function leaderboardName(entry: { username: string | null; full_name: string }): string {
  return entry.username || entry.full_name || 'Pacta member';
}
