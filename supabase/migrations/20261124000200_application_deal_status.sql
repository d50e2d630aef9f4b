-- A creator's My Deals lists its applications a page at a time and counts them by the status of the
-- deal applied to (open, in progress, completed, cancelled). The device answers both from one index
-- of the applications only if each application carries its deal's status: a join cannot be indexed
-- in the local database. So `applications.deal_status` is a copy of `deals.status` that the server
-- keeps: set from the deal when the application is written, rewritten on every application of a deal
-- whose status changes (which also re-stamps them, so every device pulls the new value), and never
-- taken from a client (server-owned, like deals.applications_count).

alter table public.applications
  add column deal_status text not null default 'open'
    check (deal_status in ('open', 'in_progress', 'completed', 'cancelled'));

-- SECURITY INVOKER like the other checks, so `is_server()` judges the writer.
create or replace function pacta_private.applications_deal_status() returns trigger language plpgsql set search_path = '' as $$
declare
  d public.deals;
begin
  if tg_op = 'INSERT' then
    -- Whatever the client sent: the deal's own status (b_rules has already found and locked the deal).
    d := pacta_private.deal_for_rules(new.deal_id);
    new.deal_status := coalesce(d.status, 'open');
    return new;
  end if;
  if not public.is_server() then
    perform pacta_private.forbid_changes(to_jsonb(old), to_jsonb(new), array['deal_status']);
  end if;
  return new;
end $$;

-- After b_rules (triggers fire in name order), so a refused application never reaches it.
create trigger c_deal_status before insert or update on public.applications
  for each row execute function pacta_private.applications_deal_status();

-- SECURITY DEFINER: the copies are rewritten as the server, whoever changed the deal (a brand
-- completing it, the acceptance of a first creator moving it to in progress).
create or replace function pacta_private.deal_status_to_applications() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  if new.status is distinct from old.status then
    update public.applications set deal_status = new.status where deal_id = new.id and deal_status <> new.status;
  end if;
  return null;
end $$;

create trigger y_applications_deal_status after update of status on public.deals
  for each row execute function pacta_private.deal_status_to_applications();

revoke execute on function pacta_private.applications_deal_status(), pacta_private.deal_status_to_applications() from public, anon;

-- Existing applications: the column starts 'open'; those of deals in another status get it now, as
-- the server (the stamping trigger gives them a new version, so devices pull the value).
update public.applications a set deal_status = d.status
  from public.deals d
 where d.id = a.deal_id and a.deal_status <> d.status;
