/**
 * The profiles feature's public surface: the profile cards and profile edits other features show
 * (the dashboard, settings). Other features import from here only, never from the files beside it.
 */
export { SavedListCard } from './saved-list-card.tsx';
export { SocialLinksForm } from './social-links-form.tsx';
export { ProfileEditError, updateProfile } from './data/update-profile.ts';
export { XpProgress } from './xp-progress.tsx';
export { SaveToggle } from './save-toggle.tsx';
export { useInvitations } from './portfolio/use-invitations.ts';
