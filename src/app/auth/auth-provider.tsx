import { useCallback, useEffect, useMemo, useState, type ReactNode } from 'react';
import type { Session, SupabaseClient } from '@supabase/supabase-js';
import { mayHaveSession, onSupabaseClient } from '../../lib/supabase-events.ts';
import { AuthContext, type AuthStatus, type AuthValue, type SessionUser, type ViewAs } from './auth-context.ts';
import { toSessionUser } from './session-user.ts';

const VIEW_STORAGE_KEY = 'pacta.adminView';

function readView(): ViewAs {
  try {
    return localStorage.getItem(VIEW_STORAGE_KEY) === 'creator' ? 'creator' : 'brand';
  } catch {
    return 'brand';
  }
}

/**
 * Minimal session state from supabase-js. supabase-js (and its network) is only loaded when a session
 * may exist or an auth screen creates the client, so a signed-out visitor's landing page stays light.
 * Session restore, keep-alive and the error dialogs of the auth issue build on this provider.
 */
export function AuthProvider({ children }: { children: ReactNode }) {
  const [status, setStatus] = useState<AuthStatus>(() => (mayHaveSession() ? 'loading' : 'signed_out'));
  const [user, setUser] = useState<SessionUser | null>(null);
  const [viewAs, setViewAsState] = useState<ViewAs>(readView);
  const [client, setClient] = useState<SupabaseClient | null>(null);

  useEffect(() => {
    let unsubscribe: (() => void) | undefined;
    const applySession = (session: Session | null) => {
      setUser(session ? toSessionUser(session.user) : null);
      setStatus(session ? 'signed_in' : 'signed_out');
    };
    const stopWaiting = onSupabaseClient((supabase) => {
      setClient(supabase);
      const { data } = supabase.auth.onAuthStateChange((_event, session) => applySession(session));
      unsubscribe = () => data.subscription.unsubscribe();
      // getSession reads local storage (and refreshes only if needed); offline it still answers.
      void supabase.auth.getSession().then(({ data: { session } }) => applySession(session));
    });
    if (mayHaveSession()) void import('../../lib/supabase.ts').then((m) => m.getSupabase());
    return () => {
      stopWaiting();
      unsubscribe?.();
    };
  }, []);

  const setViewAs = useCallback((view: ViewAs) => {
    setViewAsState(view);
    try {
      localStorage.setItem(VIEW_STORAGE_KEY, view);
    } catch {
      // Kept for this visit only.
    }
  }, []);

  const signOut = useCallback(async () => {
    const supabase = client ?? (await import('../../lib/supabase.ts')).getSupabase();
    await supabase.auth.signOut();
    setUser(null);
    setStatus('signed_out');
  }, [client]);

  const value = useMemo<AuthValue>(() => {
    const role = user?.role ?? null;
    const isAdmin = role === 'admin';
    return {
      status,
      user,
      role,
      isAdmin,
      viewAs: isAdmin ? viewAs : role === 'creator' ? 'creator' : 'brand',
      setViewAs,
      signOut,
    };
  }, [status, user, viewAs, setViewAs, signOut]);

  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}
