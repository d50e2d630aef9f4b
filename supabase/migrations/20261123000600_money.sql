-- Money: Pro subscriptions and deal escrow on Stripe (DESIGN.md "Money").
--
-- * Billing state lives in billing_accounts and the tables below, all server-only: RLS is on and
--   clients get no grant, so none of it replicates (DESIGN.md: "Billing fields never replicate").
--   The one money field clients see is deals.escrow_status, set by the server only.
-- * Money is integer cents. Every movement is a ledger row; per deal
--     charge − refund − fee − commission − transfer = what escrow still holds (0 once settled).
-- * Stripe webhooks are stored by event id, so each event is applied once.

alter table public.billing_accounts
  add column subscription_status text,
  add column subscription_interval text check (subscription_interval in ('monthly', 'yearly')),
  add column subscription_tier text check (subscription_tier in ('basic', 'premium')),
  add column current_period_end timestamptz,
  add column cancel_at_period_end boolean not null default false,
  add column payouts_enabled boolean not null default false,
  add column payout_details_submitted boolean not null default false;

-- "Disputes: either side can open a dispute on a funded deal … escrow goes to disputed".
alter table public.deals drop constraint deals_escrow_status_check;
alter table public.deals add constraint deals_escrow_status_check
  check (escrow_status in ('none', 'pending', 'released', 'refunded', 'disputed'));

-- Webhook events already applied (Stripe delivers at least once, in any order).
create table public.stripe_events (
  id text primary key,
  type text not null,
  object_id text,
  received_at timestamptz not null default now()
);

-- One escrow per deal: what was charged, held, released and refunded, and any dispute.
create table public.deal_escrows (
  deal_id uuid primary key references public.deals (id),
  brand_id uuid not null references public.profiles (id),
  amount_cents bigint not null check (amount_cents > 0),
  service_fee_cents bigint not null check (service_fee_cents >= 0),
  checkout_session_id text unique,
  payment_intent_id text unique,
  charge_id text unique,
  funded_at timestamptz,
  -- The card's refusal, shown to the brand while the deal stays unfunded ('Your card was declined.').
  last_payment_error text,
  creator_id uuid references public.profiles (id),
  transfer_id text unique,
  released_at timestamptz,
  transferred_cents bigint not null default 0 check (transferred_cents >= 0),
  commission_cents bigint not null default 0 check (commission_cents >= 0),
  refunded_cents bigint not null default 0 check (refunded_cents >= 0),
  refunded_at timestamptz,
  disputed_at timestamptz,
  dispute_reason text,
  dispute_opened_by uuid references public.profiles (id),
  dispute_ticket_id uuid,
  stripe_dispute_id text unique,
  resolved_at timestamptz,
  updated_at timestamptz not null default now()
);

create table public.ledger_entries (
  id bigint generated always as identity primary key,
  deal_id uuid references public.deals (id),
  user_id uuid references public.profiles (id),
  kind text not null check (kind in ('charge', 'fee', 'commission', 'transfer', 'refund', 'subscription')),
  -- Signed: a reversed fee (full refund) is a negative fee row.
  amount_cents bigint not null,
  -- The Stripe object behind the row; (kind, ref) is unique, so recording a movement twice (the API
  -- answer and its webhook) writes one row.
  stripe_ref text,
  memo text not null default '',
  created_at timestamptz not null default now(),
  unique (kind, stripe_ref)
);
create index ledger_entries_deal_idx on public.ledger_entries (deal_id);

alter table public.stripe_events enable row level security;
alter table public.deal_escrows enable row level security;
alter table public.ledger_entries enable row level security;
revoke all on public.stripe_events, public.deal_escrows, public.ledger_entries from anon, authenticated;
grant all on public.stripe_events, public.deal_escrows, public.ledger_entries to service_role;

-- "A funded deal cancelled before completion is refunded in full": the refund is a Stripe call, so
-- the trigger only wakes the server's money jobs, which also find such deals on their own schedule.
create or replace function pacta_private.deals_money_effects() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  if new.status = 'cancelled' and old.status <> 'cancelled' and new.escrow_status = 'pending' then
    perform pg_notify('pacta_money', json_build_object('deal_id', new.id, 'reason', 'cancelled')::text);
  end if;
  return null;
end $$;

create trigger z_money_effects after update of status on public.deals
  for each row execute function pacta_private.deals_money_effects();

revoke execute on function pacta_private.deals_money_effects() from public, anon;

-- What the brand was charged is what escrow holds: the amount cannot move under a funded deal.
create or replace function pacta_private.deals_money_check() returns trigger language plpgsql set search_path = '' as $$
begin
  if not public.is_server() and new.amount_cents is distinct from old.amount_cents and old.escrow_status <> 'none' then
    perform pacta_private.reject('deal_funded', 'The amount cannot change once the deal is funded.', 409, 'amount_cents');
  end if;
  return new;
end $$;

create trigger c_money_rules before update on public.deals
  for each row execute function pacta_private.deals_money_check();
