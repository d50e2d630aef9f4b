-- The deal's work as a log (docs/decisions/030-the-deals-work-is-a-log.md): offers, counter-offers,
-- terms sheets and their acceptances, drafts, reviews of drafts, live links and confirmations are
-- rows of public.deal_events, appended by either party and never edited. The state derived from
-- them (the offer on the table, the agreed price, the terms in force, each deliverable's progress, the
-- payout clock) is kept by the server on the application, where both devices already read it.
-- The rules that check each event and derive that state are in the next migration.

-- ---------------------------------------------------------------------------------------------
-- applications: the creator's proposed price and the derived state (server-owned but the first)
-- ---------------------------------------------------------------------------------------------

alter table public.applications
  add column proposed_price_cents bigint check (proposed_price_cents >= 0),
  add column offer_price_cents bigint check (offer_price_cents >= 0),
  add column offer_due_date date,
  add column offer_by text check (offer_by in ('creator', 'brand')),
  add column offer_id uuid,
  add column agreed_price_cents bigint check (agreed_price_cents >= 0),
  add column agreed_due_date date,
  add column terms_version integer not null default 0 check (terms_version >= 0),
  add column terms_accepted_by text[] not null default '{}' check (terms_accepted_by <@ array['creator', 'brand']),
  add column terms_agreed_version integer not null default 0 check (terms_agreed_version >= 0),
  add column work jsonb not null default '{}'::jsonb check (jsonb_typeof(work) = 'object'),
  add column delivered_at timestamptz,
  add column payout_due_at timestamptz;

-- Applications made before prices: the creator proposed the deal's amount; an accepted one agreed to it.
update public.applications a
   set proposed_price_cents = d.amount_cents,
       offer_price_cents = case when a.status = 'pending' then d.amount_cents end,
       offer_by = case when a.status = 'pending' then 'creator' end,
       agreed_price_cents = case when a.status = 'accepted' then d.amount_cents end
  from public.deals d
 where d.id = a.deal_id;

-- ---------------------------------------------------------------------------------------------
-- deal_events
-- ---------------------------------------------------------------------------------------------

create table public.deal_events (
  id uuid primary key,
  application_id uuid not null references public.applications (id),
  deal_id uuid not null references public.deals (id),
  author_id uuid references public.profiles (id),
  kind text not null check (kind in ('offer', 'offer_accepted', 'terms', 'terms_accepted', 'draft',
    'changes_requested', 'approved', 'extra_rounds', 'live_link', 'live_confirmed')),
  price_cents bigint check (price_cents >= 0),
  due_date date,
  terms jsonb check (jsonb_typeof(terms) = 'object'),
  terms_version integer check (terms_version >= 1),
  deliverable_id text check (length(deliverable_id) <= 40),
  ref_id uuid,
  note text not null default '' check (length(note) <= 4000),
  links text[] not null default '{}' check (cardinality(links) <= 10),
  files text[] not null default '{}' check (cardinality(files) <= 10),
  rounds integer check (rounds between 1 and 10)
);
select public.make_replicated('public.deal_events');
create index deal_events_application_idx on public.deal_events (application_id, created_at);
create index deal_events_deal_idx on public.deal_events (deal_id);
-- One version number per application's sheet, whoever wrote it.
create unique index deal_events_terms_version_idx on public.deal_events (application_id, terms_version)
  where kind = 'terms';

-- ---------------------------------------------------------------------------------------------
-- Who reads and appends: the application's creator and the deal's brand (and staff, reading).
-- ---------------------------------------------------------------------------------------------

create or replace function pacta_private.my_application_ids() returns setof uuid
language sql stable security definer set search_path = '' as $$
  select a.id from public.applications a where a.creator_id = auth.uid()
$$;
revoke execute on function pacta_private.my_application_ids() from public;
grant execute on function pacta_private.my_application_ids() to authenticated, service_role;

alter table public.deal_events enable row level security;
revoke all on public.deal_events from anon, authenticated;
grant all on public.deal_events to service_role;
-- UPDATE is granted so that a device re-pushing a changed event meets the rule that refuses it
-- (a clear rejection), not a permission error.
grant select, insert, update on public.deal_events to authenticated;
create policy deal_events_read on public.deal_events for select to authenticated using (
  application_id in (select pacta_private.my_application_ids())
  or deal_id in (select pacta_private.my_deal_ids())
  or (select public.is_admin()));
create policy deal_events_insert on public.deal_events for insert to authenticated with check (
  application_id in (select pacta_private.my_application_ids())
  or deal_id in (select pacta_private.my_deal_ids()));
create policy deal_events_update on public.deal_events for update to authenticated
  using (application_id in (select pacta_private.my_application_ids()) or deal_id in (select pacta_private.my_deal_ids()))
  with check (application_id in (select pacta_private.my_application_ids()) or deal_id in (select pacta_private.my_deal_ids()));

-- Change notices reach the deal's brand and the application's creator.
create trigger z_sync_notify after insert or update on public.deal_events
  for each row execute function sync.notify_change('deal_events', 'deal_id>deals.brand_id', 'application_id>applications.creator_id');
