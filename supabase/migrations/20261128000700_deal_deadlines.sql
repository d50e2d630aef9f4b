-- (1) A deal's deadline must not be a day that has already ended (src/domain/deal-deadline.ts predicts
-- it in the forms). The forms store a deadline as a calendar day 'YYYY-MM-DD'; older deals may hold
-- free text, which no rule reads. The server does not know the writer's time zone, so a day counts
-- as ended only once it has ended everywhere on Earth (UTC-12): no one's "today" is refused.
--
-- Checked when a deal is published and when its deadline changes (a deal already past its deadline
-- can still be edited otherwise, completed or cancelled), and when a creator applies: a deal whose
-- deadline has passed takes no new applications.

create function pacta_private.deadline_day(deadline text)
returns date
language plpgsql
immutable
set search_path = ''
as $$
declare
  day date;
begin
  if deadline is null or deadline !~ '^\d{4}-\d{2}-\d{2}$' then
    return null;
  end if;
  day := to_date(deadline, 'YYYY-MM-DD');
  -- A day that does not exist (2027-02-30) is not a deadline, whether to_date refuses or rolls it over.
  return case when to_char(day, 'YYYY-MM-DD') = deadline then day end;
exception when others then
  return null;
end $$;
revoke all on function pacta_private.deadline_day(text) from public;
grant execute on function pacta_private.deadline_day(text) to authenticated, service_role;

create function pacta_private.deadline_has_passed(deadline text)
returns boolean
language sql
stable
set search_path = ''
as $$
  select coalesce(pacta_private.deadline_day(deadline) < (now() at time zone 'Etc/GMT+12')::date, false)
$$;
revoke all on function pacta_private.deadline_has_passed(text) from public;
grant execute on function pacta_private.deadline_has_passed(text) to authenticated, service_role;

create function pacta_private.deals_deadline_check()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if tg_op = 'UPDATE' and new.deadline is not distinct from old.deadline then
    return new;
  end if;
  if new.deadline ~ '^\d{4}-\d{2}-\d{2}$' and pacta_private.deadline_day(new.deadline) is null then
    perform pacta_private.reject('invalid_deadline', 'Please pick the deadline from the date field.', 422, 'deadline');
  end if;
  if pacta_private.deadline_has_passed(new.deadline) then
    perform pacta_private.reject('deadline_passed', 'The deadline has passed. Pick today or a later date.', 422, 'deadline');
  end if;
  return new;
end $$;
revoke all on function pacta_private.deals_deadline_check() from public;
grant execute on function pacta_private.deals_deadline_check() to authenticated, service_role;

create trigger b_deadline before insert or update of deadline on public.deals
  for each row execute function pacta_private.deals_deadline_check();

create function pacta_private.applications_deadline_check()
returns trigger
language plpgsql
set search_path = ''
as $$
declare
  d public.deals;
begin
  d := pacta_private.deal_for_rules(new.deal_id);
  if d.id is not null and pacta_private.deadline_has_passed(d.deadline) then
    perform pacta_private.reject('deadline_passed', 'This deal''s deadline has passed: it no longer takes applications.', 409);
  end if;
  return new;
end $$;
revoke all on function pacta_private.applications_deadline_check() from public;
grant execute on function pacta_private.applications_deadline_check() to authenticated, service_role;

create trigger b_deadline before insert on public.applications
  for each row execute function pacta_private.applications_deadline_check();

-- The referral leaderboard is public to every signed-in user: a member without a username is shown
-- by first name and last initial ("Ava V."), never by the full name given at sign-up.
create function pacta_private.public_name(full_name text)
returns text
language sql
immutable
set search_path = ''
as $$
  select case
    when full_name is null or btrim(full_name) = '' then null
    when array_length(regexp_split_to_array(btrim(full_name), '\s+'), 1) = 1 then btrim(full_name)
    else (regexp_split_to_array(btrim(full_name), '\s+'))[1] || ' '
         || upper(left((regexp_split_to_array(btrim(full_name), '\s+'))[array_length(regexp_split_to_array(btrim(full_name), '\s+'), 1)], 1)) || '.'
  end
$$;
revoke all on function pacta_private.public_name(text) from public;
grant execute on function pacta_private.public_name(text) to authenticated, service_role;

create or replace function public.referral_leaderboard(since timestamp with time zone)
 returns table(rank bigint, user_id uuid, username text, full_name text, referrals bigint, is_pro boolean, xp integer, level integer)
 language sql
 stable security definer
 set search_path to ''
as $function$
  with counts as (
    select r.referrer_id, count(*) as n from public.referrals r
    where r.qualified and not r.deleted and (since is null or r.qualified_at >= since)
    group by r.referrer_id
  )
  select rank() over (order by coalesce(c.n, 0) desc, p.xp desc), p.id, p.username,
         pacta_private.public_name(p.full_name), coalesce(c.n, 0),
         public.is_pro_user(p.id), p.xp, p.level
  from public.profiles p left join counts c on c.referrer_id = p.id
  where p.role in ('creator', 'brand') and not p.deleted
$function$;
