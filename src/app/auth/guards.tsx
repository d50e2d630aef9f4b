import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router-dom';
import { PageLoading } from '../../components/page-loading.tsx';
import { passesRoleCheck, useAuth, type Role } from '../../lib/session/auth-context.ts';

/** Signed-out visitors go to /auth/signin (spec 000 §2), remembering where they wanted to go. */
export function RequireAuth({ children }: { children: ReactNode }) {
  const auth = useAuth();
  const location = useLocation();
  if (auth.status === 'loading') return <PageLoading />;
  if (auth.status === 'signed_out') {
    return <Navigate to="/auth/signin" replace state={{ from: `${location.pathname}${location.search}` }} />;
  }
  return <>{children}</>;
}

/** A wrong role goes to / ; admin passes every role check. */
export function RequireRole({ roles, children }: { roles: readonly Role[]; children: ReactNode }) {
  const auth = useAuth();
  return (
    <RequireAuth>
      {passesRoleCheck(auth.role, roles) ? children : <Navigate to="/" replace />}
    </RequireAuth>
  );
}
