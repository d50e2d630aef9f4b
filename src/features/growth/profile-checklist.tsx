import { Link } from 'react-router-dom';
import type { ProfileDocument } from '../../domain/collections/index.ts';
import { profileCompleteness } from '../../domain/profile-completeness.ts';
import { XP_AWARDS } from '../../domain/xp.ts';

/** What the profile still lacks for "profile complete" (+50 XP, once), or nothing once complete. */
export function ProfileChecklist({ profile }: { profile: ProfileDocument | null | undefined }) {
  if (!profile) return null;
  const { complete, missing } = profileCompleteness(profile);
  if (complete) return null;
  return (
    <div className="profile-checklist">
      <p>
        <strong>Complete your profile</strong> for +{XP_AWARDS.profile_complete} XP:
      </p>
      <ul>
        {missing.map((m) => (
          <li key={m.key}>{m.label}</li>
        ))}
      </ul>
      <Link to="/settings?section=account">Edit profile</Link>
    </div>
  );
}
