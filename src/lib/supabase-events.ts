/**
 * What the always-loaded shell may know about the session without loading supabase-js: where the
 * session is stored, and whether one may exist.
 */

/** The supabase-js storageKey (also the remember-me storage's key): fixed, so the shell can tell "no session" without loading it. */
export const AUTH_STORAGE_KEY = 'pacta.auth.session';

/** True when a stored session exists, or the URL carries an auth result to exchange. */
export function mayHaveSession(): boolean {
  try {
    // Remember me off keeps the session in sessionStorage (docs/design.md "Remember me"), on keeps it in localStorage.
    if (localStorage.getItem(AUTH_STORAGE_KEY) || sessionStorage.getItem(AUTH_STORAGE_KEY)) return true;
  } catch {
    // No storage: no stored session either.
  }
  const { search, hash } = window.location;
  return /[?&](code|token_hash|error_description)=/.test(search) || /access_token=|error_description=/.test(hash);
}

/**
 * The user of the stored session, without loading supabase-js or checking it: who this device's
 * local data most likely belongs to at the start (the session manager decides whether it is signed in).
 */
export function storedSessionUserId(): string | null {
  try {
    const raw = localStorage.getItem(AUTH_STORAGE_KEY) ?? sessionStorage.getItem(AUTH_STORAGE_KEY);
    const id = raw ? (JSON.parse(raw) as { user?: { id?: unknown } }).user?.id : undefined;
    return typeof id === 'string' && id ? id : null;
  } catch {
    return null;
  }
}
