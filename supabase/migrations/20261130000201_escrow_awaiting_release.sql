-- One statement of the escrow that awaits its release, read by the money job, the job backlog and the
-- staff home.
--
-- Three places wrote their own conditions for a completed deal whose charged escrow is still held, and
-- they had drifted: the staff home ("Escrow awaiting release") left out deleted deals, which the money
-- job still releases; the job backlog (auto_release) took every release as due 14 days after completion,
-- while the money job releases a deal whose work was submitted when its payout hold ends. All three now
-- read pacta_private.escrow_awaiting_release(): the staff home lists its rows, the money job releases
-- and the backlog counts those whose release is due. Like the money job, it does not look at `deleted`:
-- the money is held either way.

create or replace function pacta_private.escrow_awaiting_release()
returns table(deal_id uuid, title text, completed_at timestamptz, held_cents bigint, release_due_at timestamptz)
language sql stable set search_path = '' as $$
  select d.id, d.title, d.completed_at, e.amount_cents::bigint,
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
revoke execute on function pacta_private.escrow_awaiting_release() from public, anon, authenticated;

create or replace function pacta_private.job_backlog()
 RETURNS TABLE(job text, due_items bigint, oldest_due_at timestamp with time zone)
 LANGUAGE sql
 STABLE
 SET search_path TO ''
AS $function$
  select 'auto_release', count(*), min(h.release_due_at)
    from pacta_private.escrow_awaiting_release() h
   where h.release_due_at <= now()
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
  select 'auto_confirm', count(*), min((x.value ->> 'confirm_due_at')::timestamptz)
    from public.applications a
    join public.deals d on d.id = a.deal_id
    cross join lateral jsonb_each(a.work) x
   where a.status = 'accepted' and not a.deleted and d.escrow_status <> 'disputed'
     and x.value ->> 'status' = 'live_submitted' and (x.value ->> 'confirm_due_at')::timestamptz <= now()
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
$function$;
revoke execute on function pacta_private.job_backlog() from public, anon, authenticated;
