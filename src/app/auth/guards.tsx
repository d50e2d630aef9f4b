import { useEffect, type ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router-dom';
import { PageLoading } from '../../components/page-loading.tsx';
import { passesRoleCheck, useAuth, type Role } from '../../lib/session/auth-context.ts';
import { preloadPage } from '../lazy-page.ts';

/** While the session is restored, the page's code loads beside it (a warm start waits for the slower). */
function usePagePreload(loading: boolean, page: ReactNode) {
  useEffect(() => {
    if (loading) preloadPage(page);
  }, [loading, page]);
}

/** Signed-out visitors go to /auth/signin, remembering where they wanted to go. */
export function RequireAuth({ children }: { children: ReactNode }) {
  const auth = useAuth();
  const location = useLocation();
  usePagePreload(auth.status === 'loading', children);
  if (auth.status === 'loading') return <PageLoading />;
  if (auth.status === 'signed_out') {
    return <Navigate to="/auth/signin" replace state={{ from: `${location.pathname}${location.search}` }} />;
  }
  return <>{children}</>;
}

/**
 * A wrong role goes to its own dashboard (the public landing page would look like a sign-out); admin
 * passes every role check. Right after sign-in (or a reload before the
 * first sync) the role may still be the sign-up metadata's guess, which never says admin: a failing
 * check then waits for the synced profile instead of bouncing a real admin.
 */
export function RequireRole({ roles, children }: { roles: readonly Role[]; children: ReactNode }) {
  const auth = useAuth();
  usePagePreload(auth.status === 'loading', children);
  return <RequireAuth>{roleGate(auth.role, auth.user?.roleKnown ?? false, roles, children)}</RequireAuth>;
}

function roleGate(role: Role | null, roleKnown: boolean, roles: readonly Role[], children: ReactNode): ReactNode {
  if (passesRoleCheck(role, roles)) return children;
  if (!roleKnown) return <PageLoading />;
  return <Navigate to="/dashboard" replace />;
}
