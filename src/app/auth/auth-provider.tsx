import { useCallback, useEffect, useMemo, useState, type ReactNode } from 'react';
import { loadSessionManager } from '../../lib/session/load-session-manager.ts';
import { useAnnouncedSession } from '../../lib/session/use-announced-session.ts';
import { mayHaveSession } from '../../lib/supabase-events.ts';
import { StartFailed } from './start-failed.tsx';
import {
  AuthContext,
  type AuthStatus,
  type AuthValue,
  type SessionUser,
  type ViewAs,
} from '../../lib/session/auth-context.ts';

const VIEW_STORAGE_KEY = 'pacta.adminView';

function readView(): ViewAs {
  try {
    return localStorage.getItem(VIEW_STORAGE_KEY) === 'creator' ? 'creator' : 'brand';
  } catch {
    return 'brand';
  }
}

/**
 * The session as the app sees it, read from the auth feature's session manager (restore, keep-alive,
 * 401 rule, sign-out; `src/lib/session/session-manager.ts`). The manager and supabase-js are only
 * loaded when a session may exist or an auth screen needs them, so a signed-out visitor's landing page
 * stays light.
 */
export function AuthProvider({ children }: { children: ReactNode }) {
  const { manager, state } = useAnnouncedSession();
  const [initialStatus] = useState<AuthStatus>(() => (mayHaveSession() ? 'loading' : 'signed_out'));
  const [viewAs, setViewAsState] = useState<ViewAs>(readView);
  const [loadFailed, setLoadFailed] = useState(false);

  useEffect(() => {
    if (mayHaveSession()) loadSessionManager().catch(() => setLoadFailed(true));
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
    const current = manager ?? (await loadSessionManager());
    await current.requestSignOut();
  }, [manager]);

  const status = state?.status ?? initialStatus;
  const sessionUser = state?.user ?? null;
  const user = useMemo<SessionUser | null>(
    () =>
      sessionUser
        ? {
            id: sessionUser.id,
            email: sessionUser.email,
            fullName: sessionUser.fullName,
            role: sessionUser.role,
            roleKnown: sessionUser.roleKnown,
            isPro: sessionUser.isPro,
            verified: sessionUser.verified,
          }
        : null,
    [sessionUser],
  );

  const value = useMemo<AuthValue>(() => {
    const role = status === 'signed_in' ? (user?.role ?? null) : null;
    const isAdmin = role === 'admin';
    return {
      status,
      user: status === 'signed_in' ? user : null,
      role,
      isAdmin,
      viewAs: isAdmin ? viewAs : role === 'creator' ? 'creator' : 'brand',
      setViewAs,
      signOut,
    };
  }, [status, user, viewAs, setViewAs, signOut]);

  // Restoring a session needs the session code: had it failed to load, the screens would wait for good.
  if (loadFailed && status === 'loading') return <StartFailed />;
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}
