-- The automatic confirmation of live links is a job of its own
-- (docs/decisions/037-terms-changes-and-their-own-job.md): its backlog is reported like the other jobs'
-- (pacta_job_lag_seconds{job="auto_confirm"}): the live links whose approval window closed and that
-- are still waiting, except on a disputed deal, where "a dispute stops the clock".
create or replace function pacta_private.job_backlog()
 RETURNS TABLE(job text, due_items bigint, oldest_due_at timestamp with time zone)
 LANGUAGE sql
 STABLE
 SET search_path TO ''
AS $function$
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
