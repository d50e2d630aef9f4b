import type { SupabaseClient } from '@supabase/supabase-js';

/**
 * A dependency-free meeting point between the auth provider (always loaded) and the supabase-js client
 * (loaded on demand): the provider learns about the client whenever a screen first creates it.
 */

/** The supabase-js storageKey (same as src/features/auth's remember-me storage): fixed, so the shell can tell "no session" without loading it. */
export const AUTH_STORAGE_KEY = 'pacta.auth.session';

let created: SupabaseClient | undefined;
const listeners = new Set<(client: SupabaseClient) => void>();

export function announceSupabaseClient(client: SupabaseClient): void {
  created = client;
  for (const listener of listeners) listener(client);
  listeners.clear();
}

/** Calls `listener` once the client exists (immediately if it already does). */
export function onSupabaseClient(listener: (client: SupabaseClient) => void): () => void {
  if (created) {
    listener(created);
    return () => {};
  }
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** True when a stored session exists, or the URL carries an auth result to exchange. */
export function mayHaveSession(): boolean {
  try {
    // Remember me off keeps the session in sessionStorage (DESIGN.md), on keeps it in localStorage.
    if (localStorage.getItem(AUTH_STORAGE_KEY) || sessionStorage.getItem(AUTH_STORAGE_KEY)) return true;
  } catch {
    // No storage: no stored session either.
  }
  const { search, hash } = window.location;
  return /[?&](code|token_hash|error_description)=/.test(search) || /access_token=|error_description=/.test(hash);
}
