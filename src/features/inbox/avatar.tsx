import type { ProfileDocument } from '../../domain/collections/index.ts';
import { displayName, initials } from './inbox-format.ts';

/** The person's avatar, or their initials when they have none. Decorative: their name is beside it. */
export function Avatar({ profile }: { profile: ProfileDocument | undefined }) {
  const url = profile?.avatar_url;
  return url ? (
    <img className="inbox-avatar" src={url} alt="" width={40} height={40} loading="lazy" />
  ) : (
    <span className="inbox-avatar inbox-avatar-initials" aria-hidden="true">
      {initials(displayName(profile))}
    </span>
  );
}
