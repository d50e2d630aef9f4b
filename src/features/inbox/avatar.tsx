import { Avatar as PersonAvatar } from '../../components/avatar.tsx';
import type { ProfileDocument } from '../../domain/collections/index.ts';
import { displayName } from './inbox-format.ts';

/**
 * The person's avatar in the inbox, through the shared avatar: a picture on another site is never
 * fetched (a profile must not make every reader's browser call a third party), initials instead.
 */
export function Avatar({ profile, absent }: { profile: ProfileDocument | undefined; absent?: string }) {
  return <PersonAvatar name={displayName(profile, absent)} url={profile?.avatar_url} size={40} />;
}
