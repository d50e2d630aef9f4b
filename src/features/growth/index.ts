/**
 * The growth feature's public surface: the referral panel and the leaderboard card other features
 * show (the dashboard). Other features import from here only, never from the files beside it.
 */
export { LeaderboardCard } from './leaderboard-card.tsx';
export { ReferralPanel } from './referral-panel.tsx';
