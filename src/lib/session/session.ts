import { supabaseAnonKey, supabaseUrl } from '../config.ts';
import { requestPersistentStorage } from '../storage.ts';
import { rememberMeStorage } from '../remember-me-storage.ts';
import { getSupabase } from '../supabase.ts';
import { AUTH_STORAGE_KEY } from '../supabase-events.ts';
import { announceSessionManager } from './session-events.ts';
import { SessionManager } from './session-manager.ts';

let manager: SessionManager | undefined;

function onRecheck(recheck: () => void): () => void {
  const onVisible = () => {
    if (document.visibilityState === 'visible') recheck();
  };
  window.addEventListener('focus', recheck);
  window.addEventListener('online', recheck);
  document.addEventListener('visibilitychange', onVisible);
  return () => {
    window.removeEventListener('focus', recheck);
    window.removeEventListener('online', recheck);
    document.removeEventListener('visibilitychange', onVisible);
  };
}

/** The app's one session manager, created (and started: session restore) on first use. */
export function getSessionManager(): SessionManager {
  if (!manager) {
    const supabase = getSupabase();
    manager = new SessionManager({
      auth: supabase.auth,
      storage: rememberMeStorage,
      storageKey: AUTH_STORAGE_KEY,
      // With no network the check is not sent (it would only fail and log an error); the session stays
      // signed in offline and is checked again on the browser's `online` event.
      fetchUser: (accessToken) =>
        navigator.onLine === false
          ? Promise.reject(new TypeError('Failed to fetch: the browser is offline'))
          : fetch(`${supabaseUrl()}/auth/v1/user`, {
              headers: { apikey: supabaseAnonKey(), Authorization: `Bearer ${accessToken}` },
            }),
      currentPath: () => window.location.pathname,
      requestPersistentStorage,
      onRecheck,
    });
    announceSessionManager(manager);
    void manager.start();
  }
  return manager;
}

/**
 * Runs an authorised call with the current access token; a 401 refreshes the session and repeats the
 * call once; a refused refresh signs out with 'Session expired. Please sign in again.'.
 */
export function withSessionRetry(fetchFn: (accessToken: string) => Promise<Response>): Promise<Response> {
  return getSessionManager().withSessionRetry(fetchFn);
}

/**
 * A `fetch` for authorised calls (the sync API's `fetch` option): sends the current access token and
 * applies the 401 rule of `withSessionRetry`. Request bodies must be strings (they are sent twice on retry).
 */
export const sessionRetryFetch: typeof fetch = (input, init) =>
  withSessionRetry((accessToken) => {
    const headers = new Headers(init?.headers);
    headers.set('authorization', `Bearer ${accessToken}`);
    return fetch(input, { ...init, headers });
  });
