-- A referral qualifies only on a real deal (decision 022): "funded and released, of at least
-- REFERRAL_MIN_DEAL_CENTS (src/domain/fees.ts ↔ public.referral_min_deal_cents), between people who
-- are not the referrer's own accounts". Accepting an application no longer qualifies anyone: ten
-- throwaway sign-ups accepting each other on $1 deals cost nothing, a released funded deal costs its
-- service fee and commission.
--
-- Own accounts: the referred user's counterparty on the deal (the brand for the creator, the paid
-- creator for the brand) must not be the referrer, nor anyone the referrer referred, nor whoever
-- referred the referrer. What this does not catch is written down in decision 022.

create or replace function public.referral_min_deal_cents() returns integer
language sql immutable parallel safe set search_path = '' as $$ select 25000 $$;

revoke execute on function public.referral_min_deal_cents() from public, anon;
grant execute on function public.referral_min_deal_cents() to authenticated, service_role;

drop trigger z_growth on public.applications;
drop function pacta_private.applications_growth();

-- Whether `a` and `b` are the same referrer's accounts: one referred the other, or both came through
-- the same referrer's code.
create or replace function pacta_private.referral_related(referrer uuid, counterparty uuid) returns boolean
language sql stable security definer set search_path = '' as $$
  select counterparty = referrer
      or exists (select 1 from public.referrals r where r.referrer_id = referrer and r.referred_user_id = counterparty)
      or exists (select 1 from public.referrals r where r.referrer_id = counterparty and r.referred_user_id = referrer)
$$;

-- Qualifies `referred`'s referral for a released deal with `counterparty`, unless they are related.
create or replace function pacta_private.qualify_referral_on_deal(referred uuid, counterparty uuid) returns void
language plpgsql volatile security definer set search_path = '' as $$
declare
  r public.referrals;
begin
  select * into r from public.referrals where referred_user_id = referred and not qualified and not deleted;
  if r.id is null or counterparty is null or pacta_private.referral_related(r.referrer_id, counterparty) then
    return;
  end if;
  perform pacta_private.qualify_referral(referred);
end $$;

-- The payout of a funded deal was released (by the brand, the automatic release or staff deciding a
-- dispute): both sides' referrals may qualify if the funded amount reaches the minimum.
create or replace function pacta_private.deals_referral_qualification() returns trigger
language plpgsql security definer set search_path = '' as $$
declare
  creator uuid := coalesce(new.winner_id, new.selected_creator_ids[1]);
  funded bigint;
begin
  if new.escrow_status = 'released' and old.escrow_status is distinct from 'released' then
    select e.amount_cents into funded from public.deal_escrows e where e.deal_id = new.id and e.funded_at is not null;
    if coalesce(funded, 0) < public.referral_min_deal_cents() or creator is null then
      return null;
    end if;
    perform pacta_private.qualify_referral_on_deal(creator, new.brand_id);
    perform pacta_private.qualify_referral_on_deal(new.brand_id, creator);
  end if;
  return null;
end $$;

create trigger z_referral_qualification after update of escrow_status on public.deals
  for each row execute function pacta_private.deals_referral_qualification();

revoke execute on function pacta_private.referral_related(uuid, uuid), pacta_private.qualify_referral_on_deal(uuid, uuid),
  pacta_private.deals_referral_qualification() from public, anon;
