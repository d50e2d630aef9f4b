import type { ErrorCode, ErrorStatus } from '../../src/domain/contracts/errors.ts';
import { HttpError } from '../http/errors.ts';

/** Supabase Auth answers with this API version header; supabase-js only reads `code` when it is present. */
export const SUPABASE_API_VERSION = '2024-01-01';

/** An error exactly as Supabase Auth (GoTrue) sends it: status, `code`, `message`. */
export const authError = <C extends ErrorCode>(
  status: ErrorStatus<C>,
  code: C,
  message: string,
  extra: Record<string, unknown> = {},
) => new HttpError(status, code, message, extra);

export const validationFailed = (message: string) => authError(400, 'validation_failed', message);
export const invalidCredentials = () => authError(400, 'invalid_credentials', 'Invalid login credentials');
export const otpExpired = () => authError(403, 'otp_expired', 'Token has expired or is invalid');
export const overRequestRateLimit = () => authError(429, 'over_request_rate_limit', 'Request rate limit reached');
export const overEmailSendRateLimit = (seconds: number) =>
  authError(
    429,
    'over_email_send_rate_limit',
    `For security purposes, you can only request this after ${seconds} seconds.`,
  );
