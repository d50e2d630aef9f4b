import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import { supabaseAnonKey, supabaseUrl } from './config.ts';
import { rememberMeStorage } from './remember-me-storage.ts';
import { AUTH_STORAGE_KEY } from './supabase-events.ts';

let client: SupabaseClient | undefined;

/**
 * The one supabase-js client (auth only: data goes through RxDB, docs/design.md "Architecture"). Import this module
 * lazily (`await import(...)`) from the shell so the landing page does not load supabase-js up front;
 * auth screens may import it directly.
 */
export function getSupabase(): SupabaseClient {
  if (!client) {
    client = createClient(supabaseUrl(), supabaseAnonKey(), {
      // Implicit flow: the local auth server's e-mail links return the session in the URL fragment, as
      // Supabase's implicit flow does. The storage honours Remember me (localStorage or sessionStorage).
      auth: {
        persistSession: true,
        autoRefreshToken: true,
        detectSessionInUrl: true,
        flowType: 'implicit',
        storageKey: AUTH_STORAGE_KEY,
        storage: rememberMeStorage,
      },
    });
  }
  return client;
}
