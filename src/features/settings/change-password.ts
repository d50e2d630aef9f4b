import { errorMessage } from '../../lib/errors.ts';
import { passwordChangeError } from './settings-sections.ts';

export type PasswordChangeResult = { ok: true } | { ok: false; message: string };

export const PASSWORD_OFFLINE_MESSAGE = 'You are offline. Changing your password needs a connection.';

/**
 * Changes the signed-in user's password through supabase-js (`updateUser`); the only setting that goes
 * to the auth server instead of the local database, so it needs a connection. Never throws.
 */
export async function changePassword(password: string, confirm: string): Promise<PasswordChangeResult> {
  const invalid = passwordChangeError(password, confirm);
  if (invalid) return { ok: false, message: invalid };
  if (!navigator.onLine) return { ok: false, message: PASSWORD_OFFLINE_MESSAGE };
  try {
    const { getSupabase } = await import('../../lib/supabase.ts');
    const { error } = await getSupabase().auth.updateUser({ password });
    if (error) return { ok: false, message: errorMessage(error) };
    return { ok: true };
  } catch (err) {
    return { ok: false, message: errorMessage(err) };
  }
}
