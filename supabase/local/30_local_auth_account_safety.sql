-- Account-flow safety of the local auth (docs/decisions/021). A file of its own rather than an edit
-- of 20_local_auth.sql: sync-server/db/migrate.ts runs each supabase/local file once per database
-- (recorded by name in supabase_migrations.local_bootstrap), so only a new file reaches databases
-- that already ran 20. Local only, like 20: hosted Supabase keeps GoTrue's own tables.

-- A pending one-time token now holds two secrets: `token_hash` is the sha256 of the e-mail link's own
-- random token, and `code_hash` that of the six-digit code typed by hand (GoTrue's sha224 of e-mail +
-- code). Wrong codes are counted; past the limit the code is dead (the link stays valid).
alter table auth.one_time_tokens add column if not exists code_hash text;
alter table auth.one_time_tokens add column if not exists failed_attempts integer not null default 0;
create index if not exists one_time_tokens_relates_to_idx on auth.one_time_tokens using hash (relates_to);
-- Pending tokens issued before this file carried sha224(e-mail + code) in their links, which the
-- server no longer accepts as a link: they are dropped (their owners ask for a new e-mail).
delete from auth.one_time_tokens;
update auth.users set confirmation_token = '' where confirmation_token <> '';
update auth.users set recovery_token = '' where recovery_token <> '';

-- The last time an auth e-mail was asked for each address, whether or not it has an account, so the
-- per-address interval answers alike for both (a 429 must not reveal that an account exists).
create table if not exists auth.pacta_email_requests (
  email text primary key,
  requested_at timestamptz not null
);
revoke all on auth.pacta_email_requests from anon, authenticated;
