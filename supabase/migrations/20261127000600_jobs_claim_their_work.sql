-- Jobs that run once across server instances.
--
-- Several `npm run serve` instances share one Postgres, later through a transaction pooler (PgBouncer in
-- transaction mode): nothing here depends on a session (no session advisory locks, no session SET).
-- A scheduled job claims each due item in a short transaction of its own, does it, and marks it done.
-- A claim carries a lease: if its instance dies, the item becomes claimable again when the lease runs
-- out. Work whose side effect leaves Postgres (a Stripe transfer or refund, a Web Push request) is
-- guarded a second time: Stripe by its idempotency key per deal, a push by a send mark that exactly one
-- instance can set (see push_outbox below). Decision: docs/decisions/026-jobs-claim-their-work.md.

-- ---------------------------------------------------------------------------------------------
-- Money jobs: the automatic release of completed deals and the refund of cancelled funded deals.
-- One row per (job, deal): claimed with a lease, then done. A done row stays (a week), so an instance
-- that listed the deal as due before another finished it cannot claim it again.
-- ---------------------------------------------------------------------------------------------

create table pacta_private.job_claims (
  job text not null check (job in ('auto_release', 'cancelled_refund')),
  item_id uuid not null,
  -- The claiming server instance (host, process, a random tag), for the operator reading the table.
  claimed_by text not null check (length(claimed_by) <= 200),
  lease_until timestamptz not null,
  attempts integer not null default 1 check (attempts > 0),
  done_at timestamptz,
  primary key (job, item_id)
);
create index job_claims_done_idx on pacta_private.job_claims (done_at) where done_at is not null;
revoke all on pacta_private.job_claims from public, anon, authenticated;

-- ---------------------------------------------------------------------------------------------
-- The push outbox: a queued notification is claimed (claimed_by, lease_until), then marked as being
-- sent (sending_since) right before its push requests go out, then deleted once they are answered.
-- Only a claim that has not started sending is taken over after its lease; a row marked as being sent
-- is never sent again, since nobody knows whether the push service got it (at most once).
-- ---------------------------------------------------------------------------------------------

alter table pacta_private.push_outbox
  add column claimed_by text check (length(claimed_by) <= 200),
  add column lease_until timestamptz,
  add column sending_since timestamptz;
create index push_outbox_waiting_idx on pacta_private.push_outbox (id) where sending_since is null;

-- ---------------------------------------------------------------------------------------------
-- Review publishing: each instance touches the due reviews no other instance is touching right now
-- (SKIP LOCKED), so instances never wait on each other; a review touched by one is no longer due
-- (its updated_at passed its published_at), so it is touched once.
-- ---------------------------------------------------------------------------------------------

create or replace function public.publish_due_reviews() returns integer
language plpgsql set search_path = '' as $$
declare
  n integer;
begin
  update public.reviews r set published_at = r.published_at
   where r.id in (select d.id from public.reviews d
                   where d.published_at <= now() and d.updated_at < d.published_at and not d.deleted
                   for update skip locked);
  get diagnostics n = row_count;
  return n;
end $$;
revoke execute on function public.publish_due_reviews() from public, anon, authenticated;

-- ---------------------------------------------------------------------------------------------
-- What an operator watches: per job, how many items are due and since when (the metrics endpoint
-- reports the age of the oldest as the job's lag). The money jobs' conditions are the ones
-- sync-server/payments/escrow.ts lists due deals with (dueForAutoRelease, dueForRefund).
-- ---------------------------------------------------------------------------------------------

create or replace function pacta_private.job_backlog()
returns table (job text, due_items bigint, oldest_due_at timestamptz)
language sql stable set search_path = '' as $$
  select 'auto_release', count(*), min(d.completed_at + interval '14 days')
    from public.deals d join public.deal_escrows e on e.deal_id = d.id
   where d.status = 'completed' and d.escrow_status = 'pending' and e.charge_id is not null
     and d.completed_at <= now() - interval '14 days'
  union all
  -- A cancelled deal's cancellation is its last change.
  select 'cancelled_refund', count(*), min(d.updated_at)
    from public.deals d join public.deal_escrows e on e.deal_id = d.id
   where d.status = 'cancelled' and d.escrow_status = 'pending' and e.charge_id is not null
  union all
  select 'review_publish', count(*), min(r.published_at)
    from public.reviews r
   where r.published_at <= now() and r.updated_at < r.published_at and not r.deleted
  union all
  select 'push', count(*), min(o.queued_at)
    from pacta_private.push_outbox o where o.sending_since is null
  union all
  -- "On or after the 1st, pays the rewards issued before the month began, once per month."
  select 'referral_payout', count(*),
         case when count(*) > 0 then date_trunc('month', now() at time zone 'UTC') at time zone 'UTC' end
    from public.referral_rewards w
   where w.status = 'pending' and not w.deleted
     and w.issued_at < date_trunc('month', now() at time zone 'UTC') at time zone 'UTC'
     and not exists (select 1 from public.referral_payout_runs p
                      where p.period = to_char(now() at time zone 'UTC', 'YYYY-MM'))
$$;
revoke execute on function pacta_private.job_backlog() from public, anon, authenticated;
