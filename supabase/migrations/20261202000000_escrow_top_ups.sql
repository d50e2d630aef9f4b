-- A funded deal takes another creator, funded by a top-up (docs/decisions/048-escrow-top-ups.md).
-- "A deal can select several creators, each at their own price, up to max_creators", and "accepting
-- an offer fixes that creator's price. Escrow funds that price": a creator accepted after the deal was
-- funded is funded by a charge of their own, a top-up of the escrow.
--
-- * public.deal_escrow_charges: every charge that funds the deal's escrow, the first one included,
--   with the creators whose agreed prices it funds and what of it went back or out. Money moves per
--   charge: a payout transfers from the charge that funded that creator, and no refund takes more
--   from a charge than it holds. A top-up's open checkout is its row before it is paid.
-- * public.applications.price_funded_at: when escrow took this creator's agreed price (null: not
--   yet). Both the brand and the creator replicate applications, so the device predicts the rule
--   "no draft before funding" per creator.

create table public.deal_escrow_charges (
  id uuid primary key default gen_random_uuid(),
  deal_id uuid not null references public.deal_escrows (deal_id),
  -- The accepted creators whose agreed prices this charge funds.
  creator_ids uuid[] not null,
  amount_cents bigint not null check (amount_cents > 0),
  service_fee_cents bigint not null check (service_fee_cents >= 0),
  checkout_session_id text unique,
  payment_intent_id text unique,
  charge_id text unique,
  funded_at timestamptz,
  -- A top-up's card refusal, shown to the brand while it stays unpaid.
  last_payment_error text,
  -- What went back to the brand from this charge (amount and fee), and the fee's part of it.
  refunded_cents bigint not null default 0 check (refunded_cents >= 0),
  fee_refunded_cents bigint not null default 0 check (fee_refunded_cents >= 0 and fee_refunded_cents <= service_fee_cents),
  -- The deal amount paid out of this charge (transfer plus commission).
  released_cents bigint not null default 0 check (released_cents >= 0),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  check (refunded_cents <= amount_cents + service_fee_cents),
  check (funded_at is null or charge_id is not null)
);
create index deal_escrow_charges_deal_idx on public.deal_escrow_charges (deal_id);

alter table public.deal_escrow_charges enable row level security;
revoke all on public.deal_escrow_charges from anon, authenticated;
grant all on public.deal_escrow_charges to service_role;

-- The escrows funded before top-ups existed: their one charge funded the creators accepted then.
insert into public.deal_escrow_charges (deal_id, creator_ids, amount_cents, service_fee_cents, checkout_session_id,
    payment_intent_id, charge_id, funded_at, refunded_cents, fee_refunded_cents, released_cents)
select e.deal_id, d.selected_creator_ids, e.amount_cents, e.service_fee_cents, e.checkout_session_id,
       e.payment_intent_id, e.charge_id, e.funded_at, least(e.refunded_cents, e.amount_cents + e.service_fee_cents),
       least(e.service_fee_cents, coalesce((select -sum(l.amount_cents) from public.ledger_entries l
                                              where l.deal_id = e.deal_id and l.kind = 'fee' and l.amount_cents < 0), 0)),
       e.transferred_cents + e.commission_cents
  from public.deal_escrows e join public.deals d on d.id = e.deal_id
 where e.funded_at is not null and e.charge_id is not null;

alter table public.applications add column price_funded_at timestamptz;

update public.applications a set price_funded_at = coalesce(e.funded_at, now())
  from public.deals d left join public.deal_escrows e on e.deal_id = d.id
 where d.id = a.deal_id and a.status = 'accepted' and d.escrow_status <> 'none';

-- Kept by the server: a device can neither claim nor drop it.
create or replace function pacta_private.applications_price_funded_check() returns trigger
language plpgsql set search_path = '' as $$
begin
  if tg_op = 'INSERT' then
    if not public.is_server() then new.price_funded_at := null; end if;
    return new;
  end if;
  if not public.is_server() then
    perform pacta_private.forbid_changes(to_jsonb(old), to_jsonb(new), array['price_funded_at']);
  end if;
  return new;
end $$;

revoke execute on function pacta_private.applications_price_funded_check() from public, anon;
grant execute on function pacta_private.applications_price_funded_check() to authenticated, service_role;

create trigger c_price_funded before insert or update on public.applications
  for each row execute function pacta_private.applications_price_funded_check();

-- The first funding funds every creator accepted then (no creator is accepted while its checkout is
-- open); a creator accepted later waits for a top-up, which the server marks when it is paid.
create or replace function pacta_private.deals_price_funded_effects() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  if old.escrow_status = 'none' and new.escrow_status <> 'none' then
    update public.applications set price_funded_at = now()
     where deal_id = new.id and status = 'accepted' and price_funded_at is null;
  end if;
  return null;
end $$;

revoke execute on function pacta_private.deals_price_funded_effects() from public, anon;

create trigger z_price_funded after update of escrow_status on public.deals
  for each row execute function pacta_private.deals_price_funded_effects();

-- A checkout that may still be paid: the escrow's first one, or a top-up's.
create or replace function pacta_private.deal_has_open_checkout(deal_id uuid) returns boolean
language sql stable security definer set search_path = '' as $$
  select exists (
    select 1 from public.deal_escrows e
    where e.deal_id = deal_has_open_checkout.deal_id and e.checkout_session_id is not null and e.funded_at is null)
  or exists (
    select 1 from public.deal_escrow_charges c
    where c.deal_id = deal_has_open_checkout.deal_id and c.checkout_session_id is not null and c.funded_at is null)
$$;

-- Another creator joins a funded deal (their price is funded by a top-up), while the money is held:
-- not once it was paid out, refunded or is disputed, and never while a checkout is open (the amount
-- being paid would no longer match the creators it funds). A completed deal already refuses
-- (deal_closed), and max_creators is its own rule.
create or replace function pacta_private.applications_funded_deal_check() returns trigger language plpgsql set search_path = '' as $$
declare
  d public.deals;
begin
  if new.status = 'accepted' and old.status is distinct from 'accepted' then
    d := pacta_private.deal_for_rules(new.deal_id);
    if d.escrow_status = 'released' then
      perform pacta_private.reject('already_released',
        'The payout of this deal was released: another creator cannot join it.', 409, 'status');
    end if;
    if d.escrow_status = 'refunded' then
      perform pacta_private.reject('deal_refunded',
        'This deal was refunded to the brand: another creator cannot join it.', 409, 'status');
    end if;
    if d.escrow_status = 'disputed' then
      perform pacta_private.reject('deal_disputed',
        'This deal is disputed: no creator joins it until Pacta staff resolve the dispute.', 409, 'status');
    end if;
    if pacta_private.deal_has_open_checkout(d.id) then
      perform pacta_private.reject('amount_frozen',
        'A checkout for this deal is open. Cancel it in the payment panel before accepting another creator.', 409, 'status');
    end if;
  end if;
  return new;
end $$;

-- "No draft before funding", per creator: a creator accepted after the deal was funded submits a
-- draft once the top-up for their price is paid.
create or replace function pacta_private.deal_event_funded_check() returns trigger
language plpgsql set search_path = '' as $$
declare
  d public.deals;
begin
  if new.kind <> 'draft' then
    return new;
  end if;
  d := pacta_private.deal_for_rules(new.deal_id);
  if d.escrow_status = 'refunded' then
    perform pacta_private.reject('deal_refunded', 'This deal was refunded to the brand: no more work is submitted.', 409);
  end if;
  if d.escrow_status = 'none' or exists (
      select 1 from public.applications a where a.id = new.application_id and a.price_funded_at is null) then
    perform pacta_private.reject('not_funded',
      'The brand funds the deal before the work starts: submit the draft once it is funded.', 409);
  end if;
  return new;
end $$;

-- What a completed deal holds for release: every charge's amount.
create or replace function pacta_private.escrow_awaiting_release()
returns table (deal_id uuid, title text, completed_at timestamptz, held_cents bigint, release_due_at timestamptz)
language sql stable set search_path = '' as $$
  select d.id, d.title, d.completed_at,
         e.amount_cents::bigint + coalesce((select sum(c.amount_cents) from public.deal_escrow_charges c
                                             where c.deal_id = d.id and c.funded_at is not null
                                               and c.charge_id is distinct from e.charge_id), 0)::bigint,
         case when exists (select 1 from public.deal_events v where v.deal_id = d.id and v.kind = 'draft')
              -- Work was submitted: released when the last accepted creator's payout hold ends; not
              -- known while one of them has no hold yet (work not approved).
              then (select case when bool_and(a.payout_due_at is not null) is not false
                                then coalesce(max(a.payout_due_at), d.completed_at) end
                      from public.applications a where a.deal_id = d.id and a.status = 'accepted')
              -- "A completed deal not released or disputed within 14 days is released automatically."
              else d.completed_at + interval '14 days' end
    from public.deals d join public.deal_escrows e on e.deal_id = d.id
   where d.status = 'completed' and d.escrow_status = 'pending' and e.charge_id is not null
$$;
