import { useEffect, useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { PageHeader } from '../../components/page-header.tsx';
import { authMessages } from '../../lib/session/auth-messages.ts';
import { updatePassword } from './data/auth-actions.ts';
import { validateNewPassword } from './auth-validation.ts';
import { PasswordField } from './password-field.tsx';
import { getSessionManager } from '../../lib/session/session.ts';
import './auth.css';
import { FormError } from '../../components/form-error.tsx';

/** "Redirect after password reset 2 s". */
export const REDIRECT_AFTER_RESET_MS = 2_000;

/** /reset-password: the recovery link's session sets a new password, then sign in again. */
export function ResetPasswordScreen() {
  const navigate = useNavigate();
  const [password, setPassword] = useState('');
  const [confirmPassword, setConfirmPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState(false);

  useEffect(() => {
    if (!done) return;
    const timer = setTimeout(
      () => navigate('/signin', { replace: true, state: { notice: authMessages.passwordChangedSignIn } }),
      REDIRECT_AFTER_RESET_MS,
    );
    return () => clearTimeout(timer);
  }, [done, navigate]);

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    const problem = validateNewPassword(password, confirmPassword);
    setError(problem);
    if (problem) return;
    setBusy(true);
    const result = await updatePassword(password);
    if (result.error) {
      setBusy(false);
      setError(result.error);
      return;
    }
    // The recovery session ends here: the user proves the new password by signing in with it.
    await getSessionManager().endAuthSession();
    setBusy(false);
    setDone(true);
  }

  return (
    <div className="container page">
      <div className="card auth-card">
        <PageHeader title="Reset Password" lead="Choose a new password for your account." />
        {done ? (
          <p className="form-success" role="status">
            {authMessages.passwordUpdated}
          </p>
        ) : (
          <form className="form" onSubmit={onSubmit}>
            <FormError message={error} />
            <PasswordField
              label="New Password"
              value={password}
              onChange={setPassword}
              autoComplete="new-password"
              required
            />
            <PasswordField
              label="Confirm New Password"
              value={confirmPassword}
              onChange={setConfirmPassword}
              autoComplete="new-password"
            />
            <button type="submit" className="button button-primary" disabled={busy}>
              {busy ? 'Updating...' : 'Update Password'}
            </button>
            {error === authMessages.noValidSession ? (
              <p>
                <Link to="/forgot-password">Request a new reset link</Link>
              </p>
            ) : null}
          </form>
        )}
      </div>
    </div>
  );
}
