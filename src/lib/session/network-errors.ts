import { isAuthRetryableFetchError } from '@supabase/supabase-js';

/** The browser says it has no connection. */
export function browserIsOffline(): boolean {
  return typeof navigator !== 'undefined' && navigator.onLine === false;
}

/**
 * True when `error` means "the server could not be reached" rather than "the server said no":
 * offline is not an error for a signed-in user (issue 4 item 5), so these never sign anyone out.
 */
export function isNetworkError(error: unknown): boolean {
  if (browserIsOffline()) return true;
  if (!error) return false;
  // fetch() rejects with a TypeError when the request never got an answer.
  if (error instanceof TypeError) return true;
  if (isAuthRetryableFetchError(error)) {
    // supabase-js also marks 502/503/504 as retryable; those are server errors, not a lost connection.
    const status = (error as { status?: number }).status;
    return !status || status === 0;
  }
  return false;
}
