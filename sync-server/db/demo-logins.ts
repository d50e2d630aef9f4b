/** The demo accounts `supabase/seed.sql` creates; `npm start` prints them. */
export const DEMO_PASSWORD = 'pacta-demo-2026';
export const DEMO_LOGINS = [
  { role: 'brand', email: 'brand@pacta.dev' },
  { role: 'creator', email: 'creator@pacta.dev' },
  { role: 'admin', email: 'admin@pacta.dev' },
] as const;
