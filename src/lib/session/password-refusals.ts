import { errorText } from '../../domain/contracts/errors.ts';

/**
 * What the auth server's password refusals mean to the person at the form. The server answers with
 * GoTrue's codes (`weak_password` with its reasons, `current_password_required`,
 * `current_password_invalid`, `over_request_rate_limit`); the sign-up, reset and Settings screens show
 * these sentences instead of the server's English. Anything else: undefined (the caller's own text).
 */
export const passwordRefusals = {
  tooCommon: 'This password is too common and easy to guess. Please choose a different one.',
  currentRequired: errorText('current_password_required'),
  currentIncorrect: errorText('current_password_invalid'),
  tooManyAttempts: errorText('over_request_rate_limit'),
} as const;

export function passwordRefusalMessage(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const { code, reasons } = error as { code?: unknown; reasons?: unknown };
  if (code === 'weak_password' && Array.isArray(reasons) && reasons.includes('pwned'))
    return passwordRefusals.tooCommon;
  if (code === 'current_password_required') return passwordRefusals.currentRequired;
  if (code === 'current_password_invalid') return passwordRefusals.currentIncorrect;
  if (code === 'over_request_rate_limit') return passwordRefusals.tooManyAttempts;
  return undefined;
}
