import { useCallback } from 'react';
import { errorMessage } from '../../lib/errors.ts';
import { toastError } from '../../lib/toasts.ts';
import { useAuth } from '../../lib/session/auth-context.ts';

/**
 * Sign Out (spec 000 §2). The session manager goes to /auth/signin once signed out; with unsynced
 * changes it asks first, so this must not navigate on its own.
 */
export function useSignOut(): () => Promise<void> {
  const auth = useAuth();
  return useCallback(async () => {
    try {
      await auth.signOut();
    } catch (err) {
      toastError(errorMessage(err));
    }
  }, [auth]);
}
