import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import { supabaseAnonKey, supabaseUrl } from './config.ts';
import { AUTH_STORAGE_KEY, announceSupabaseClient } from './supabase-events.ts';

let client: SupabaseClient | undefined;

/**
 * The one supabase-js client (auth only: data goes through RxDB, DESIGN.md). Import this module
 * lazily (`await import(...)`) from the shell so the landing page does not load supabase-js up front;
 * auth screens may import it directly.
 */
export function getSupabase(): SupabaseClient {
  if (!client) {
    client = createClient(supabaseUrl(), supabaseAnonKey(), {
      auth: { persistSession: true, autoRefreshToken: true, detectSessionInUrl: true, flowType: 'pkce', storageKey: AUTH_STORAGE_KEY },
    });
    announceSupabaseClient(client);
  }
  return client;
}
