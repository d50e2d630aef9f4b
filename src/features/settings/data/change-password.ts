import { errorMessage } from '../../../lib/errors.ts';
import { passwordRefusalMessage } from '../../../lib/session/password-refusals.ts';
import { passwordChangeError } from '../settings-sections.ts';

export type PasswordChangeResult = { ok: true } | { ok: false; message: string };

export const PASSWORD_OFFLINE_MESSAGE = 'You are offline. Changing your password needs a connection.';

/**
 * Changes the signed-in user's password through supabase-js (`updateUser`), with the current password,
 * which the auth server checks (a session left open elsewhere cannot change it); the only setting that
 * goes to the auth server instead of the local database, so it needs a connection. Never throws.
 */
export async function changePassword(input: {
  current: string;
  password: string;
  confirm: string;
}): Promise<PasswordChangeResult> {
  const invalid = passwordChangeError(input);
  if (invalid) return { ok: false, message: invalid };
  if (!navigator.onLine) return { ok: false, message: PASSWORD_OFFLINE_MESSAGE };
  try {
    const { getSupabase } = await import('../../../lib/supabase.ts');
    const { error } = await getSupabase().auth.updateUser({
      password: input.password,
      current_password: input.current,
    });
    if (error) return { ok: false, message: passwordRefusalMessage(error) ?? errorMessage(error) };
    return { ok: true };
  } catch (err) {
    return { ok: false, message: errorMessage(err) };
  }
}
