-- One place per rule. What both the database and src/domain need exists once on each side, and
-- tests/domain-constants.pg.test.ts fails when the two disagree:
-- * "is this user Pro now" (src/domain/pro.ts ↔ public.is_pro_user), with the user's granted Pro
--   features mirrored onto the profile so the client can answer it offline;
-- * the XP awards (src/domain/xp.ts XP_AWARDS ↔ public.xp_award), the level thresholds
--   (LEVEL_THRESHOLDS ↔ public.level_for_xp), the fees and Pro prices (src/domain/fees.ts ↔
--   public.service_fee_bp, public.commission_bp, public.percent_of_cents, public.pro_price_cents,
--   public.pro_trial_days), the niche limits and the minimum deal amount (check constraints).
-- Server code that needs one of these numbers calls the function rather than writing the number.

-- ---------------------------------------------------------------------------------------------
-- Granted Pro features, mirrored onto the profile
-- ---------------------------------------------------------------------------------------------

-- { feature name: end instant, or null for a grant without end }. Server-owned; kept by the trigger
-- below from public.user_pro_features, which stays the source of truth (public.is_pro_user reads it).
alter table public.profiles add column granted_pro_features jsonb not null default '{}'::jsonb;

create or replace function pacta_private.granted_pro_features_of(target uuid) returns jsonb
language sql stable security definer set search_path = '' as $$
  select coalesce(jsonb_object_agg(f.name, u.expires_at order by f.name), '{}'::jsonb)
  from public.user_pro_features u join public.pro_features f on f.id = u.feature_id
  where u.user_id = target
$$;

create or replace function pacta_private.mirror_granted_pro_features() returns trigger
language plpgsql security definer set search_path = '' as $$
declare
  target uuid;
begin
  foreach target in array array[old.user_id, new.user_id] loop
    if target is not null then
      update public.profiles p set granted_pro_features = pacta_private.granted_pro_features_of(target)
      where p.id = target and p.granted_pro_features is distinct from pacta_private.granted_pro_features_of(target);
    end if;
  end loop;
  return null;
end $$;

create trigger y_mirror_granted_pro_features after insert or update or delete on public.user_pro_features
  for each row execute function pacta_private.mirror_granted_pro_features();

-- Only the database writes the mirror: "Pro features are granted by Pacta staff, referral rewards or a
-- subscription, never by the member".
create or replace function pacta_private.profiles_granted_pro_features_check() returns trigger
language plpgsql set search_path = '' as $$
begin
  if new.granted_pro_features is distinct from old.granted_pro_features and not public.is_server() then
    perform pacta_private.reject('server_owned_field', 'Pro features are granted by Pacta only.', 403, 'granted_pro_features');
  end if;
  return new;
end $$;

create trigger b_rules_granted_pro_features before update on public.profiles
  for each row execute function pacta_private.profiles_granted_pro_features_check();

update public.profiles p set granted_pro_features = pacta_private.granted_pro_features_of(p.id)
where exists (select 1 from public.user_pro_features u where u.user_id = p.id);

-- The same rule as src/domain/pro.ts isProNow: a paid tier in date, or an unexpired grant of Pro
-- access ('pro_deals'); no end date means open-ended, and the end instant itself is no longer Pro.
create or replace function public.is_pro_user(user_id uuid) returns boolean
language sql stable security definer set search_path = '' as $$
  select exists (
      select 1 from public.profiles p
      where p.id = user_id and p.pro_tier <> 'free' and (p.pro_until is null or p.pro_until > now()))
    or exists (
      select 1 from public.user_pro_features u join public.pro_features f on f.id = u.feature_id
      where u.user_id = is_pro_user.user_id and f.name = 'pro_deals' and (u.expires_at is null or u.expires_at > now()))
$$;

-- ---------------------------------------------------------------------------------------------
-- XP awards (DESIGN.md "XP awards", the first table)
-- ---------------------------------------------------------------------------------------------

-- The XP an action earns; null for an action that earns none. Actions are named as in xp_logs.action.
create or replace function public.xp_award(action text) returns integer
language sql immutable parallel safe set search_path = '' as $$
  select case upper(action)
    when 'PROFILE_COMPLETE' then 50
    when 'DEAL_APPLY' then 25
    when 'DEAL_COMPLETE' then 100
    when 'REFERRAL_QUALIFIED' then 75
    when 'REVIEW' then 30
    when 'PRO_UPGRADE' then 500
    when 'FIRST_DEAL' then 300
  end
$$;

-- ---------------------------------------------------------------------------------------------
-- Fees and Pro prices (DESIGN.md "fees": "Brand pays the deal amount plus a 12% service fee; the
-- platform keeps a commission from the creator's payout: 5%, or 2.5% for Pro creators. Money is
-- integer cents."; the spec's "$35/month or $315/year" with a 7-day trial)
-- ---------------------------------------------------------------------------------------------

create or replace function public.service_fee_bp() returns integer
language sql immutable parallel safe set search_path = '' as $$ select 1200 $$;

create or replace function public.commission_bp(creator_is_pro boolean) returns integer
language sql immutable parallel safe set search_path = '' as $$
  select case when creator_is_pro then 250 else 500 end
$$;

-- A rate in basis points of an amount in cents, rounded half up to the cent (integer arithmetic).
create or replace function public.percent_of_cents(amount_cents bigint, bp integer) returns bigint
language sql immutable parallel safe set search_path = '' as $$
  select floor((amount_cents::numeric * bp * 2 + 10000) / 20000)::bigint
$$;

create or replace function public.pro_price_cents(billing_interval text) returns bigint
language sql immutable parallel safe set search_path = '' as $$
  select case billing_interval when 'month' then 3500 when 'year' then 31500 end::bigint
$$;

create or replace function public.pro_trial_days() returns integer
language sql immutable parallel safe set search_path = '' as $$ select 7 $$;

revoke execute on function public.xp_award(text), public.service_fee_bp(), public.commission_bp(boolean),
  public.percent_of_cents(bigint, integer), public.pro_price_cents(text), public.pro_trial_days() from public, anon;
grant execute on function public.xp_award(text), public.service_fee_bp(), public.commission_bp(boolean),
  public.percent_of_cents(bigint, integer), public.pro_price_cents(text), public.pro_trial_days() to authenticated, service_role;
revoke execute on function pacta_private.granted_pro_features_of(uuid) from public, anon, authenticated;
