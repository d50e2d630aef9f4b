import { Link, useParams } from 'react-router-dom';
import { useAuth } from '../../lib/session/auth-context.ts';
import { useLocalData } from '../../db/hooks/use-database.ts';
import { useProfile } from '../../db/hooks/use-my-profile.ts';
import { isVerifiedLink, readSocialLinks, SOCIAL_PLATFORMS } from './data/social-links.ts';
import { XpProgress } from './xp-progress.tsx';
import { usePageTitle } from '../../lib/use-page-title.ts';
import './profile-page.css';
import { ChipList } from '../../components/chip-list.tsx';
import { isProNow } from '../../domain/pro.ts';
import { Avatar } from '../../components/avatar.tsx';
import { PersonActions } from '../account/index.ts';

/** /profile/:id and /profile/me: a profile from the local database; your own has an Edit Profile link. */
export function ProfilePage() {
  const { id = 'me' } = useParams();
  const auth = useAuth();
  const local = useLocalData();
  const own = id === 'me' || id === auth.user?.id;
  const profileId = own ? (auth.user?.id ?? null) : id;
  const profile = useProfile(profileId);
  usePageTitle(profile.data?.full_name || 'Profile');

  if (local.status === 'error' || profile.error) {
    return (
      <div className="container page">
        <div className="card" role="alert">
          <h1>Profile</h1>
          <p>Profile could not be loaded. Try refreshing.</p>
          <button type="button" className="button button-primary" onClick={local.retry}>
            Try Again
          </button>
        </div>
      </div>
    );
  }
  if (profile.loading) {
    return (
      <div className="container page" role="status" aria-busy="true">
        Loading profile…
      </div>
    );
  }
  const p = profile.data;
  if (!p) {
    return (
      <div className="container page">
        <div className="card">
          <h1>Profile</h1>
          <p>
            {own ? 'Your profile is still syncing to this device.' : 'This profile is not available on this device.'}
          </p>
          {own ? (
            <Link className="button button-secondary" to="/settings">
              Edit Profile
            </Link>
          ) : null}
        </div>
      </div>
    );
  }
  const links = readSocialLinks(p.social_links);
  return (
    <div className="container page profile-page">
      <header className="card profile-head">
        <Avatar name={p.full_name || '?'} url={p.avatar_url} size={72} square={p.role === 'brand'} />
        <div className="profile-head-text">
          <h1>{p.full_name || 'Unnamed member'}</h1>
          <p className="profile-badges">
            <span className="badge">{p.role === 'brand' ? 'Brand' : p.role === 'admin' ? 'Admin' : 'Creator'}</span>
            {isProNow(p) ? <span className="badge badge-pro">Pro</span> : null}
            {p.verified ? <span className="badge badge-verified">Verified Account</span> : null}
          </p>
        </div>
        {own ? (
          <Link className="button button-primary" to="/settings">
            Edit Profile
          </Link>
        ) : (
          <div className="profile-head-actions">
            <Link className="button button-primary" to={`/inbox/new?with=${encodeURIComponent(p.id)}`}>
              Message
            </Link>
            <PersonActions personId={p.id} name={p.full_name || 'this member'} />
          </div>
        )}
      </header>
      <section className="card" aria-labelledby="about-title">
        <h2 id="about-title">About</h2>
        <p>{p.bio || 'No bio yet.'}</p>
        <ChipList label="Niches" items={p.niches} className="profile-niches" />
      </section>
      <section className="card" aria-labelledby="level-title">
        <h2 id="level-title">Level</h2>
        <XpProgress xp={p.xp} />
      </section>
      {Object.keys(links).length > 0 ? (
        <section className="card" aria-labelledby="links-title">
          <h2 id="links-title">Links</h2>
          <ul className="profile-links">
            {SOCIAL_PLATFORMS.filter((s) => links[s.key]).map((s) => (
              <li key={s.key}>
                <a href={links[s.key]} rel="noopener noreferrer" target="_blank">
                  {s.label}
                </a>{' '}
                {isVerifiedLink(s.key, links[s.key]) ? <span className="badge badge-verified">Verified</span> : null}
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </div>
  );
}
