-- The refusal past the cap on opened deals (docs/decisions/045-opened-deals-are-capped-and-leave-when-they-close.md)
-- says what the user can do, and only what they can: a creator (or staff) can save the deal to keep
-- it offline; a brand has no Save on another brand's deal, so its text offers nothing it cannot do.
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
      case when pacta_private.profile_role(new.user_id) = 'brand' then
        format('Your devices already keep %s deals you opened, the most they can. This deal opens while you are online. Opened deals leave your devices as they close.',
               to_char(pacta_private.opened_deals_limit(), 'FM999,999'))
      else
        format('Your devices already keep %s deals you opened from search, the most they can. This deal opens while you are online: save it to keep it offline. Opened deals leave your devices as they close.',
               to_char(pacta_private.opened_deals_limit(), 'FM999,999'))
      end,
      409);
  end if;
  return new;
end $$;
revoke all on function pacta_private.kept_deals_cap() from public;
