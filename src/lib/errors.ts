import { errorText, isErrorCode } from '../domain/contracts/errors.ts';

/**
 * The shared error catalogue: one place that turns a failed call into the words a user
 * sees. Screens call `errorMessage(err)`; the session layer calls `classifyError(err)` to learn that a
 * 401 means "refresh and retry, then sign out". A server refusal's words come from the one table of
 * error codes both ends use (`src/domain/contracts/errors.ts`).
 */

export const STATUS_MESSAGES = {
  sessionExpired: errorText('no_authorization'),
  badRequest: errorText('bad_request'),
  forbidden: errorText('forbidden'),
  notFound: errorText('not_found'),
  server: errorText('internal_error'),
  unexpected: 'An unexpected error occurred. Please try again.',
} as const;

/** Other fixed messages of the catalogue, named so screens never retype them. */
export const MESSAGES = {
  sessionExpiredRestore: 'Session expired, please log in again.',
  profileFetchTimedOut: 'Profile fetch timed out',
  profileNotFound: 'Profile not found',
  noValidSession: 'No valid session found',
  invalidSession: 'Invalid session. Try signing out and in again.',
  dashboardFailed: 'Failed to load dashboard data. Please try again.',
  signUpFailed: 'Failed to sign up.',
  signInFailed: errorText('invalid_credentials'),
  failedToCreateSession: 'Failed to create session',
  verifyEmailFirst: errorText('email_not_confirmed'),
  referralLoadFailed: 'Failed to load referral data. Please try again later.',
  settingsUpdateFailed: 'Failed to update settings. Please try again.',
  profileCouldNotLoad: 'Profile could not be loaded. Try refreshing.',
} as const;

export const settingsLoadError = (reason: string): string => `Failed to load settings: ${reason}`;

export type ErrorClass =
  { kind: 'session_expired'; message: string } | { kind: 'message'; status: number | undefined; message: string };

/** The message for an HTTP status, when the catalogue has one for it. */
export function messageForStatus(status: number): string | undefined {
  if (status === 401) return STATUS_MESSAGES.sessionExpired;
  if (status === 400) return STATUS_MESSAGES.badRequest;
  if (status === 403) return STATUS_MESSAGES.forbidden;
  if (status === 404) return STATUS_MESSAGES.notFound;
  if (status >= 500 && status <= 599) return STATUS_MESSAGES.server;
  return undefined;
}

function statusOf(err: unknown): number | undefined {
  if (typeof err === 'number') return err;
  if (typeof err !== 'object' || err === null) return undefined;
  const candidate = err as { status?: unknown; statusCode?: unknown };
  const status = candidate.status ?? candidate.statusCode;
  if (typeof status === 'number') return status;
  if (typeof status === 'string' && /^\d{3}$/.test(status)) return Number(status);
  return undefined;
}

function ownMessage(err: unknown): string | undefined {
  if (typeof err === 'string') return err.trim() || undefined;
  if (typeof err === 'object' && err !== null) {
    const message = (err as { message?: unknown }).message;
    if (typeof message === 'string' && message.trim()) return message.trim();
  }
  return undefined;
}

/** JWT problems reported without a 401 (e.g. supabase-js's "JWT expired", "invalid token"). */
function isTokenError(err: unknown): boolean {
  if (typeof err !== 'object' || err === null) return false;
  const { code, message } = err as { code?: unknown; message?: unknown };
  if (
    typeof code === 'string' &&
    /^(PGRST30\d|bad_jwt|invalid_jwt|session_not_found|refresh_token_not_found)$/.test(code)
  )
    return true;
  return typeof message === 'string' && /\b(jwt|token)\b.*\b(expired|invalid|malformed)\b/i.test(message);
}

/** What kind of failure this is, and the catalogue's message for it. */
export function classifyError(err: unknown): ErrorClass {
  const status = statusOf(err);
  if (status === 401 || isTokenError(err)) return { kind: 'session_expired', message: STATUS_MESSAGES.sessionExpired };
  const code = typeof err === 'object' && err !== null ? (err as { code?: unknown }).code : undefined;
  if (isErrorCode(code)) return { kind: 'message', status, message: errorText(code) };
  const byStatus = status === undefined ? undefined : messageForStatus(status);
  if (byStatus) return { kind: 'message', status, message: byStatus };
  return { kind: 'message', status, message: ownMessage(err) ?? STATUS_MESSAGES.unexpected };
}

/** The text to show a user for any failure: a status, a Response-like object, an Error or a string. */
export function errorMessage(err: unknown): string {
  return classifyError(err).message;
}
