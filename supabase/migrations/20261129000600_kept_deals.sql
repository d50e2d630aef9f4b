-- The deals a device keeps whatever else the catalogue holds: the ones its user is party to besides
-- their own (applied to, saved, messaged about, invited to) and the ones they opened from an online
-- search. A device holds a bounded working set of the catalogue (sync-server/sync/working-set.ts):
-- these deals are always in it, and a deal entering it through a row here (with a change id of its
-- own, `kept_xid`) reaches the device even though the deal itself did not change.

create table public.kept_deals (
  user_id uuid not null references public.profiles (id) on delete cascade,
  deal_id uuid not null references public.deals (id) on delete cascade,
  kept_xid xid8 not null default pg_current_xact_id(),
  kept_at timestamptz not null default now(),
  primary key (user_id, deal_id)
);
-- The pull reads a user's keeps newer than its position.
create index kept_deals_user_xid on public.kept_deals (user_id, kept_xid);
-- Who keeps a deal that changed (the shared catalogue read asks it for a page of changed deals).
create index kept_deals_deal on public.kept_deals (deal_id);

alter table public.kept_deals enable row level security;

create policy kept_deals_read on public.kept_deals for select to authenticated using (user_id = (select auth.uid()));
-- Keeping a deal one may see (RLS on deals applies inside the check): opening a search result.
create policy kept_deals_insert on public.kept_deals for insert to authenticated
  with check (user_id = (select auth.uid()) and exists (select 1 from public.deals d where d.id = deal_id));

grant select, insert on public.kept_deals to authenticated;
grant all on public.kept_deals to service_role;

-- A new keep tells the user's devices to pull deals: the kept deal did not change, so no deal notice
-- would come.
create or replace function pacta_private.kept_deals_notify() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  perform pg_notify('pacta_sync', jsonb_build_object('c', 'deals', 'u', jsonb_build_array(new.user_id::text))::text);
  return null;
end $$;
revoke all on function pacta_private.kept_deals_notify() from public;

create trigger kept_deals_notify after insert on public.kept_deals
  for each row execute function pacta_private.kept_deals_notify();

-- Keeps (user, deal) pairs, once each; deals that do not exist are skipped.
create or replace function pacta_private.keep_deals(p_users uuid[], p_deals uuid[]) returns void
language sql security definer set search_path = '' as $$
  insert into public.kept_deals (user_id, deal_id)
  select k.u, k.d from unnest(p_users, p_deals) as k(u, d)
   where exists (select 1 from public.deals d where d.id = k.d)
     and exists (select 1 from public.profiles p where p.id = k.u)
  on conflict do nothing;
$$;
revoke all on function pacta_private.keep_deals(uuid[], uuid[]) from public;

-- Applied to: the creator keeps the deal.
create or replace function pacta_private.applications_keep_deal() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  perform pacta_private.keep_deals(array[new.creator_id], array[new.deal_id]);
  return null;
end $$;
revoke all on function pacta_private.applications_keep_deal() from public;
create trigger z_keep_deal after insert on public.applications
  for each row execute function pacta_private.applications_keep_deal();

-- Messaged about: both members keep the conversation's deal.
create or replace function pacta_private.conversations_keep_deal() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  if new.deal_id is not null then
    perform pacta_private.keep_deals(array[new.user1_id, new.user2_id], array[new.deal_id, new.deal_id]);
  end if;
  return null;
end $$;
revoke all on function pacta_private.conversations_keep_deal() from public;
create trigger z_keep_deal after insert or update of deal_id on public.conversations
  for each row execute function pacta_private.conversations_keep_deal();

-- Saved: a creator's Saved Campaigns entries are deal ids. Invited: a brand's campaign_invites entries
-- are "deal:creator", and the invited creator keeps the deal. Entries that are not ids are skipped.
create or replace function pacta_private.saved_lists_keep_deals() returns trigger
language plpgsql security definer set search_path = '' as $$
declare
  uuid_re constant text := '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$';
begin
  if new.deleted then
    return null;
  end if;
  if new.kind = 'saved_campaigns' then
    -- Only listed deals (open or completed): a list entry is whatever the device wrote, and a keep of
    -- a draft or cancelled deal would tell its owner (who may read their keeps) that the id exists.
    perform pacta_private.keep_deals(array_agg(new.user_id), array_agg(lower(i)::uuid))
       from unnest(new.items) as i
      where lower(i) ~ uuid_re
        and exists (select 1 from public.deals d where d.id = lower(i)::uuid
                     and d.status in ('open', 'completed') and not d.deleted);
  elsif new.kind = 'campaign_invites' then
    perform pacta_private.keep_deals(array_agg(split_part(lower(i), ':', 2)::uuid), array_agg(split_part(lower(i), ':', 1)::uuid))
       from unnest(new.items) as i
      where split_part(lower(i), ':', 1) ~ uuid_re and split_part(lower(i), ':', 2) ~ uuid_re;
  end if;
  return null;
end $$;
revoke all on function pacta_private.saved_lists_keep_deals() from public;
create trigger z_keep_deals after insert or update of items on public.saved_lists
  for each row execute function pacta_private.saved_lists_keep_deals();

-- What users are party to today.
insert into public.kept_deals (user_id, deal_id)
select k.u, k.d from (
  select a.creator_id as u, a.deal_id as d from public.applications a
  union
  select m.u, c.deal_id from public.conversations c cross join lateral (values (c.user1_id), (c.user2_id)) m(u)
   where c.deal_id is not null
  union
  select s.user_id, lower(i)::uuid from public.saved_lists s cross join unnest(s.items) i
   where s.kind = 'saved_campaigns' and not s.deleted
     and lower(i) ~ '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'
  union
  select split_part(lower(i), ':', 2)::uuid, split_part(lower(i), ':', 1)::uuid
    from public.saved_lists s cross join unnest(s.items) i
   where s.kind = 'campaign_invites' and not s.deleted
     and lower(i) ~ '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'
) k
where exists (select 1 from public.deals d where d.id = k.d) and exists (select 1 from public.profiles p where p.id = k.u)
on conflict do nothing;
