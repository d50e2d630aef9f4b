-- No existence oracle: a client write that names a row the writer may not see is refused exactly as
-- if that row did not exist ("a refusal to a user who may not see a row is indistinguishable from the
-- row not existing"). Without this, applying to another brand's cancelled deal answered "no longer
-- open", messaging into someone else's conversation "you are not part of this conversation", replying
-- to someone else's ticket "only the ticket's owner…": each told an outsider the row exists.
--
-- These triggers run before the rule triggers (`a_…` sorts before `b_rules`), as the writer (SECURITY
-- INVOKER), so the visibility test is the writer's own RLS. Server writes are not checked here.
-- The one deliberate exception is the Pro-only deal: the product tells a non-Pro creator that a deal is
-- Pro-only (with Upgrade to Pro) and nothing else about it, so applying to an open or completed Pro-only
-- deal still reaches the rule that says so.

create or replace function pacta_private.refuse_unseen_deal() returns trigger language plpgsql set search_path = '' as $$
declare
  d public.deals;
begin
  if public.is_server() or tg_op <> 'INSERT' then return new; end if;
  if exists (select 1 from public.deals where id = new.deal_id) then return new; end if;
  d := pacta_private.deal_for_rules(new.deal_id);
  if tg_table_name = 'applications' and d.id is not null and d.pro_only and d.status in ('open', 'completed') and not d.deleted then
    return new;
  end if;
  perform pacta_private.reject('deal_not_found', 'Deal not found.', 404, 'deal_id');
  return new;
end $$;

create trigger a_existence before insert on public.applications
  for each row execute function pacta_private.refuse_unseen_deal();
create trigger a_existence before insert on public.reviews
  for each row execute function pacta_private.refuse_unseen_deal();

create or replace function pacta_private.refuse_unseen_conversation() returns trigger language plpgsql set search_path = '' as $$
begin
  if public.is_server() or tg_op <> 'INSERT' then return new; end if;
  if not exists (select 1 from public.conversations where id = new.conversation_id and not deleted) then
    perform pacta_private.reject('conversation_not_found', 'Conversation not found.', 404, 'conversation_id');
  end if;
  return new;
end $$;

create trigger a_existence before insert on public.messages
  for each row execute function pacta_private.refuse_unseen_conversation();

create or replace function pacta_private.refuse_unseen_ticket() returns trigger language plpgsql set search_path = '' as $$
begin
  if public.is_server() or tg_op <> 'INSERT' then return new; end if;
  if not exists (select 1 from public.support_tickets where id = new.ticket_id and not deleted) then
    perform pacta_private.reject('ticket_not_found', 'Ticket not found.', 404, 'ticket_id');
  end if;
  return new;
end $$;

create trigger a_existence before insert on public.support_messages
  for each row execute function pacta_private.refuse_unseen_ticket();
