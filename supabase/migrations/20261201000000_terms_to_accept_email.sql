-- "An e-mail for what waits on someone": a terms sheet one side accepted waits on the other side's
-- 'Accept terms' just as a proposed change does. Its notification ('terms_to_accept', sent to the
-- side whose turn it is) now queues the same kind of e-mail as a proposal, 'terms_proposed', under
-- the same opt-out ("New terms wait for your answer"). Before, only proposals were e-mailed, so the
-- first sheet of a deal could wait unseen on a brand who never opened the app.

create or replace function pacta_private.notifications_email() returns trigger
language plpgsql security definer set search_path = '' as $$
declare
  email_kind text := case new.type
    when 'offer_received' then 'offer'
    when 'terms_changed' then 'terms_proposed'
    when 'terms_to_accept' then 'terms_proposed'
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
