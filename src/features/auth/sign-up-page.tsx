import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Link, Navigate, useNavigate, useSearchParams } from 'react-router-dom';
import { PageHeader } from '../../components/page-header.tsx';
import { APP_NAME } from '../../lib/config.ts';
import { authMessages } from '../../lib/session/auth-messages.ts';
import { signUp } from './data/auth-actions.ts';
import {
  SOCIAL_PLATFORMS,
  validateSignUp,
  type SignUpRole,
  type SocialLinks,
  type SocialPlatform,
} from './auth-validation.ts';
import { PasswordField } from './password-field.tsx';
import { useSessionState } from './use-session-state.ts';
import './auth.css';
import { FormError } from '../../components/form-error.tsx';
import { useFixableError } from '../../lib/fixable-errors.ts';

const PLATFORM_LABELS: Record<SocialPlatform, string> = {
  linkedin: 'LinkedIn',
  instagram: 'Instagram',
  tiktok: 'TikTok',
  youtube: 'YouTube',
  twitter: 'Twitter',
};

const PLATFORM_PLACEHOLDERS: Record<SocialPlatform, string> = {
  linkedin: 'https://linkedin.com/in/yourname',
  instagram: 'https://instagram.com/yourname',
  tiktok: 'https://tiktok.com/@yourname',
  youtube: 'https://youtube.com/@yourname',
  twitter: 'https://twitter.com/yourname',
};

/** /auth/signup and /signup ("Sign-up screen"); `ref` carries a referral code. */
export function SignUpScreen() {
  const session = useSessionState();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const ref = params.get('ref')?.trim() || null;
  const [fullName, setFullName] = useState('');
  const [acceptedTerms, setAcceptedTerms] = useState(false);
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [confirmPassword, setConfirmPassword] = useState('');
  const [role, setRole] = useState<SignUpRole>('creator');
  const [socialLinks, setSocialLinks] = useState<SocialLinks>({});
  const [busy, setBusy] = useState(false);
  const [invalid, reportInvalid] = useFixableError(
    { fullName, email, password, confirmPassword, role, socialLinks, acceptedTerms },
    validateSignUp,
  );
  const [failure, setFailure] = useState<string | null>(null);
  const error = invalid ?? failure;
  const [created, setCreated] = useState(false);
  // The form's message sits above a long form: after a refused submit it is brought into view, or on
  // a phone the person would see nothing happen below the Create Account button.
  const form = useRef<HTMLFormElement>(null);
  const [refusals, setRefusals] = useState(0);
  useEffect(() => {
    if (refusals > 0) form.current?.querySelector('[role="alert"]')?.scrollIntoView?.({ block: 'center' });
  }, [refusals]);

  if (session.status === 'signed_in' && !busy) return <Navigate to="/dashboard" replace />;

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    const input = { fullName, email, password, confirmPassword, role, socialLinks, acceptedTerms };
    const problem = validateSignUp(input);
    reportInvalid(problem);
    setFailure(null);
    if (problem) {
      setRefusals((n) => n + 1);
      return;
    }
    setBusy(true);
    const result = await signUp(input, ref);
    setBusy(false);
    if (result.error) {
      setFailure(result.error);
      setRefusals((n) => n + 1);
      return;
    }
    if (result.needsConfirmation) setCreated(true);
    else navigate('/dashboard', { replace: true });
  }

  if (created) {
    return (
      <div className="container page">
        <div className="card auth-card">
          <PageHeader title="Check your email" />
          <p className="form-success" role="status">
            {authMessages.checkEmailToConfirm}
          </p>
          <p>
            We sent a confirmation link to <strong>{email.trim()}</strong>.
          </p>
          <Link className="button button-primary" to="/auth/signin">
            Go to Sign In
          </Link>
        </div>
      </div>
    );
  }

  const linkRequired = (platform: SocialPlatform) => role === 'brand' && platform === 'linkedin';

  return (
    <div className="container page">
      <div className="card auth-card">
        <PageHeader title={`Join ${APP_NAME}`} lead="Create your account to start making sponsorship deals.">
          {ref ? <span className="badge">You were invited to join</span> : null}
        </PageHeader>
        <form className="form" onSubmit={onSubmit} ref={form}>
          <FormError message={error} />
          {/* Who signs up comes first: it decides what the name field asks for. */}
          <fieldset className="role-options">
            <legend>I am a</legend>
            <label className="checkbox-field">
              <input
                type="radio"
                name="role"
                value="creator"
                checked={role === 'creator'}
                onChange={() => setRole('creator')}
              />
              Content creator
            </label>
            <label className="checkbox-field">
              <input
                type="radio"
                name="role"
                value="brand"
                checked={role === 'brand'}
                onChange={() => setRole('brand')}
              />
              Business owner
            </label>
          </fieldset>
          <div className="field">
            {/* A brand's name on Pacta is its company's: deals, messages and reviews show it. */}
            <label htmlFor="signup-name">
              {role === 'brand' ? 'Company Name' : 'Full Name'}{' '}
              <span className="required" aria-hidden="true">
                *
              </span>
            </label>
            <input
              id="signup-name"
              autoComplete={role === 'brand' ? 'organization' : 'name'}
              required
              value={fullName}
              onChange={(e) => setFullName(e.target.value)}
            />
          </div>
          <div className="field">
            <label htmlFor="signup-email">
              Email Address{' '}
              <span className="required" aria-hidden="true">
                *
              </span>
            </label>
            <input
              id="signup-email"
              type="email"
              autoComplete="email"
              required
              value={email}
              onChange={(e) => setEmail(e.target.value)}
            />
          </div>
          <PasswordField
            label="Password"
            value={password}
            onChange={setPassword}
            autoComplete="new-password"
            required
            markRequired
          />
          <PasswordField
            label="Confirm Password"
            value={confirmPassword}
            onChange={setConfirmPassword}
            autoComplete="new-password"
            markRequired
          />
          <fieldset className="role-options" style={{ display: 'grid' }}>
            <legend>Social links</legend>
            <p className="muted" style={{ margin: 0 }}>
              {role === 'brand' ? 'LinkedIn is required for brand accounts.' : 'Add at least one social link.'}
            </p>
            {SOCIAL_PLATFORMS.map((platform) => (
              <div className="field" key={platform}>
                <label htmlFor={`signup-${platform}`}>
                  {PLATFORM_LABELS[platform]}
                  {linkRequired(platform) ? <span className="required"> (required)</span> : null}
                </label>
                <input
                  id={`signup-${platform}`}
                  type="url"
                  inputMode="url"
                  placeholder={PLATFORM_PLACEHOLDERS[platform]}
                  value={socialLinks[platform] ?? ''}
                  onChange={(e) => setSocialLinks((links) => ({ ...links, [platform]: e.target.value }))}
                />
              </div>
            ))}
          </fieldset>
          <div className="checkbox-field">
            <input
              type="checkbox"
              id="signup-terms"
              checked={acceptedTerms}
              onChange={(e) => setAcceptedTerms(e.target.checked)}
            />
            <label htmlFor="signup-terms">
              I accept the{' '}
              <Link to="/terms" target="_blank">
                Terms of Service
              </Link>{' '}
              and the{' '}
              <Link to="/privacy" target="_blank">
                Privacy Policy
              </Link>
            </label>
          </div>
          <button type="submit" className="button button-primary" disabled={busy}>
            {busy ? 'Creating account...' : 'Create Account'}
          </button>
          <p className="muted">
            Already have an account? <Link to="/auth/signin">Sign in</Link>
          </p>
        </form>
      </div>
    </div>
  );
}
