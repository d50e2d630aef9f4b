/**
 * Client configuration, fixed at build time. Locally (`npm start`) the app, `/auth/v1`, `/sync/v1` and
 * `/api` share one origin, so the defaults point at `window.location.origin`. A hosted deployment sets
 * `VITE_SUPABASE_URL` and `VITE_SUPABASE_ANON_KEY` (a publishable key, safe in the bundle) when building.
 */
export const APP_NAME = 'Pacta';

export function supabaseUrl(): string {
  return import.meta.env.VITE_SUPABASE_URL || window.location.origin;
}

/** Where `/sync/v1` and `/api` live: the app's own origin (npm start), or the build's VITE_SYNC_URL. */
export function syncServerUrl(): string {
  return import.meta.env.VITE_SYNC_URL || window.location.origin;
}

/** The local auth server accepts any apikey; supabase-js only needs a non-empty one. */
export function supabaseAnonKey(): string {
  return import.meta.env.VITE_SUPABASE_ANON_KEY || 'pacta-local-anon-key';
}

export const SUPPORT_EMAIL = 'support@pacta.app';
