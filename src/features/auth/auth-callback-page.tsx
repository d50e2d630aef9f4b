import { useEffect, useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { PageHeader } from '../../components/page-header.tsx';
import { PageLoading } from '../../components/page-loading.tsx';
import { getSupabase } from '../../lib/supabase.ts';
import { authMessages } from '../../lib/session/auth-messages.ts';
import { useSessionState } from './use-session-state.ts';
import type { Role } from '../../lib/session/session-types.ts';
import './auth.css';

/** Where a confirmed user starts ("Auth callback"): creators swipe, everyone else the dashboard. */
export function landingPathFor(role: Role | undefined): string {
  return role === 'creator' ? '/swipe' : '/dashboard';
}

/** The auth result the e-mail link put in the URL: query (PKCE) or fragment (implicit flow). */
function readCallbackUrl(): { type: string | null; error: string | null } {
  const query = new URLSearchParams(window.location.search);
  const fragment = new URLSearchParams(window.location.hash.replace(/^#/, ''));
  const pick = (key: string) => query.get(key) ?? fragment.get(key);
  return { type: pick('type'), error: pick('error_description') ?? pick('error') };
}

/** /auth/callback: target of the confirmation and recovery e-mails. */
export function AuthCallbackScreen() {
  const navigate = useNavigate();
  const session = useSessionState();
  // Read once: supabase-js removes the auth parameters from the URL after exchanging them.
  const [callback] = useState(readCallbackUrl);
  const [exchanged, setExchanged] = useState(false);
  const [error, setError] = useState<string | null>(callback.error);

  useEffect(() => {
    if (callback.error) return;
    let cancelled = false;
    // initialize() is the URL exchange supabase-js started on creation; awaiting it yields its error, if any.
    void getSupabase()
      .auth.initialize()
      .then(({ error: failed }) => {
        if (cancelled) return;
        if (failed) setError(failed.message || authMessages.noValidSession);
        else setExchanged(true);
      });
    return () => {
      cancelled = true;
    };
  }, [callback.error]);

  useEffect(() => {
    if (!exchanged || error) return;
    if (callback.type === 'recovery' || session.passwordRecovery) {
      if (session.status === 'signed_in') navigate('/reset-password', { replace: true });
      else if (session.status === 'signed_out') setError(authMessages.noValidSession);
      return;
    }
    if (session.status === 'signed_in') navigate(landingPathFor(session.user?.role), { replace: true });
    else if (session.status === 'signed_out') setError(authMessages.noValidSession);
  }, [exchanged, error, callback.type, session.status, session.passwordRecovery, session.user?.role, navigate]);

  if (!error) return <PageLoading label="Signing you in…" />;
  return (
    <div className="container page">
      <div className="card auth-card">
        <PageHeader title="Sign-in link problem" />
        <p className="form-error" role="alert">
          {error}
        </p>
        <Link className="button button-primary" to="/auth/signin">
          Return to Sign In
        </Link>
      </div>
    </div>
  );
}
