-- Money around the deal's work (docs/decisions/030-the-deals-work-is-a-log.md):
-- * "A dispute names the deliverable and the submission in question": kept on the escrow.
-- * Escrow funds the accepted creators' agreed prices, so once a deal is funded (or a checkout for it
--   is open) no further creator is accepted: the money held would no longer match.

alter table public.deal_escrows
  add column dispute_deliverable_id text,
  add column dispute_submission_id uuid references public.deal_events (id);

create or replace function pacta_private.applications_funded_deal_check() returns trigger language plpgsql set search_path = '' as $$
declare
  d public.deals;
begin
  if new.status = 'accepted' and old.status is distinct from 'accepted' then
    d := pacta_private.deal_for_rules(new.deal_id);
    if d.escrow_status <> 'none' then
      perform pacta_private.reject('deal_funded',
        'This deal is funded for the creators already accepted: another creator cannot join it.', 409, 'status');
    end if;
    if pacta_private.deal_has_open_checkout(d.id) then
      perform pacta_private.reject('amount_frozen',
        'A checkout for this deal is open. Cancel it in the payment panel before accepting another creator.', 409, 'status');
    end if;
  end if;
  return new;
end $$;

create trigger c_funded_deal before update of status on public.applications
  for each row execute function pacta_private.applications_funded_deal_check();
