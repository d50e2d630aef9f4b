-- A terms proposal is an e-mail too (docs/decisions/030-the-deals-work-is-a-log.md, "an e-mail for what
-- waits on someone"): a new version of the terms sheet waits on the other side's 'Accept terms' as an
-- offer waits on its answer. Its notification ('terms_changed', sent to the other side only: the
-- proposer's version counts as their acceptance) queues one e-mail of the kind 'terms_proposed',
-- unless its user opted out of that kind (the kinds of src/domain/deal-emails.ts).

alter table pacta_private.email_opt_outs drop constraint email_opt_outs_kind_check;
alter table pacta_private.email_opt_outs add constraint email_opt_outs_kind_check
  check (kind in ('offer', 'terms_proposed', 'draft_to_review', 'changes_requested', 'payout_released'));
alter table pacta_private.deal_emails drop constraint deal_emails_kind_check;
alter table pacta_private.deal_emails add constraint deal_emails_kind_check
  check (kind in ('offer', 'terms_proposed', 'draft_to_review', 'changes_requested', 'payout_released'));

create or replace function pacta_private.notifications_email() returns trigger
language plpgsql security definer set search_path = '' as $$
declare
  email_kind text := case new.type
    when 'offer_received' then 'offer'
    when 'terms_changed' then 'terms_proposed'
    when 'draft_submitted' then 'draft_to_review'
    when 'changes_requested' then 'changes_requested'
    when 'payout_released' then 'payout_released' end;
begin
  if email_kind is null or exists (select 1 from pacta_private.email_opt_outs o where o.user_id = new.user_id and o.kind = email_kind) then
    return null;
  end if;
  insert into pacta_private.deal_emails (notification_id, user_id, kind) values (new.id, new.user_id, email_kind);
  perform pg_notify('pacta_push', '');
  return null;
end $$;
revoke execute on function pacta_private.notifications_email() from public, anon;
