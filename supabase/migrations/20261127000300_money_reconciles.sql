-- Money reconciles, always (decision 022):
-- * "Once a checkout exists the amount is frozen": the deal's amount cannot change while the
--   escrow's checkout is open (the brand cancels the checkout first; Stripe expires it);
-- * "A funded deal in progress is refunded only with the creator's consent or a dispute decided by
--   staff": the brand cannot cancel it, nor drop its accepted creator; the creator agrees to a
--   cancellation the brand asked for (recorded on the escrow), then the server cancels and refunds;
-- * "Disputes are opened only by the deal's parties": a dispute ticket names a deal of its asker as
--   brand or accepted creator (an applicant is not a party).

alter table public.deal_escrows
  -- The brand asked to cancel this funded deal in progress; the refund waits for every accepted
  -- creator in cancel_consented_by.
  add column cancel_requested_at timestamptz,
  add column cancel_consented_by uuid[] not null default '{}';

-- Whether the deal's escrow has a checkout that may still be paid (past RLS: escrows have no grant).
create or replace function pacta_private.deal_has_open_checkout(deal_id uuid) returns boolean
language sql stable security definer set search_path = '' as $$
  select exists (
    select 1 from public.deal_escrows e
    where e.deal_id = deal_has_open_checkout.deal_id and e.checkout_session_id is not null and e.funded_at is null)
$$;

create or replace function pacta_private.deals_money_check() returns trigger language plpgsql set search_path = '' as $$
begin
  if public.is_server() then return new; end if;
  -- What the brand was charged is what escrow holds: the amount cannot move under a funded deal,
  -- nor under a checkout that may still be paid at the old amount.
  if new.amount_cents is distinct from old.amount_cents then
    if old.escrow_status <> 'none' then
      perform pacta_private.reject('deal_funded', 'The amount cannot change once the deal is funded.', 409, 'amount_cents');
    end if;
    if pacta_private.deal_has_open_checkout(old.id) then
      perform pacta_private.reject('amount_frozen',
        'The amount is frozen while a checkout for this deal is open. Cancel the checkout in the payment panel to change it.',
        409, 'amount_cents');
    end if;
  end if;
  if new.status = 'cancelled' and old.status is distinct from 'cancelled' then
    if old.escrow_status = 'disputed' then
      perform pacta_private.reject('deal_disputed', 'This deal is disputed: Pacta staff will decide what happens to the payment.', 409, 'status');
    end if;
    if old.escrow_status = 'pending' and old.status = 'in_progress' then
      perform pacta_private.reject('cancel_needs_consent',
        'This deal is funded and a creator is working on it: ask the creator to agree to cancel in the payment panel, or open a dispute.',
        409, 'status');
    end if;
  end if;
  return new;
end $$;

-- The same rule from the other side: the brand cannot drop the accepted creator of a funded deal (the
-- deal would fall back to open and be cancelled with an automatic refund). The creator may leave.
create or replace function pacta_private.applications_money_check() returns trigger language plpgsql set search_path = '' as $$
declare
  d public.deals;
begin
  if public.is_server() then return new; end if;
  if old.status = 'accepted' and new.status is distinct from 'accepted' and auth.uid() is distinct from old.creator_id then
    d := pacta_private.deal_for_rules(old.deal_id);
    if d.escrow_status in ('pending', 'disputed') then
      perform pacta_private.reject('creator_on_funded_deal',
        'This creator is on a funded deal: ask them to agree to cancel in the payment panel, or open a dispute.',
        409, 'status');
    end if;
  end if;
  return new;
end $$;

create trigger c_money_rules before update of status on public.applications
  for each row execute function pacta_private.applications_money_check();

-- The brand or an accepted creator of the deal (past RLS).
create or replace function pacta_private.is_deal_counterparty(deal_id uuid, user_id uuid) returns boolean
language sql stable security definer set search_path = '' as $$
  select exists (select 1 from public.deals d
                 where d.id = deal_id and (d.brand_id = user_id or user_id = any (d.selected_creator_ids)))
$$;

create or replace function pacta_private.support_dispute_check() returns trigger language plpgsql set search_path = '' as $$
begin
  if new.kind = 'dispute' and not public.is_server() and not public.is_admin()
     and not pacta_private.is_deal_counterparty(new.deal_id, new.user_id) then
    perform pacta_private.reject('not_a_participant',
      'Only the brand and the accepted creator of a deal can dispute it.', 403, 'deal_id');
  end if;
  return new;
end $$;

create trigger c_dispute_parties before insert on public.support_tickets
  for each row execute function pacta_private.support_dispute_check();

revoke execute on function pacta_private.deal_has_open_checkout(uuid), pacta_private.is_deal_counterparty(uuid, uuid)
  from public, anon;
grant execute on function pacta_private.deal_has_open_checkout(uuid), pacta_private.is_deal_counterparty(uuid, uuid)
  to authenticated, service_role;
