-- Signing keys of the local Supabase-compatible auth (ES256). Hosted Supabase keeps its own.
create table if not exists auth.pacta_signing_keys (
  kid text primary key,
  private_jwk jsonb not null,
  public_jwk jsonb not null,
  created_at timestamptz not null default now()
);
revoke all on auth.pacta_signing_keys from anon, authenticated, service_role;
