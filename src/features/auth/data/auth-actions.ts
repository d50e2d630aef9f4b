import { TERMS_VERSION } from '../../../domain/terms.ts';
import { getSupabase } from '../../../lib/supabase.ts';
import { authMessages } from '../../../lib/session/auth-messages.ts';
import { filledSocialLinks, type SignUpInput } from '../auth-validation.ts';
import { isNetworkError } from '../../../lib/session/network-errors.ts';
import { passwordRefusalMessage } from '../../../lib/session/password-refusals.ts';

/** Where the confirmation e-mail's link lands. */
export const confirmRedirectUrl = () => `${window.location.origin}/auth/callback`;
/** Where the recovery e-mail's link lands. */
export const recoveryRedirectUrl = () => `${window.location.origin}/auth/callback?type=recovery`;

export type ActionResult = { error: string | null };

function failure(error: unknown, fallback: string): string {
  if (isNetworkError(error)) return authMessages.offline;
  const refusal = passwordRefusalMessage(error);
  if (refusal) return refusal;
  const message = (error as { message?: unknown } | null)?.message;
  return typeof message === 'string' && message ? message : fallback;
}

/**
 * Creates the account. Full name, role, social links and the referral code travel in the user
 * metadata, from which the server creates the profile. `needsConfirmation` is true when the server
 * waits for the e-mail link before the first sign-in.
 */
export async function signUp(
  input: SignUpInput,
  ref: string | null,
): Promise<ActionResult & { needsConfirmation: boolean }> {
  try {
    const { data, error } = await getSupabase().auth.signUp({
      email: input.email.trim(),
      password: input.password,
      options: {
        emailRedirectTo: confirmRedirectUrl(),
        data: {
          full_name: input.fullName.trim(),
          role: input.role,
          social_links: filledSocialLinks(input.socialLinks),
          // Which Terms were accepted (validateSignUp refuses without them); the server records when.
          terms_version: TERMS_VERSION,
          ...(ref ? { ref } : {}),
        },
      },
    });
    if (error) return { error: failure(error, authMessages.signUpFailed), needsConfirmation: false };
    if (!data.user) return { error: authMessages.signUpFailed, needsConfirmation: false };
    return { error: null, needsConfirmation: !data.session };
  } catch (error) {
    return { error: failure(error, authMessages.signUpFailed), needsConfirmation: false };
  }
}

export async function resendVerification(email: string): Promise<ActionResult> {
  try {
    const { error } = await getSupabase().auth.resend({
      type: 'signup',
      email: email.trim(),
      options: { emailRedirectTo: confirmRedirectUrl() },
    });
    return { error: error ? failure(error, authMessages.signUpFailed) : null };
  } catch (error) {
    return { error: failure(error, authMessages.signUpFailed) };
  }
}

export async function sendPasswordReset(email: string): Promise<ActionResult> {
  try {
    const { error } = await getSupabase().auth.resetPasswordForEmail(email.trim(), {
      redirectTo: recoveryRedirectUrl(),
    });
    return { error: error ? failure(error, 'Failed to send reset instructions. Please try again.') : null };
  } catch (error) {
    return { error: failure(error, 'Failed to send reset instructions. Please try again.') };
  }
}

/** Sets the new password of the signed-in (recovery) session. */
export async function updatePassword(password: string): Promise<ActionResult> {
  try {
    const { error } = await getSupabase().auth.updateUser({ password });
    if (!error) return { error: null };
    if (error.name === 'AuthSessionMissingError') return { error: authMessages.noValidSession };
    return { error: failure(error, 'Failed to update password. Please try again.') };
  } catch (error) {
    return { error: failure(error, 'Failed to update password. Please try again.') };
  }
}
