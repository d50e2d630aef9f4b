-- Tables of the local Supabase-compatible auth (sync-server/auth). Hosted Supabase has GoTrue's own;
-- the shapes below follow GoTrue's (sessions, refresh_tokens, identities, one_time_tokens) so that the
-- same SQL (e.g. "delete from auth.sessions where user_id = …") behaves alike on both. The pacta_*
-- tables exist only locally: the e-mail outbox and the abuse-limit counters.

do $$
begin
  if not exists (select 1 from pg_type where typname = 'aal_level' and typnamespace = 'auth'::regnamespace) then
    create type auth.aal_level as enum ('aal1', 'aal2', 'aal3');
  end if;
  if not exists (select 1 from pg_type where typname = 'one_time_token_type' and typnamespace = 'auth'::regnamespace) then
    create type auth.one_time_token_type as enum (
      'confirmation_token', 'reauthentication_token', 'recovery_token',
      'email_change_token_new', 'email_change_token_current', 'phone_change_token');
  end if;
end $$;

create table if not exists auth.sessions (
  id uuid primary key,
  user_id uuid not null references auth.users (id) on delete cascade,
  created_at timestamptz,
  updated_at timestamptz,
  factor_id uuid,
  aal auth.aal_level,
  -- Set when the session is ended without deleting it (a reused refresh token revoked its family).
  not_after timestamptz,
  refreshed_at timestamp,
  user_agent text,
  ip inet,
  tag text,
  -- Local only: the authentication methods of the session, carried into every access token's `amr`
  -- (GoTrue keeps these in auth.mfa_amr_claims).
  amr jsonb not null default '[]'::jsonb
);
create index if not exists sessions_user_id_idx on auth.sessions (user_id);

create table if not exists auth.refresh_tokens (
  instance_id uuid,
  id bigserial primary key,
  token varchar(255) unique,
  user_id varchar(255),
  revoked boolean,
  created_at timestamptz,
  updated_at timestamptz,
  parent varchar(255),
  session_id uuid references auth.sessions (id) on delete cascade
);
create index if not exists refresh_tokens_session_id_revoked_idx on auth.refresh_tokens (session_id, revoked);
create index if not exists refresh_tokens_parent_idx on auth.refresh_tokens (parent);

create table if not exists auth.identities (
  provider_id text not null,
  user_id uuid not null references auth.users (id) on delete cascade,
  identity_data jsonb not null,
  provider text not null,
  last_sign_in_at timestamptz,
  created_at timestamptz,
  updated_at timestamptz,
  email text generated always as (lower(identity_data ->> 'email')) stored,
  id uuid primary key default gen_random_uuid(),
  unique (provider_id, provider)
);
create index if not exists identities_user_id_idx on auth.identities (user_id);

-- One pending token per user and kind; `token_hash` is what e-mail links carry
-- (sha224 of e-mail + 6-digit code, as GoTrue computes it).
create table if not exists auth.one_time_tokens (
  id uuid primary key,
  user_id uuid not null references auth.users (id) on delete cascade,
  token_type auth.one_time_token_type not null,
  token_hash text not null check (char_length(token_hash) > 0),
  relates_to text not null,
  created_at timestamp without time zone not null default now(),
  updated_at timestamp without time zone not null default now(),
  unique (user_id, token_type)
);
create index if not exists one_time_tokens_token_hash_idx on auth.one_time_tokens using hash (token_hash);

-- Every auth e-mail, sent or not: the dev mailbox reads it locally, and with SMTP it records delivery.
create table if not exists auth.pacta_email_outbox (
  id uuid primary key default gen_random_uuid(),
  user_id uuid references auth.users (id) on delete cascade,
  to_email text not null,
  kind text not null check (kind in ('signup', 'recovery')),
  subject text not null,
  text_body text not null,
  html_body text not null,
  action_link text not null,
  otp text not null,
  created_at timestamptz not null default now(),
  sent_at timestamptz,
  send_error text
);
create index if not exists pacta_email_outbox_to_idx on auth.pacta_email_outbox (lower(to_email), created_at desc);

-- Fixed-window request counters shared by every server instance on this database.
create table if not exists auth.pacta_rate_limits (
  bucket text not null,
  subject text not null,
  window_start timestamptz not null,
  hits integer not null default 0,
  primary key (bucket, subject, window_start)
);

revoke all on auth.sessions, auth.refresh_tokens, auth.identities, auth.one_time_tokens,
  auth.pacta_email_outbox, auth.pacta_rate_limits from anon, authenticated;
