-- A live link confirmed automatically (the approval window closed) is news to the brand as well: the
-- creator hears "Live" from the rules; the brand hears that the window closed for it.
create or replace function pacta_private.deal_events_auto_notice() returns trigger
language plpgsql security definer set search_path = '' as $$
declare
  d public.deals;
begin
  if new.kind <> 'live_confirmed' or new.author_id is not null then return null; end if;
  select * into d from public.deals where id = new.deal_id;
  perform pacta_private.deal_work_notify(d.brand_id, 'live_confirmed', 'Live',
    format('The approval window closed: the live link for "%s" was confirmed automatically.', d.title),
    d.id, new.application_id);
  return null;
end $$;

create trigger z_auto_notice after insert on public.deal_events
  for each row execute function pacta_private.deal_events_auto_notice();
revoke execute on function pacta_private.deal_events_auto_notice() from public, anon;
