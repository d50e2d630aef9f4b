-- The support desk's rules (the limits and sentences are src/domain/support.ts's, word for word).
--
-- Tickets
--   * created open; a Pro user's ticket is high priority whatever the client sent, others keep the
--     given priority (default normal); only staff change a priority later;
--   * subject 1–200 and message 1–10,000 characters (trimmed), refused with a sentence the form shows;
--   * kind 'question' or 'dispute' from a client ('contact' comes only from the contact form); a
--     ticket about a deal must be about one of the asker's deals (staff and the server may name any);
--   * the free plan keeps at most 3 open questions at a time ("Pro users have no limit");
--   * open ⇄ closed: the asker can close, and reopen within 14 days of closing; staff can do both;
--   * the asker, subject, message, kind and deal never change; the server owns is_pro,
--     first_response_at, last_activity_at, closed_at and the contact fields.
-- Replies
--   * only the asker and staff reply, only while the ticket is open, 1–10,000 characters;
--   * a reply by staff on someone else's ticket is marked is_staff; the first one sets
--     first_response_at (once), and the asker gets a 'support_reply' notification.
-- Contact form
--   * every contact message becomes a ticket of kind 'contact' in the staff queue (the visitor's
--     account when signed in, otherwise none: the name and e-mail travel on the ticket).
-- Staff reading
--   * public.support_queue(): open tickets by priority (high first), then age (oldest first);
--   * public.support_stats(): counts by status and the average first-response time in whole minutes
--     over tickets opened in the last 30 days. Both for staff only.
-- Visibility is the RLS of 20261122000500_rls.sql: the asker sees their tickets and their threads,
-- staff see all.

create or replace function pacta_private.support_text_check(subject text, message text) returns void
language plpgsql immutable set search_path = '' as $$
begin
  if subject is not null then
    if length(btrim(subject)) = 0 then
      perform pacta_private.reject('subject_required', 'Please enter a subject.', 422, 'subject');
    end if;
    if length(btrim(subject)) > 200 then
      perform pacta_private.reject('subject_too_long', 'The subject can be at most 200 characters.', 422, 'subject');
    end if;
  end if;
  if length(btrim(coalesce(message, ''))) = 0 then
    perform pacta_private.reject('message_required', 'Please describe what you need help with.', 422, 'message');
  end if;
  if length(btrim(message)) > 10000 then
    perform pacta_private.reject('message_too_long', 'The message can be at most 10,000 characters.', 422, 'message');
  end if;
end $$;

-- Whether a user takes part in a deal (its brand, an applicant or a selected creator), past RLS.
create or replace function pacta_private.is_deal_party(deal_id uuid, user_id uuid) returns boolean
language sql stable security definer set search_path = '' as $$
  select exists (select 1 from public.deals d where d.id = deal_id and (d.brand_id = user_id or user_id = any (d.selected_creator_ids)))
      or exists (select 1 from public.applications a where a.deal_id = is_deal_party.deal_id and a.creator_id = user_id)
$$;

-- The asker's open questions, past RLS (for the free plan's limit).
create or replace function pacta_private.open_question_count(user_id uuid) returns integer
language sql stable security definer set search_path = '' as $$
  select count(*)::int from public.support_tickets t
  where t.user_id = open_question_count.user_id and t.kind = 'question' and t.status = 'open' and not t.deleted
$$;

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

create or replace function pacta_private.support_messages_check() returns trigger language plpgsql set search_path = '' as $$
declare
  t public.support_tickets;
begin
  if tg_op = 'UPDATE' then
    if not public.is_server() then
      perform pacta_private.forbid_changes(to_jsonb(old), to_jsonb(new), array['ticket_id', 'user_id', 'message', 'deleted'], 'immutable_field');
      perform pacta_private.forbid_changes(to_jsonb(old), to_jsonb(new), array['is_staff']);
    end if;
    return new;
  end if;
  if not public.is_server() then
    if new.user_id is distinct from auth.uid() then
      perform pacta_private.reject('not_your_message', 'You can only reply as yourself.', 403, 'user_id');
    end if;
    new.deleted := false;
  end if;
  t := pacta_private.ticket_for_rules(new.ticket_id);
  if t.id is null or t.deleted then
    perform pacta_private.reject('ticket_not_found', 'Ticket not found.', 404, 'ticket_id');
  end if;
  if new.user_id is distinct from t.user_id and coalesce(pacta_private.profile_role(new.user_id), '') <> 'admin' then
    perform pacta_private.reject('not_your_ticket', 'Only the ticket''s owner and Pacta staff can reply.', 403);
  end if;
  if t.status <> 'open' then
    perform pacta_private.reject('ticket_closed',
      'This ticket is closed, so it takes no more replies. Open a new ticket if you still need help.', 409);
  end if;
  perform pacta_private.support_text_check(null, new.message);
  new.is_staff := new.user_id is distinct from t.user_id;
  return new;
end $$;

-- A reply is the ticket's latest activity; the first staff reply is its first response (set once);
-- a staff reply tells the asker.
create or replace function pacta_private.support_messages_effects() returns trigger
language plpgsql security definer set search_path = '' as $$
declare
  t public.support_tickets;
begin
  update public.support_tickets s
    set last_activity_at = greatest(s.last_activity_at, new.created_at),
        first_response_at = case when new.is_staff and s.first_response_at is null then new.created_at else s.first_response_at end
  where s.id = new.ticket_id
  returning s.* into t;
  if new.is_staff and t.user_id is not null then
    insert into public.notifications (user_id, type, title, message, data)
    values (t.user_id, 'support_reply', 'Support replied to your ticket',
            format('"%s": %s', left(t.subject, 80), left(new.message, 160)),
            jsonb_build_object('ticket_id', t.id, 'link', '/support/' || t.id));
  end if;
  return null;
end $$;

-- Contact-form messages land in the staff queue as tickets of kind 'contact'.
create or replace function pacta_private.contact_ticket_subject(subject text) returns text
language sql immutable set search_path = '' as $$
  select 'Contact: ' || case subject
    when 'general' then 'General Inquiry' when 'support' then 'Technical Support' when 'partnership' then 'Partnership'
    when 'billing' then 'Billing' when 'feature' then 'Feature Request' else 'Other' end
$$;

create or replace function pacta_private.contact_messages_effects() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  insert into public.support_tickets (id, user_id, subject, message, kind, contact_message_id, contact_name, contact_email)
  values (gen_random_uuid(), new.user_id, pacta_private.contact_ticket_subject(new.subject), new.message, 'contact',
          new.id, new.name, new.email);
  return null;
end $$;

create trigger z_effects after insert on public.contact_messages
  for each row execute function pacta_private.contact_messages_effects();

-- Messages sent before this migration are not lost either.
insert into public.support_tickets (id, user_id, subject, message, kind, contact_message_id, contact_name, contact_email)
select gen_random_uuid(), c.user_id, pacta_private.contact_ticket_subject(c.subject), c.message, 'contact', c.id, c.name, c.email
from public.contact_messages c
where not exists (select 1 from public.support_tickets t where t.contact_message_id = c.id);

-- ---------------------------------------------------------------------------------------------
-- Staff reading: the queue and the figures (the page computes the same from its replicated copy
-- with src/domain/support.ts; the tests hold both to the same answers).
-- ---------------------------------------------------------------------------------------------

create or replace function public.support_queue()
returns setof public.support_tickets
language plpgsql stable set search_path = '' as $$
begin
  if not public.is_admin() and not public.is_server() then
    perform pacta_private.reject('forbidden', 'Only Pacta staff can see the support queue.', 403);
  end if;
  return query
    select t.* from public.support_tickets t
    where t.status = 'open' and not t.deleted
    order by case t.priority when 'high' then 0 when 'normal' then 1 else 2 end, t.created_at, t.id;
end $$;

create or replace function public.support_stats()
returns table (open_count integer, closed_count integer, avg_first_response_minutes integer)
language plpgsql stable set search_path = '' as $$
begin
  if not public.is_admin() and not public.is_server() then
    perform pacta_private.reject('forbidden', 'Only Pacta staff can see the support figures.', 403);
  end if;
  return query
    select (count(*) filter (where t.status = 'open'))::int,
           (count(*) filter (where t.status = 'closed'))::int,
           round(extract(epoch from avg(t.first_response_at - t.created_at)
                 filter (where t.first_response_at is not null and t.created_at >= now() - interval '30 days')) / 60)::int
    from public.support_tickets t
    where not t.deleted;
end $$;

revoke execute on all functions in schema pacta_private from public, anon;
grant execute on all functions in schema pacta_private to authenticated, service_role;
revoke execute on function public.support_queue(), public.support_stats() from public, anon;
grant execute on function public.support_queue(), public.support_stats() to authenticated, service_role;
