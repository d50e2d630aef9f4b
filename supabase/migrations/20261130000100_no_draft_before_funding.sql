-- No draft before the escrow is funded (docs/decisions/044-no-draft-before-funding.md). "The brand
-- funds the deal before the work starts": a creator's draft is the work, so it is refused until the
-- deal's escrow holds the money, and once the money went back to the brand. A funded deal stays open to
-- drafts while disputed (the dispute may be about the very draft) and after the payout is released.
-- Runs after b_rules, so who may submit a draft at all is answered first, and before c_draft_files.
create or replace function pacta_private.deal_event_funded_check() returns trigger
language plpgsql set search_path = '' as $$
declare
  d public.deals;
begin
  if new.kind <> 'draft' then
    return new;
  end if;
  d := pacta_private.deal_for_rules(new.deal_id);
  if d.escrow_status = 'none' then
    perform pacta_private.reject('not_funded',
      'The brand funds the deal before the work starts: submit the draft once it is funded.', 409);
  end if;
  if d.escrow_status = 'refunded' then
    perform pacta_private.reject('deal_refunded', 'This deal was refunded to the brand: no more work is submitted.', 409);
  end if;
  return new;
end $$;

revoke execute on function pacta_private.deal_event_funded_check() from public, anon;
grant execute on function pacta_private.deal_event_funded_check() to authenticated, service_role;

create trigger c_draft_escrow before insert on public.deal_events
  for each row execute function pacta_private.deal_event_funded_check();
