-- Deals kept because the user opened them (POST /api/deals/:id/keep) are capped per user and leave
-- when their deal is no longer offered.
--
-- A keep is one of two kinds. A party keep (applied to, messaged about, saved, invited to) is written
-- by the triggers through pacta_private.keep_deals and never leaves while the user may read the deal.
-- An opened keep (`opened_at` set) is written by the user opening a deal their device does not hold.
-- Nothing bounded the opened ones: a script with an account could open every deal in the catalogue,
-- and the table grew without end. Now:
--   * At most pacta_private.opened_deals_limit() opened keeps per user (1,000: a fifth of the
--     smallest "Deals kept on this device" setting, 5,000, so opened deals never crowd out the rest
--     of a device's working set). The keep beyond it is refused whole with 'kept_deals_full' (409).
--     The count is taken under a lock per user, so concurrent keeps cannot pass it together.
--   * An opened keep lasts while its deal is offered: open, not deleted, deadline not passed. The
--     cleanup (pacta_private.forget_ended_keeps, run by the server's job and before each count) removes
--     the others, so a user at the cap gains room as the deals they opened close.
--   * Applying to, messaging about, saving or being invited to a deal turns its opened keep into a
--     party keep: it no longer counts and never leaves.

alter table public.kept_deals add column opened_at timestamptz;

-- Keeps written before this migration that no party reason explains were opened from search.
update public.kept_deals k set opened_at = k.kept_at
 where not exists (select 1 from public.applications a where a.creator_id = k.user_id and a.deal_id = k.deal_id)
   and not exists (select 1 from public.conversations c
                    where c.deal_id = k.deal_id and k.user_id in (c.user1_id, c.user2_id))
   and not exists (select 1 from public.saved_lists s cross join unnest(s.items) i
                    where s.user_id = k.user_id and s.kind = 'saved_campaigns' and not s.deleted
                      and lower(i) = k.deal_id::text)
   and not exists (select 1 from public.saved_lists s cross join unnest(s.items) i
                    where s.kind = 'campaign_invites' and not s.deleted
                      and lower(i) = k.deal_id::text || ':' || k.user_id::text);

-- A keep a user writes is an opened one: they may name the user and the deal, not the kind.
alter table public.kept_deals alter column opened_at set default now();
revoke insert on public.kept_deals from authenticated;
grant insert (user_id, deal_id) on public.kept_deals to authenticated;

-- Counting a user's opened keeps.
create index kept_deals_opened on public.kept_deals (user_id) where opened_at is not null;

create or replace function pacta_private.opened_deals_limit() returns integer
language sql immutable set search_path = '' as $$ select 1000 $$;
revoke all on function pacta_private.opened_deals_limit() from public;
grant execute on function pacta_private.opened_deals_limit() to authenticated, service_role;

-- Removes opened keeps whose deal is no longer offered (of one user, or of everyone when null);
-- returns how many.
create or replace function pacta_private.forget_ended_keeps(p_user uuid default null) returns integer
language sql security definer set search_path = '' as $$
  with gone as (
    delete from public.kept_deals k
     using public.deals d
     where d.id = k.deal_id
       and k.opened_at is not null
       and (p_user is null or k.user_id = p_user)
       and (d.status <> 'open' or d.deleted or pacta_private.deadline_has_passed(d.deadline))
    returning 1
  )
  select count(*)::integer from gone
$$;
revoke all on function pacta_private.forget_ended_keeps(uuid) from public;
grant execute on function pacta_private.forget_ended_keeps(uuid) to service_role;

create or replace function pacta_private.kept_deals_cap() returns trigger
language plpgsql security definer set search_path = '' as $$
declare
  opened integer;
begin
  -- Every opened keep of a user is counted under one lock per user, so two requests cannot both pass.
  perform pg_advisory_xact_lock(hashtextextended('pacta_kept_deals:' || new.user_id::text, 0));
  -- Keeping a deal already kept writes nothing (the insert's conflict clause): never refused.
  if exists (select 1 from public.kept_deals k where k.user_id = new.user_id and k.deal_id = new.deal_id) then
    return new;
  end if;
  perform pacta_private.forget_ended_keeps(new.user_id);
  select count(*)::integer into opened from public.kept_deals k where k.user_id = new.user_id and k.opened_at is not null;
  if opened >= pacta_private.opened_deals_limit() then
    perform pacta_private.reject('kept_deals_full',
      format('Your devices already keep %s deals you opened from search, the most they can. This deal opens while you are online: save it to keep it offline. Opened deals leave your devices as they close.',
             to_char(pacta_private.opened_deals_limit(), 'FM999,999')),
      409);
  end if;
  return new;
end $$;
revoke all on function pacta_private.kept_deals_cap() from public;

create trigger kept_deals_cap before insert on public.kept_deals
  for each row when (new.opened_at is not null) execute function pacta_private.kept_deals_cap();

-- Party keeps: a deal the user opened and is now party to stays, and no longer counts. Distinct pairs:
-- one statement cannot update the same row twice.
create or replace function pacta_private.keep_deals(p_users uuid[], p_deals uuid[]) returns void
language sql security definer set search_path = '' as $$
  insert into public.kept_deals (user_id, deal_id, opened_at)
  select distinct k.u, k.d, null::timestamptz from unnest(p_users, p_deals) as k(u, d)
   where exists (select 1 from public.deals d where d.id = k.d)
     and exists (select 1 from public.profiles p where p.id = k.u)
  on conflict (user_id, deal_id) do update set opened_at = null where public.kept_deals.opened_at is not null;
$$;
revoke all on function pacta_private.keep_deals(uuid[], uuid[]) from public;
