-- A deletion pushed for a row the server never had (created and deleted on a device before it reached
-- the server) writes nothing. But the device's own earlier push of that row may still be on its way: a
-- tab reloaded while that request was in flight (or held up by a server restart) pushes the deletion
-- from the reopened tab, and the older request can reach the database after it. Answered "done", the
-- deletion would then be undone by that late insert ("every write the server acknowledged is
-- present"). So such a deletion is remembered, per user: an insert of that id by the same user is then
-- answered with the deletion instead of written. Ids are random UUIDs a device makes for its own new
-- rows, so only a late copy of that user's own push can name one; another user's insert is not
-- affected. Entries older than the tombstone horizon are purged with the tombstones.

create table sync.early_deletions (
  collection text not null,
  id uuid not null,
  user_id uuid not null,
  deleted_at timestamptz not null default now(),
  primary key (collection, id, user_id)
);
revoke all on sync.early_deletions from public, anon, authenticated;
create index early_deletions_deleted_at_idx on sync.early_deletions (deleted_at);

-- Called in the push transaction, as the user.
create or replace function pacta_private.record_early_deletions(coll text, ids uuid[]) returns void
language sql volatile security definer set search_path = '' as $$
  insert into sync.early_deletions (collection, id, user_id)
  select coll, x, auth.uid() from unnest(ids) as x where auth.uid() is not null
  on conflict do nothing;
$$;

create or replace function pacta_private.early_deletions_of(coll text, ids uuid[]) returns setof uuid
language sql stable security definer set search_path = '' as $$
  select e.id from sync.early_deletions e where e.collection = coll and e.id = any(ids) and e.user_id = auth.uid();
$$;

revoke all on function pacta_private.record_early_deletions(text, uuid[]), pacta_private.early_deletions_of(text, uuid[]) from public;
grant execute on function pacta_private.record_early_deletions(text, uuid[]), pacta_private.early_deletions_of(text, uuid[]) to authenticated, service_role;
