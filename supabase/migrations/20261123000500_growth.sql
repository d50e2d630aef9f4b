-- Growth engine: XP awards, levels, referral qualification, badges, the referral Pro grant, referral
-- rewards and their monthly payout run. Everything here happens on the server (functions and
-- triggers), whoever writes and however often a client retries or a webhook is replayed.
--
-- XP AWARDS (DESIGN.md "XP awards", the spec's first table: public.xp_award, mirrored by
-- src/domain/xp.ts):
--   PROFILE_COMPLETE 50     once, when the profile first meets public.profile_missing_items = '{}'
--   DEAL_APPLY 25           per application                       (subject: the application's metadata)
--   DEAL_COMPLETE 100       the winning creator and the brand     (subject: the deal)
--   FIRST_DEAL 300          once per user, at their first completed deal (subject: the user)
--   REFERRAL_QUALIFIED 75   to the referrer                       (subject: the referral)
--   REVIEW 30               to the reviewer                       (subject: the review)
--   PRO_UPGRADE 500         once per user, when a paid tier starts (subject: the user)
-- Each award is one xp_logs row, unique per (user, action, subject): a second award for the same
-- subject is skipped, so a retried push or a replayed webhook never pays twice.

-- ---------------------------------------------------------------------------------------------
-- XP: one award per (user, action, subject)
-- ---------------------------------------------------------------------------------------------

alter table public.xp_logs add column subject text;
-- Rows written before awards had subjects: the subject a legacy call would derive (see below).
update public.xp_logs set subject = coalesce(metadata ->> 'referral_id', metadata::text) where subject is null;
create unique index xp_logs_award_once on public.xp_logs (user_id, action, subject);

-- Awards the XP of `action` (public.xp_award, the table src/domain/xp.ts mirrors) about `subject` once: logs it, keeps xp and
-- level, and creates the 'Level Up!' notification exactly when a level threshold is crossed.
-- Returns the user's new XP total, or null when skipped (already awarded, unknown user).
create or replace function public.award_xp(target_user_id uuid, action text, subject text, metadata jsonb default '{}'::jsonb)
returns integer language plpgsql volatile security definer set search_path = '' as $$
declare
  -- Action names are upper case (DEAL_APPLY, as the spec's reward-points event); any case is accepted.
  canonical text := upper(action);
  amount integer := public.xp_award(action);
  old_level integer;
  new_xp integer;
  new_level integer;
begin
  if amount is null then
    perform pacta_private.reject('unknown_xp_action', format('Unknown XP action: %s.', action), 422);
  end if;
  if subject is null or subject = '' then
    perform pacta_private.reject('xp_subject_required', 'An XP award needs the subject it is about.', 422);
  end if;
  -- The profile lock serialises awards per user, so the check below cannot race another award.
  select p.level into old_level from public.profiles p where p.id = target_user_id for no key update;
  if not found then return null; end if;
  if exists (select 1 from public.xp_logs x where x.user_id = target_user_id and x.action = canonical and x.subject = award_xp.subject) then
    return null;
  end if;
  update public.profiles p set xp = p.xp + amount, level = public.level_for_xp(p.xp + amount)
  where p.id = target_user_id returning p.xp, p.level into new_xp, new_level;
  insert into public.xp_logs (user_id, action, subject, xp_gained, total_xp, metadata)
  values (target_user_id, canonical, subject, amount, new_xp, coalesce(metadata, '{}'::jsonb));
  if new_level > old_level then
    insert into public.notifications (user_id, type, title, message, data)
    values (target_user_id, 'level_up', 'Level Up!', format('You reached level %s.', new_level),
            jsonb_build_object('level', new_level, 'xp', new_xp, 'link', '/dashboard'));
  end if;
  return new_xp;
end $$;

-- The earlier signature (an amount and no subject), still called by the application rules: the
-- subject is `metadata.subject`, or the whole metadata (the same event carries the same metadata).
-- The amount comes from the XP table whatever the caller passed, so no caller can pay another figure.
create or replace function public.award_xp(target_user_id uuid, action text, amount integer, metadata jsonb default '{}'::jsonb)
returns integer language sql volatile security definer set search_path = '' as $$
  select public.award_xp(target_user_id, action, coalesce(metadata ->> 'subject', coalesce(metadata, '{}'::jsonb)::text), metadata)
$$;

-- ---------------------------------------------------------------------------------------------
-- Profile complete (one definition, mirrored by src/domain/profile-completeness.ts)
-- ---------------------------------------------------------------------------------------------

-- What a profile still lacks: 'full_name', 'bio' (at least 50 characters), 'niches' (at least 2),
-- 'linkedin' (brands) or 'instagram' (creators). Empty = complete.
create or replace function public.profile_missing_items(role text, full_name text, bio text, niches text[], social_links jsonb)
returns text[] language sql immutable parallel safe set search_path = '' as $$
  select array_remove(array[
    case when btrim(coalesce(full_name, '')) = '' then 'full_name' end,
    case when length(btrim(coalesce(bio, ''))) < 50 then 'bio' end,
    case when (select count(distinct btrim(n)) from unnest(coalesce(niches, '{}')) n where btrim(n) <> '') < 2 then 'niches' end,
    case when role = 'brand' and btrim(coalesce(social_links ->> 'linkedin', '')) = '' then 'linkedin'
         when role = 'creator' and btrim(coalesce(social_links ->> 'instagram', '')) = '' then 'instagram' end
  ], null)
$$;

create or replace function pacta_private.profiles_growth() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  if cardinality(public.profile_missing_items(new.role, new.full_name, new.bio, new.niches, new.social_links)) = 0 then
    perform public.award_xp(new.id, 'PROFILE_COMPLETE', new.id::text, '{}'::jsonb);
  end if;
  if tg_op = 'UPDATE' and old.pro_tier = 'free' and new.pro_tier <> 'free' then
    perform public.award_xp(new.id, 'PRO_UPGRADE', new.id::text, jsonb_build_object('pro_tier', new.pro_tier));
  end if;
  return null;
end $$;

create trigger z_growth after insert or update of role, full_name, bio, niches, social_links, pro_tier on public.profiles
  for each row execute function pacta_private.profiles_growth();

-- ---------------------------------------------------------------------------------------------
-- Deals completed, reviews written
-- ---------------------------------------------------------------------------------------------

-- Completing a deal pays the winning creator and the brand; each one's first completed deal once more.
create or replace function pacta_private.deals_growth() returns trigger
language plpgsql security definer set search_path = '' as $$
declare
  who uuid;
begin
  if new.status = 'completed' and old.status <> 'completed' then
    foreach who in array array_remove(array[new.winner_id, new.brand_id], null) loop
      perform public.award_xp(who, 'DEAL_COMPLETE', new.id::text, jsonb_build_object('deal_id', new.id));
      perform public.award_xp(who, 'FIRST_DEAL', who::text, jsonb_build_object('deal_id', new.id));
    end loop;
  end if;
  return null;
end $$;

create trigger z_growth after update of status on public.deals
  for each row execute function pacta_private.deals_growth();

create or replace function pacta_private.reviews_growth() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  perform public.award_xp(new.reviewer_id, 'REVIEW', new.id::text, jsonb_build_object('deal_id', new.deal_id, 'review_id', new.id));
  return null;
end $$;

create trigger z_growth after insert on public.reviews
  for each row execute function pacta_private.reviews_growth();

-- ---------------------------------------------------------------------------------------------
-- Referrals: qualification, badges, the 10-referral Pro grant
-- ---------------------------------------------------------------------------------------------

-- The features of a Pro membership earned through referrals (000 §9).
create or replace function pacta_private.referral_pro_features() returns text[]
language sql immutable set search_path = '' as $$
  select array['pro_deals', 'priority_matching', 'priority_support', 'lower_commission']
$$;

-- public.grant_pro_features without the caller check, for the server's own rules (a trigger fired by
-- a brand accepting a creator runs with that brand's claims, which the public function refuses).
create or replace function pacta_private.grant_pro_features(target_user_id uuid, feature_names text[], duration interval)
returns void language plpgsql volatile security definer set search_path = '' as $$
begin
  insert into public.user_pro_features as u (user_id, feature_id, expires_at)
  select target_user_id, f.id, now() + duration from public.pro_features f where f.name = any (feature_names)
  on conflict (user_id, feature_id) do update
    set expires_at = case when u.expires_at is null then null else greatest(u.expires_at, excluded.expires_at) end;
end $$;

-- Same checks as before; the grant itself is the private helper above, so both paths grant alike.
create or replace function public.grant_pro_features(target_user_id uuid, feature_names text[], duration interval)
returns table (feature_name text, expires_at timestamptz)
language plpgsql volatile security definer set search_path = '' as $$
declare
  unknown text;
begin
  if coalesce(auth.role(), 'service_role') <> 'service_role' and not public.is_admin() then
    perform pacta_private.reject('forbidden', 'Only Pacta staff can grant Pro features.', 403);
  end if;
  if duration is null or duration <= interval '0' then
    perform pacta_private.reject('invalid_duration', 'The duration must be positive.', 422);
  end if;
  if not exists (select 1 from public.profiles p where p.id = target_user_id) then
    perform pacta_private.reject('user_not_found', 'User not found.', 404);
  end if;
  select n into unknown from unnest(feature_names) n where not exists (select 1 from public.pro_features f where f.name = n) limit 1;
  if unknown is not null or coalesce(cardinality(feature_names), 0) = 0 then
    perform pacta_private.reject('unknown_pro_feature', format('Unknown Pro feature: %s.', coalesce(unknown, '(none)')), 422);
  end if;
  perform pacta_private.grant_pro_features(target_user_id, feature_names, duration);
  return query
    select f.name, u.expires_at from public.user_pro_features u join public.pro_features f on f.id = u.feature_id
    where u.user_id = target_user_id and f.name = any (feature_names);
end $$;

-- The commission (basis points) the platform keeps from a creator's payout: 2.5% for Pro creators
-- (a paid tier, or the lower_commission feature a referral grant brings), 5% otherwise.
create or replace function public.creator_commission_bp(creator_id uuid) returns integer
language sql stable security definer set search_path = '' as $$
  select public.commission_bp(public.is_pro_user(creator_id) or exists (
      select 1 from public.user_pro_features u join public.pro_features f on f.id = u.feature_id
      where u.user_id = creator_id and f.name = 'lower_commission' and (u.expires_at is null or u.expires_at > now())))
$$;

-- Badges at 3 (bronze), 5 (silver), 10 (gold) and 10 (pro_booster) qualified referrals, each once;
-- pro_booster brings Pro for 1 year. A badge already held is never given (or granted) again.
create or replace function pacta_private.award_referral_badges(referrer uuid) returns void
language plpgsql volatile security definer set search_path = '' as $$
declare
  qualified_count integer;
  badge text;
begin
  select count(*) into qualified_count from public.referrals r where r.referrer_id = referrer and r.qualified and not r.deleted;
  for badge in
    insert into public.referral_badges (user_id, badge_type)
    select referrer, b.badge_type
    from (values ('bronze', 3), ('silver', 5), ('gold', 10), ('pro_booster', 10)) as b(badge_type, threshold)
    where qualified_count >= b.threshold
    on conflict (user_id, badge_type) do nothing
    returning badge_type
  loop
    insert into public.notifications (user_id, type, title, message, data)
    values (referrer, 'referral_badge', 'New referral badge',
            case badge when 'pro_booster' then 'Pro Booster: 10 qualified referrals earned you Pro for 1 year.'
                       else format('%s badge: %s qualified referrals.', initcap(badge),
                                   case badge when 'bronze' then 3 when 'silver' then 5 else 10 end) end,
            jsonb_build_object('badge_type', badge, 'link', '/referrals/leaderboard'));
    if badge = 'pro_booster' then
      perform pacta_private.grant_pro_features(referrer, pacta_private.referral_pro_features(), interval '1 year');
    end if;
  end loop;
end $$;

-- A referral becomes qualified when the referred user has a deal; the referrer earns XP and badges.
create or replace function pacta_private.qualify_referral(referred uuid) returns void
language plpgsql volatile security definer set search_path = '' as $$
declare
  r public.referrals;
begin
  update public.referrals set qualified = true, qualified_at = now()
  where referred_user_id = referred and not qualified and not deleted
  returning * into r;
  if r.id is null then return; end if;
  perform public.award_xp(r.referrer_id, 'REFERRAL_QUALIFIED', r.id::text, jsonb_build_object('referral_id', r.id));
  perform pacta_private.award_referral_badges(r.referrer_id);
end $$;

-- "Has a deal": as creator, an accepted application; as brand, a deal of theirs accepted a creator.
create or replace function pacta_private.applications_growth() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  if new.status = 'accepted' and old.status is distinct from 'accepted' then
    perform pacta_private.qualify_referral(new.creator_id);
    perform pacta_private.qualify_referral((select d.brand_id from public.deals d where d.id = new.deal_id));
  end if;
  return null;
end $$;

create trigger z_growth after update of status on public.applications
  for each row execute function pacta_private.applications_growth();

-- profiles.referrals_count: everyone the user referred (qualified or not).
create or replace function pacta_private.referrals_count() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  update public.profiles set referrals_count = referrals_count + 1 where id = new.referrer_id;
  return null;
end $$;

create trigger z_growth after insert on public.referrals
  for each row execute function pacta_private.referrals_count();

-- ---------------------------------------------------------------------------------------------
-- Referral rewards: $10 per referred Pro subscription, 5% of referred payouts for 3 months
-- ---------------------------------------------------------------------------------------------

alter table public.referral_rewards
  add column deal_id uuid references public.deals (id),
  add column payout_run_id uuid;
create unique index referral_rewards_pro_once on public.referral_rewards (referral_id) where reward_type = 'pro_subscription';
create unique index referral_rewards_payout_once on public.referral_rewards (referral_id, deal_id) where reward_type = 'deal_earnings_share';

-- Records a reward for the referrer (pending until the monthly payout run) and tells them.
create or replace function pacta_private.add_referral_reward(r public.referrals, reward_type text, amount_cents bigint, deal_id uuid)
returns uuid language plpgsql volatile security definer set search_path = '' as $$
declare
  reward_id uuid;
begin
  insert into public.referral_rewards (referrer_id, referral_id, reward_type, amount_cents, deal_id)
  values (r.referrer_id, r.id, reward_type, amount_cents, deal_id)
  on conflict do nothing
  returning id into reward_id;
  if reward_id is null then return null; end if;
  update public.referrals set earnings_cents = earnings_cents + amount_cents where id = r.id;
  insert into public.notifications (user_id, type, title, message, data)
  values (r.referrer_id, 'referral_reward', 'Referral reward',
          format('You earned $%s from a referral; it is paid in the next monthly payout.', to_char(amount_cents / 100.0, 'FM999999990.00')),
          jsonb_build_object('reward_id', reward_id, 'link', '/referrals/payouts'));
  return reward_id;
end $$;

-- $10 to the referrer when the referred user starts a paid Pro subscription; once per referred user,
-- whatever the subscription or how often the event is replayed. Returns the reward id, or null when
-- there is nothing (more) to pay. Called by the payments code (server only).
create or replace function public.referral_reward_for_pro_subscription(p_user uuid, p_subscription_ref text)
returns uuid language plpgsql volatile security definer set search_path = '' as $$
declare
  r public.referrals;
begin
  select * into r from public.referrals where referred_user_id = p_user and not deleted for no key update;
  if r.id is null then return null; end if;
  -- The subscription reference stays out of the reward: the referrer must not see another user's billing ids.
  return pacta_private.add_referral_reward(r, 'pro_subscription', 1000, null);
end $$;

-- 5% of a referred creator's released payout, for payouts within 3 months of their sign-up; once per
-- deal. Returns the reward id, or null when nothing is owed. Called by the payments code (server only).
create or replace function public.referral_reward_for_payout(p_deal uuid, p_creator uuid, p_payout_cents bigint)
returns uuid language plpgsql volatile security definer set search_path = '' as $$
declare
  r public.referrals;
  signed_up timestamptz;
  share bigint;
begin
  if p_payout_cents is null or p_payout_cents <= 0 then return null; end if;
  select * into r from public.referrals where referred_user_id = p_creator and not deleted for no key update;
  if r.id is null then return null; end if;
  select p.created_at into signed_up from public.profiles p where p.id = p_creator;
  if now() >= signed_up + interval '3 months' then return null; end if;
  -- 5%, rounded half up to the cent (as src/domain/fees.ts percentOfCents).
  share := public.percent_of_cents(p_payout_cents, 500);
  if share <= 0 then return null; end if;
  return pacta_private.add_referral_reward(r, 'deal_earnings_share', share, p_deal);
end $$;

-- ---------------------------------------------------------------------------------------------
-- Monthly payout run
-- ---------------------------------------------------------------------------------------------

-- One row per run. A monthly run has its period ('2026-11'), unique, so several server instances
-- never pay a month twice; a run an admin triggers has none.
create table public.referral_payout_runs (
  id uuid primary key default gen_random_uuid(),
  period text unique check (period ~ '^\d{4}-\d{2}$'),
  cutoff timestamptz not null,
  ran_by uuid references public.profiles (id),
  rewards_paid integer not null default 0,
  amount_cents bigint not null default 0,
  ran_at timestamptz not null default now()
);
alter table public.referral_payout_runs enable row level security;
revoke all on public.referral_payout_runs from anon, authenticated;
grant all on public.referral_payout_runs to service_role;

alter table public.referral_rewards
  add constraint referral_rewards_payout_run_fk foreign key (payout_run_id) references public.referral_payout_runs (id);

-- Marks every pending reward issued before `cutoff` paid (the money itself moves through the payments
-- code, which reads the run's rewards). Returns the run, or nothing when the period already ran.
create or replace function public.run_referral_payouts(cutoff timestamptz, period text default null, ran_by uuid default null)
returns setof public.referral_payout_runs language plpgsql volatile security definer set search_path = '' as $$
declare
  run public.referral_payout_runs;
begin
  insert into public.referral_payout_runs (period, cutoff, ran_by) values (period, cutoff, ran_by)
  on conflict do nothing returning * into run;
  if run.id is null then return; end if;
  with paid as (
    update public.referral_rewards w set status = 'paid', paid_at = now(), payout_run_id = run.id
    where w.status = 'pending' and w.issued_at < cutoff and not w.deleted
    returning w.referrer_id, w.amount_cents
  ), per_user as (
    select referrer_id, sum(amount_cents) as total, count(*) as n from paid group by referrer_id
  ), notes as (
    insert into public.notifications (user_id, type, title, message, data)
    select referrer_id, 'referral_payout', 'Referral payout',
           format('%s referral reward%s paid: $%s.', n, case when n = 1 then '' else 's' end, to_char(total / 100.0, 'FM999999990.00')),
           jsonb_build_object('payout_run_id', run.id, 'link', '/referrals/payouts')
    from per_user
  )
  update public.referral_payout_runs u
    set rewards_paid = (select coalesce(sum(n), 0) from per_user), amount_cents = (select coalesce(sum(total), 0) from per_user)
  where u.id = run.id returning * into run;
  return next run;
end $$;

-- The monthly job: on or after the 1st, pays the rewards issued before the month began, once per month.
create or replace function public.run_monthly_referral_payouts(run_at timestamptz default now())
returns setof public.referral_payout_runs language sql volatile security definer set search_path = '' as $$
  select * from public.run_referral_payouts(
    date_trunc('month', run_at at time zone 'UTC') at time zone 'UTC',
    to_char(run_at at time zone 'UTC', 'YYYY-MM'))
$$;

-- ---------------------------------------------------------------------------------------------
-- Leaderboard: top referrers by qualified referrals over a period, and one user's place
-- ---------------------------------------------------------------------------------------------

-- Everyone (creators and brands) ranked by qualified referrals since `since` (null = all time), then XP;
-- ties on both share a rank. Read by the server for /api/referral-leaderboard.
create or replace function public.referral_leaderboard(since timestamptz)
returns table (rank bigint, user_id uuid, username text, full_name text, referrals bigint, is_pro boolean, xp integer, level integer)
language sql stable security definer set search_path = '' as $$
  with counts as (
    select r.referrer_id, count(*) as n from public.referrals r
    where r.qualified and not r.deleted and (since is null or r.qualified_at >= since)
    group by r.referrer_id
  )
  select rank() over (order by coalesce(c.n, 0) desc, p.xp desc), p.id, p.username, p.full_name, coalesce(c.n, 0),
         public.is_pro_user(p.id), p.xp, p.level
  from public.profiles p left join counts c on c.referrer_id = p.id
  where p.role in ('creator', 'brand') and not p.deleted
$$;

-- ---------------------------------------------------------------------------------------------
-- The growth collection, re-created so its documents carry the new columns (xp_logs.subject,
-- referral_rewards.deal_id and payout_run_id). A referral Pro grant reaches the device through the
-- profile's granted_pro_features mirror (20261123000100_one_place_per_rule.sql).
-- ---------------------------------------------------------------------------------------------

create or replace view public.growth with (security_invoker = true) as
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

-- ---------------------------------------------------------------------------------------------
-- Who may call what
-- ---------------------------------------------------------------------------------------------

revoke execute on function
  public.award_xp(uuid, text, text, jsonb), public.award_xp(uuid, text, integer, jsonb),
  pacta_private.profiles_growth(), pacta_private.deals_growth(), pacta_private.reviews_growth(),
  pacta_private.referral_pro_features(), pacta_private.grant_pro_features(uuid, text[], interval),
  pacta_private.award_referral_badges(uuid), pacta_private.qualify_referral(uuid), pacta_private.applications_growth(),
  pacta_private.referrals_count(), pacta_private.add_referral_reward(public.referrals, text, bigint, uuid),
  public.referral_reward_for_pro_subscription(uuid, text), public.referral_reward_for_payout(uuid, uuid, bigint),
  public.run_referral_payouts(timestamptz, text, uuid), public.run_monthly_referral_payouts(timestamptz),
  public.referral_leaderboard(timestamptz)
from public, anon, authenticated;
grant execute on function
  public.award_xp(uuid, text, text, jsonb), public.award_xp(uuid, text, integer, jsonb),
  public.referral_reward_for_pro_subscription(uuid, text), public.referral_reward_for_payout(uuid, uuid, bigint),
  public.run_referral_payouts(timestamptz, text, uuid), public.run_monthly_referral_payouts(timestamptz),
  public.referral_leaderboard(timestamptz)
to service_role;
revoke execute on function public.profile_missing_items(text, text, text, text[], jsonb),
  public.creator_commission_bp(uuid) from public, anon;
grant execute on function public.profile_missing_items(text, text, text, text[], jsonb),
  public.creator_commission_bp(uuid) to authenticated, service_role;
