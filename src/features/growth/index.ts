/**
 * The growth feature's public surface: the referral panel, the leaderboard card, the profile
 * checklist and the smart suggestions other features show (the dashboard). Other features import
 * from here only, never from the files beside it.
 */
export { LeaderboardCard } from './leaderboard-card.tsx';
export { LevelUpNotice } from './level-up-notice.tsx';
export { ProfileChecklist } from './profile-checklist.tsx';
export { ReferralPanel } from './referral-panel.tsx';
export { SmartSuggestionsList } from './smart-suggestions-list.tsx';
