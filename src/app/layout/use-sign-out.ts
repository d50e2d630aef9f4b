import { useCallback } from 'react';
import { useNavigate } from 'react-router-dom';
import { errorMessage } from '../../lib/errors.ts';
import { toastError } from '../../lib/toasts.ts';
import { useAuth } from '../auth/auth-context.ts';

/** Sign Out, then /auth/signin (spec 000 §2). */
export function useSignOut(): () => Promise<void> {
  const auth = useAuth();
  const navigate = useNavigate();
  return useCallback(async () => {
    try {
      await auth.signOut();
      navigate('/auth/signin');
    } catch (err) {
      toastError(errorMessage(err));
    }
  }, [auth, navigate]);
}
