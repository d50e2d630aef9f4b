-- Replication support (docs/decisions/001-sync-protocol.md):
-- * the `growth` collection: one read-only view over the four growth tables;
-- * change notices: per-row triggers NOTIFY channel `pacta_sync` with {c: collection, u: audience};
--   every sync-server instance LISTENs and forwards the notices to its connected clients;
-- * tombstone horizon: soft-deleted rows older than the horizon may be purged; the newest purged
--   change id per collection is kept, so a client whose checkpoint predates it is reset.

create schema if not exists sync;
revoke all on schema sync from public;

-- ---------------------------------------------------------------------------------------------
-- growth: xp_logs, referrals, referral_badges and referral_rewards as one collection.
-- security_invoker: the tables' own RLS decides what each user sees through the view.
-- `user_id` is the owner (the referrer for referrals and rewards); `data` holds the other columns.
-- ---------------------------------------------------------------------------------------------

create view public.growth with (security_invoker = true) as
  select x.id, x.user_id, 'xp_log'::text as kind,
         to_jsonb(x) - array['id', 'user_id', 'created_at', 'updated_at', 'deleted', 'version', 'change_xid'] as data,
         x.created_at, x.updated_at, x.version, x.deleted, x.change_xid
    from public.xp_logs x
  union all
  select r.id, r.referrer_id, 'referral',
         to_jsonb(r) - array['id', 'created_at', 'updated_at', 'deleted', 'version', 'change_xid'],
         r.created_at, r.updated_at, r.version, r.deleted, r.change_xid
    from public.referrals r
  union all
  select b.id, b.user_id, 'referral_badge',
         to_jsonb(b) - array['id', 'user_id', 'created_at', 'updated_at', 'deleted', 'version', 'change_xid'],
         b.created_at, b.updated_at, b.version, b.deleted, b.change_xid
    from public.referral_badges b
  union all
  select w.id, w.referrer_id, 'referral_reward',
         to_jsonb(w) - array['id', 'created_at', 'updated_at', 'deleted', 'version', 'change_xid'],
         w.created_at, w.updated_at, w.version, w.deleted, w.change_xid
    from public.referral_rewards w;

revoke all on public.growth from anon, authenticated;
grant select on public.growth to authenticated;
grant select on public.growth to service_role;

-- ---------------------------------------------------------------------------------------------
-- Change notices
-- ---------------------------------------------------------------------------------------------

-- tg_argv[0]: the collection; further arguments name the audience (the users whose copy changes):
--   'column'                          the row's own column, e.g. 'user_id'
--   'fk_column>table.column'          a column of the row that fk_column points to, e.g. the deal's brand
-- No audience argument: a catalog collection, the notice goes to every connected user.
-- SECURITY DEFINER so the audience lookups read past RLS; the payload carries ids only.
create or replace function sync.notify_change() returns trigger
language plpgsql security definer set search_path = '' as $$
declare
  row_json jsonb := to_jsonb(new);
  audience jsonb := null;
  arg text;
  ref uuid;
begin
  if tg_nargs > 1 then
    audience := '[]'::jsonb;
    for i in 1 .. tg_nargs - 1 loop
      arg := tg_argv[i];
      if position('>' in arg) > 0 then
        execute format('select t.%I from public.%I t where t.id = $1',
                       split_part(split_part(arg, '>', 2), '.', 2), split_part(split_part(arg, '>', 2), '.', 1))
          into ref using (row_json ->> split_part(arg, '>', 1))::uuid;
      else
        ref := (row_json ->> arg)::uuid;
      end if;
      if ref is not null and not audience @> to_jsonb(ref::text) then
        audience := audience || to_jsonb(ref::text);
      end if;
    end loop;
  end if;
  -- Identical payloads within one transaction are delivered once, so bulk writes stay cheap.
  perform pg_notify('pacta_sync', jsonb_build_object('c', tg_argv[0], 'u', audience)::text);
  return null;
end $$;

create trigger z_sync_notify after insert or update on public.deals
  for each row execute function sync.notify_change('deals');
create trigger z_sync_notify after insert or update on public.applications
  for each row execute function sync.notify_change('applications', 'creator_id', 'deal_id>deals.brand_id');
create trigger z_sync_notify after insert or update on public.profiles
  for each row execute function sync.notify_change('profiles');
create trigger z_sync_notify after insert or update on public.saved_lists
  for each row execute function sync.notify_change('saved_lists', 'user_id');
create trigger z_sync_notify after insert or update on public.drafts
  for each row execute function sync.notify_change('drafts', 'user_id');
create trigger z_sync_notify after insert or update on public.conversations
  for each row execute function sync.notify_change('conversations', 'user1_id', 'user2_id');
create trigger z_sync_notify after insert or update on public.messages
  for each row execute function sync.notify_change('messages', 'sender_id', 'recipient_id');
create trigger z_sync_notify after insert or update on public.notifications
  for each row execute function sync.notify_change('notifications', 'user_id');
create trigger z_sync_notify after insert or update on public.support_tickets
  for each row execute function sync.notify_change('support_tickets', 'user_id');
create trigger z_sync_notify after insert or update on public.support_messages
  for each row execute function sync.notify_change('support_messages', 'user_id', 'ticket_id>support_tickets.user_id');
create trigger z_sync_notify after insert or update on public.reviews
  for each row execute function sync.notify_change('reviews');
create trigger z_sync_notify after insert or update on public.xp_logs
  for each row execute function sync.notify_change('growth', 'user_id');
create trigger z_sync_notify after insert or update on public.referrals
  for each row execute function sync.notify_change('growth', 'referrer_id', 'referred_user_id');
create trigger z_sync_notify after insert or update on public.referral_badges
  for each row execute function sync.notify_change('growth', 'user_id');
create trigger z_sync_notify after insert or update on public.referral_rewards
  for each row execute function sync.notify_change('growth', 'referrer_id');

-- A user's deal scope depends on role and Pro membership: when either changes, that user's client
-- must pull deals (the server then resets the feed because the checkpoint's scope no longer matches).
create or replace function sync.notify_deal_scope() returns trigger
language plpgsql security definer set search_path = '' as $$
declare
  target uuid;
begin
  if tg_table_name = 'profiles' then
    if new.role is not distinct from old.role and new.pro_tier is not distinct from old.pro_tier
       and new.pro_until is not distinct from old.pro_until then
      return null;
    end if;
    target := new.id;
  else
    target := coalesce(new.user_id, old.user_id);
  end if;
  perform pg_notify('pacta_sync', jsonb_build_object('c', 'deals', 'u', jsonb_build_array(target::text))::text);
  return null;
end $$;

create trigger z_sync_scope after update on public.profiles
  for each row execute function sync.notify_deal_scope();
create trigger z_sync_scope after insert or update or delete on public.user_pro_features
  for each row execute function sync.notify_deal_scope();

revoke execute on function sync.notify_change(), sync.notify_deal_scope() from public;

-- ---------------------------------------------------------------------------------------------
-- Tombstone horizon
-- ---------------------------------------------------------------------------------------------

-- The newest change id among the purged tombstones of each collection. A client whose checkpoint is
-- not past it (and whose copy was not built after it) may still hold rows whose removal is gone.
create table sync.purge_watermarks (
  collection text primary key,
  purged_xid xid8 not null,
  purged_at timestamptz not null default now()
);

-- Hard-deletes soft-deleted rows older than `horizon` and records the watermarks. Rows another row
-- still references stay as tombstones. Run by the server's own connection (never by clients).
create or replace function sync.purge_tombstones(horizon interval)
returns table (collection text, purged bigint)
language plpgsql set search_path = '' as $$
#variable_conflict use_column
declare
  t record;
  r record;
  n bigint;
  newest xid8;
begin
  for t in select * from (values
      ('deals', 'deals'), ('applications', 'applications'), ('profiles', 'profiles'),
      ('saved_lists', 'saved_lists'), ('drafts', 'drafts'), ('conversations', 'conversations'),
      ('messages', 'messages'), ('notifications', 'notifications'), ('support_tickets', 'support_tickets'),
      ('support_messages', 'support_messages'), ('reviews', 'reviews'), ('growth', 'xp_logs'),
      ('growth', 'referrals'), ('growth', 'referral_badges'), ('growth', 'referral_rewards')) v(coll, tbl)
  loop
    n := 0;
    newest := null;
    for r in execute format(
        'select id, change_xid from public.%I where deleted and updated_at < now() - $1 order by change_xid, id', t.tbl)
      using horizon
    loop
      begin
        execute format('delete from public.%I where id = $1', t.tbl) using r.id;
        n := n + 1;
        newest := greatest(newest, r.change_xid);
      exception when foreign_key_violation then
        null; -- still referenced: keep the tombstone
      end;
    end loop;
    if newest is not null then
      insert into sync.purge_watermarks as w (collection, purged_xid) values (t.coll, newest)
        on conflict (collection) do update set purged_xid = greatest(w.purged_xid, excluded.purged_xid), purged_at = now();
    end if;
    collection := t.coll;
    purged := n;
    return next;
  end loop;
end $$;

revoke execute on function sync.purge_tombstones(interval) from public;
