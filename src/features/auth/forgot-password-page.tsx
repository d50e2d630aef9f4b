import { useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { PageHeader } from '../../components/page-header.tsx';
import { authMessages } from '../../lib/session/auth-messages.ts';
import { sendPasswordReset } from './data/auth-actions.ts';
import './auth.css';
import { FormError } from '../../components/form-error.tsx';

/** /forgot-password: sends the reset e-mail whose link lands on /auth/callback?type=recovery. */
export function ForgotPasswordScreen() {
  const [email, setEmail] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [sent, setSent] = useState(false);

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    const result = await sendPasswordReset(email);
    setBusy(false);
    if (result.error) setError(result.error);
    else setSent(true);
  }

  return (
    <div className="container page">
      <div className="card auth-card">
        <PageHeader
          title="Forgot Password"
          lead="Enter your email and we will send you a link to choose a new password."
        />
        {sent ? (
          <p className="form-success" role="status">
            {authMessages.resetInstructionsSent}
          </p>
        ) : (
          <form className="form" onSubmit={onSubmit}>
            <FormError message={error} />
            <div className="field">
              <label htmlFor="forgot-email">Email Address</label>
              <input
                id="forgot-email"
                type="email"
                autoComplete="email"
                required
                value={email}
                onChange={(e) => setEmail(e.target.value)}
              />
            </div>
            <button type="submit" className="button button-primary" disabled={busy}>
              {busy ? 'Sending...' : 'Send Reset Instructions'}
            </button>
          </form>
        )}
        <p>
          <Link to="/signin">Back to Sign In</Link>
        </p>
      </div>
    </div>
  );
}
