import { useState, type FormEvent } from 'react';
import { Link, Navigate, useLocation, useNavigate } from 'react-router-dom';
import { PageHeader } from '../../components/page-header.tsx';
import { authMessages } from '../../lib/session/auth-messages.ts';
import { resendVerification } from './data/auth-actions.ts';
import { PasswordField } from './password-field.tsx';
import { getSessionManager } from '../../lib/session/session.ts';
import { useSessionState } from './use-session-state.ts';
import './auth.css';
import { FormError } from '../../components/form-error.tsx';
import { afterSignIn } from './after-sign-in.ts';

function passedMessage(state: unknown, key: 'message' | 'notice' = 'message'): string | null {
  const message = (state as Record<string, unknown> | null)?.[key];
  return typeof message === 'string' && message ? message : null;
}

/** /auth/signin and /signin ("Sign-in screen"). */
export function SignInScreen() {
  const session = useSessionState();
  const location = useLocation();
  const navigate = useNavigate();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  // Checked by default: an installed offline app should still open signed in after the browser restarts.
  const [rememberMe, setRememberMe] = useState(true);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(() => passedMessage(location.state) ?? session.notice);
  // Good news passed by the page before (the password reset): shown until the user signs in.
  const notice = passedMessage(location.state, 'notice');
  const [resendState, setResendState] = useState<'idle' | 'sending' | 'sent'>('idle');
  const [resendError, setResendError] = useState<string | null>(null);

  if (session.status === 'signed_in' && !busy) return <Navigate to={afterSignIn(location.state)} replace />;

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    setResendState('idle');
    setResendError(null);
    const message = await getSessionManager().signIn(email.trim(), password, rememberMe);
    setBusy(false);
    if (message) setError(message);
    else navigate(afterSignIn(location.state), { replace: true });
  }

  async function onResend() {
    setResendState('sending');
    setResendError(null);
    const { error: failed } = await resendVerification(email);
    if (failed) {
      setResendError(failed);
      setResendState('idle');
    } else setResendState('sent');
  }

  const needsVerification = !!error && /verify your email/i.test(error);

  return (
    <div className="container page">
      <div className="card auth-card">
        <PageHeader title="Sign In" lead="Welcome back to Pacta." />
        <form className="form" onSubmit={onSubmit} aria-describedby={error ? 'signin-error' : undefined}>
          {notice && !error ? (
            <p className="form-success" role="status">
              {notice}
            </p>
          ) : null}
          {error ? (
            <p id="signin-error" className="form-error" role="alert">
              {error}
            </p>
          ) : null}
          {needsVerification ? (
            <div>
              {resendState === 'sent' ? (
                <p className="form-success" role="status">
                  {authMessages.verificationEmailSent}
                </p>
              ) : (
                <button
                  type="button"
                  className="button button-secondary"
                  onClick={onResend}
                  disabled={resendState === 'sending' || !email.trim()}
                >
                  Resend verification email
                </button>
              )}
              <FormError message={resendError} />
            </div>
          ) : null}
          <div className="field">
            <label htmlFor="signin-email">Email</label>
            <input
              id="signin-email"
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
            autoComplete="current-password"
            required
          />
          <div className="auth-links">
            <label className="checkbox-field">
              <input type="checkbox" checked={rememberMe} onChange={(e) => setRememberMe(e.target.checked)} />
              Remember me
            </label>
            <Link to="/forgot-password">Forgot password?</Link>
          </div>
          <button type="submit" className="button button-primary" disabled={busy}>
            {busy ? 'Signing in...' : 'Sign in'}
          </button>
          <p className="muted">
            Don&apos;t have an account? <Link to="/auth/signup">Create an account</Link>
          </p>
        </form>
      </div>
    </div>
  );
}
