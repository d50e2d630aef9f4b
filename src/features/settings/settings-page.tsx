import { Link, useSearchParams } from 'react-router-dom';
import { useAuth } from '../../lib/session/auth-context.ts';
import { usePageTitle } from '../../lib/use-page-title.ts';
import { AccountSection } from './account-section.tsx';
import { PersonalisationSection, PrivacySection, ProSection } from './other-sections.tsx';
import { PushSection } from './push-section.tsx';
import { EmailSection } from './email-section.tsx';
import { SecuritySection } from './security-section.tsx';
import { normaliseSection, SETTINGS_SECTIONS } from './settings-sections.ts';
import { useSettingsProfile } from './data/use-settings-profile.ts';
import './settings.css';

/** Settings, one section at a time by `?section=`. */
export function SettingsPage() {
  usePageTitle('Settings');
  const auth = useAuth();
  const [params] = useSearchParams();
  const section = normaliseSection(params.get('section'));
  const loaded = useSettingsProfile();
  const user = auth.user;
  const role = auth.isAdmin ? auth.viewAs : user?.role === 'brand' ? 'brand' : 'creator';

  return (
    <div className="container page settings">
      <h1>Settings</h1>
      <div className="settings-layout">
        <nav aria-label="Settings sections" className="settings-nav">
          <ul>
            {SETTINGS_SECTIONS.map((s) => (
              <li key={s.key}>
                <Link to={`/settings?section=${s.key}`} aria-current={s.key === section ? 'page' : undefined}>
                  {s.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <div className="settings-body">
          {section === 'account' ? (
            loaded.state === 'ready' && user ? (
              <AccountSection key={loaded.profile.id} profile={loaded.profile} email={user.email} role={role} />
            ) : loaded.state === 'error' ? (
              <div className="card" role="alert">
                <p className="form-error">{loaded.message}</p>
                <button type="button" className="button button-primary" onClick={loaded.retry}>
                  Try Again
                </button>
              </div>
            ) : (
              <div className="card" role="status" aria-busy="true">
                Loading settings…
              </div>
            )
          ) : null}
          {section === 'security' ? <SecuritySection /> : null}
          {section === 'personalisation' ? <PersonalisationSection /> : null}
          {section === 'notifications' ? (
            <div className="settings-stack">
              <PushSection />
              <EmailSection />
            </div>
          ) : null}
          {section === 'pro' ? <ProSection isPro={user?.isPro ?? false} isCreator={user?.role === 'creator'} /> : null}
          {section === 'privacy' ? <PrivacySection /> : null}
        </div>
      </div>
    </div>
  );
}
