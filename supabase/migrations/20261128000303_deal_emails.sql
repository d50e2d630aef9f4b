-- E-mails for what waits on someone (docs/decisions/030-the-deals-work-is-a-log.md): an offer, a draft
-- to review, changes requested, a payout released. The notification that says it queues one e-mail
-- unless its user opted out of that kind (the kinds of src/domain/deal-emails.ts); the server sends the
-- queue through the deployment's SMTP, each row claimed by one instance. The opt-outs are private (not
-- on the profile, which every signed-in user reads): set through /api/email/preferences or the
-- one-click unsubscribe link.

create table pacta_private.email_opt_outs (
  user_id uuid not null references public.profiles (id) on delete cascade,
  kind text not null check (kind in ('offer', 'draft_to_review', 'changes_requested', 'payout_released')),
  created_at timestamptz not null default now(),
  primary key (user_id, kind)
);
revoke all on pacta_private.email_opt_outs from public, anon, authenticated;

create table pacta_private.deal_emails (
  id bigint generated always as identity primary key,
  notification_id uuid not null references public.notifications (id) on delete cascade,
  user_id uuid not null references public.profiles (id) on delete cascade,
  kind text not null check (kind in ('offer', 'draft_to_review', 'changes_requested', 'payout_released')),
  queued_at timestamptz not null default now(),
  claimed_by text,
  lease_until timestamptz,
  -- What was composed (and, without SMTP on a developer's machine, what the dev mailbox shows).
  to_email text,
  subject text,
  text_body text,
  html_body text,
  sent_at timestamptz,
  send_error text
);
create index deal_emails_due_idx on pacta_private.deal_emails (queued_at) where sent_at is null;
revoke all on pacta_private.deal_emails from public, anon, authenticated;

-- The key unsubscribe links are signed with (HMAC), made by the first server that starts.
create table pacta_private.email_link_keys (
  singleton boolean primary key default true check (singleton),
  secret text not null,
  created_at timestamptz not null default now()
);
revoke all on pacta_private.email_link_keys from public, anon, authenticated;

create or replace function pacta_private.notifications_email() returns trigger
language plpgsql security definer set search_path = '' as $$
declare
  email_kind text := case new.type
    when 'offer_received' then 'offer'
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

create trigger z_email after insert on public.notifications
  for each row execute function pacta_private.notifications_email();
revoke execute on function pacta_private.notifications_email() from public, anon;
