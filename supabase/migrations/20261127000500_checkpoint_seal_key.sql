-- The key the sync server seals catalog checkpoints with (HMAC over the feed position it issued), made
-- by the first server that starts and shared by every instance: a position the server did not issue
-- restarts the feed instead of reading changed rows past RLS from wherever the client chose.
create table pacta_private.checkpoint_seal_keys (
  singleton boolean primary key default true check (singleton),
  secret text not null,
  created_at timestamptz not null default now()
);

revoke all on pacta_private.checkpoint_seal_keys from public, anon, authenticated;
