-- Support tickets an ordinary account cannot abuse.
--
-- * Priority comes from the plan, not from the form: a client's new ticket is normal, a Pro user's
--   high ("Pro users' tickets are answered first"); staff change it later. Before, a free user could
--   send high and jump the queue.
-- * A dispute ticket is filed only by the server's dispute path (POST /api/open-dispute and the bank's
--   card dispute), which checks the deal is funded and the opener is one of its sides. A client could
--   write kind = 'dispute' through sync: it skipped the free plan's 3-open-tickets limit and reached
--   staff as a dispute without any deal being frozen.
-- * Whoever writes it, a dispute names a deal and is opened by that deal's brand or one of its
--   selected creators (an applicant is not a side of the deal).

create or replace function pacta_private.is_deal_side(deal_id uuid, user_id uuid) returns boolean
language sql stable security definer set search_path = '' as $$
  select exists (select 1 from public.deals d
                 where d.id = is_deal_side.deal_id and (d.brand_id = is_deal_side.user_id or is_deal_side.user_id = any (d.selected_creator_ids)))
$$;
revoke execute on function pacta_private.is_deal_side(uuid, uuid) from public, anon;
grant execute on function pacta_private.is_deal_side(uuid, uuid) to authenticated, service_role;

create or replace function pacta_private.support_tickets_check() returns trigger language plpgsql set search_path = '' as $$
declare
  staff boolean := public.is_admin();
begin
  if tg_op = 'INSERT' then
    if not public.is_server() then
      if new.user_id is distinct from auth.uid() then
        perform pacta_private.reject('not_your_ticket', 'You can only open tickets for yourself.', 403, 'user_id');
      end if;
      if new.kind = 'contact' then
        perform pacta_private.reject('invalid_kind', 'Contact tickets come from the contact form.', 422, 'kind');
      end if;
      -- A dispute freezes a deal's escrow: only the server's dispute path (which checks the deal is
      -- funded and the opener one of its two sides) files one, never a client writing a ticket.
      if new.kind = 'dispute' then
        perform pacta_private.reject('dispute_from_deal',
          'Disputes are opened from the deal''s payment panel, by its brand or creator.', 403, 'kind');
      end if;
      -- The plan decides the priority, not the form: normal here, high for Pro just below.
      new.priority := 'normal';
      new.status := 'open';
      new.first_response_at := null;
      new.closed_at := null;
      new.contact_message_id := null;
      new.contact_name := null;
      new.contact_email := null;
      new.deleted := false;
      perform pacta_private.support_text_check(new.subject, new.message);
      if new.deal_id is not null and not staff and not pacta_private.is_deal_party(new.deal_id, new.user_id) then
        perform pacta_private.reject('not_your_deal', 'A ticket can only be about one of your deals.', 403, 'deal_id');
      end if;
    end if;
    if new.kind = 'dispute' and new.deal_id is null then
      perform pacta_private.reject('deal_required', 'A dispute must name the deal it is about.', 422, 'deal_id');
    end if;
    if new.kind = 'dispute' and not pacta_private.is_deal_side(new.deal_id, new.user_id) then
      perform pacta_private.reject('not_a_participant', 'Only the brand and the creator of a deal can dispute it.', 403, 'user_id');
    end if;
    new.is_pro := new.user_id is not null and public.is_pro_user(new.user_id);
    -- Pro users' tickets are answered first: high priority whatever was sent.
    if new.is_pro then new.priority := 'high'; end if;
    if new.status = 'closed' and new.closed_at is null then new.closed_at := now(); end if;
    new.last_activity_at := now();
    -- The free plan's limit (not for disputes or contact messages, not for Pro users).
    if new.kind = 'question' and new.status = 'open' and new.user_id is not null and not new.is_pro
       and pacta_private.open_question_count(new.user_id) >= 3 then
      perform pacta_private.reject('open_ticket_limit',
        'The free plan allows 3 open tickets at a time. Pro users have no limit: upgrade, or close a ticket you no longer need.', 409);
    end if;
    return new;
  end if;

  if not public.is_server() then
    perform pacta_private.forbid_changes(to_jsonb(old), to_jsonb(new), array['user_id', 'subject', 'message', 'kind', 'deal_id'], 'immutable_field');
    perform pacta_private.forbid_changes(to_jsonb(old), to_jsonb(new),
      array['is_pro', 'first_response_at', 'last_activity_at', 'closed_at', 'contact_message_id', 'contact_name', 'contact_email', 'deleted']);
    if new.priority is distinct from old.priority and not staff then
      perform pacta_private.reject('server_owned_field', 'Only Pacta staff can change a ticket''s priority.', 403, 'priority');
    end if;
    if old.status = 'closed' and new.status = 'open' and not staff then
      if old.closed_at is not null and old.closed_at < now() - interval '14 days' then
        perform pacta_private.reject('reopen_window_passed',
          'A ticket can be reopened within 14 days of closing. Please open a new ticket.', 409, 'status');
      end if;
      if old.kind = 'question' and not old.is_pro and not public.is_pro_user(old.user_id)
         and pacta_private.open_question_count(old.user_id) >= 3 then
        perform pacta_private.reject('open_ticket_limit',
          'The free plan allows 3 open tickets at a time. Pro users have no limit: upgrade, or close a ticket you no longer need.', 409);
      end if;
    end if;
  end if;
  if new.status is distinct from old.status then
    new.closed_at := case when new.status = 'closed' then now() end;
  end if;
  return new;
end $$;
