-- Conversations, messages and notifications: the rules the inbox and the bell rely on
-- (docs/decisions/012-conversations-and-push.md).
--
-- * One conversation per pair of people per deal (or per pair without a deal). Its id is derived from
--   the sorted pair and the deal (public.conversation_id_for), so two devices that start the same
--   conversation offline create the same row, and the second push meets the first as a conflict
--   instead of a duplicate. A unique index holds the rule for rows written by the server too.
-- * "The order is a per-conversation sequence the server assigns on arrival, never the device clock":
--   messages.seq comes from conversations.last_seq, bumped under the conversation's row lock.
-- * "Read state is each member's highest read sequence, which only grows (merged as a maximum)":
--   conversations.user1_read_seq / user2_read_seq; a lower value written later is ignored.
-- * A new message notifies the recipient; while that notification is unread, later messages of the
--   same conversation update it instead of adding more ("collapsed per conversation while unread").
-- * Web Push: a notification written (or a collapsed one updated) queues a push in
--   pacta_private.push_outbox and wakes the servers (NOTIFY pacta_push); exactly one server instance
--   claims each queued push (FOR UPDATE SKIP LOCKED). Subscriptions and VAPID keys never replicate.

-- ---------------------------------------------------------------------------------------------
-- Columns
-- ---------------------------------------------------------------------------------------------

alter table public.conversations
  -- server-owned: the sequence of the newest message
  add column last_seq bigint not null default 0 check (last_seq >= 0),
  -- each member's highest read sequence (written by that member, only ever grows)
  add column user1_read_seq bigint not null default 0 check (user1_read_seq >= 0),
  add column user2_read_seq bigint not null default 0 check (user2_read_seq >= 0);

alter table public.messages
  -- server-owned: the position in the conversation, assigned on arrival (null only for rows a
  -- trigger-free bulk load wrote; the backfill below numbers those)
  add column seq bigint check (seq > 0);

-- Messages that existed before sequences: numbered by their arrival time.
update public.messages m set seq = n.seq
from (select id, row_number() over (partition by conversation_id order by created_at, id) as seq from public.messages) n
where n.id = m.id and m.seq is null;
update public.conversations c set last_seq = coalesce((select max(seq) from public.messages m where m.conversation_id = c.id), 0);

create unique index messages_conversation_seq_idx on public.messages (conversation_id, seq);
create unique index conversations_pair_deal_idx on public.conversations (
  least(user1_id, user2_id), greatest(user1_id, user2_id), coalesce(deal_id, '00000000-0000-0000-0000-000000000000'::uuid))
  where not deleted;

-- ---------------------------------------------------------------------------------------------
-- The conversation id of a pair (and deal). Same formula as src/domain/conversation-id.ts:
-- the first 16 bytes of SHA-256('pacta-conversation:' || lower id || ':' || higher id || ':' || deal id
-- or ''), with the version nibble set to 8 and the RFC 4122 variant bits (a UUIDv8).
-- ---------------------------------------------------------------------------------------------

create or replace function public.conversation_id_for(a uuid, b uuid, deal uuid) returns uuid
language sql immutable parallel safe set search_path = '' as $$
  select encode(set_byte(set_byte(h, 6, (get_byte(h, 6) & 15) | 128), 8, (get_byte(h, 8) & 63) | 128), 'hex')::uuid
  from (select substring(sha256(convert_to(
          'pacta-conversation:' || least(a::text, b::text) || ':' || greatest(a::text, b::text) || ':' || coalesce(deal::text, ''),
          'UTF8')) from 1 for 16) as h) as s
$$;

-- ---------------------------------------------------------------------------------------------
-- conversations
-- ---------------------------------------------------------------------------------------------

create or replace function pacta_private.conversations_check() returns trigger language plpgsql set search_path = '' as $$
declare
  d public.deals;
begin
  if tg_op = 'INSERT' then
    new.last_seq := 0;
    new.last_message := '';
    new.last_message_at := null;
    new.user1_read_seq := 0;
    new.user2_read_seq := 0;
    if public.is_server() then return new; end if;
    if auth.uid() is null or auth.uid() not in (new.user1_id, new.user2_id) then
      perform pacta_private.reject('not_a_participant', 'You can only start conversations you take part in.', 403);
    end if;
    -- "One conversation per pair per deal": the id says which pair and deal it is.
    if new.id is distinct from public.conversation_id_for(new.user1_id, new.user2_id, new.deal_id) then
      perform pacta_private.reject('conversation_id_mismatch',
        'This conversation could not be started: reload and try again.', 422, 'id');
    end if;
    if new.deal_id is not null then
      d := pacta_private.deal_for_rules(new.deal_id);
      if d.id is null then
        perform pacta_private.reject('deal_not_found', 'Deal not found.', 404, 'deal_id');
      end if;
      if d.brand_id not in (new.user1_id, new.user2_id) then
        perform pacta_private.reject('not_a_participant', 'A conversation about a deal includes the deal''s brand.', 403, 'deal_id');
      end if;
    end if;
    new.deleted := false;
    return new;
  end if;
  -- Read state only grows, whoever writes and however late a device's copy arrives.
  new.user1_read_seq := greatest(old.user1_read_seq, least(new.user1_read_seq, greatest(old.last_seq, new.last_seq)));
  new.user2_read_seq := greatest(old.user2_read_seq, least(new.user2_read_seq, greatest(old.last_seq, new.last_seq)));
  if public.is_server() then return new; end if;
  perform pacta_private.forbid_changes(to_jsonb(old), to_jsonb(new), array['user1_id', 'user2_id', 'deal_id'], 'immutable_field');
  perform pacta_private.forbid_changes(to_jsonb(old), to_jsonb(new), array['last_message', 'last_message_at', 'last_seq', 'deleted']);
  if new.user1_read_seq <> old.user1_read_seq and auth.uid() is distinct from old.user1_id then
    perform pacta_private.reject('not_your_read_state', 'Only a member marks a conversation read for themselves.', 403, 'user1_read_seq');
  end if;
  if new.user2_read_seq <> old.user2_read_seq and auth.uid() is distinct from old.user2_id then
    perform pacta_private.reject('not_your_read_state', 'Only a member marks a conversation read for themselves.', 403, 'user2_read_seq');
  end if;
  return new;
end $$;

-- Reading a conversation to its end also reads its message notification.
create or replace function pacta_private.conversations_effects() returns trigger
language plpgsql security definer set search_path = '' as $$
declare
  reader uuid;
begin
  foreach reader in array array[
      case when new.user1_read_seq > old.user1_read_seq and new.user1_read_seq >= new.last_seq then new.user1_id end,
      case when new.user2_read_seq > old.user2_read_seq and new.user2_read_seq >= new.last_seq then new.user2_id end]
  loop
    if reader is not null then
      update public.notifications n set read_at = now()
      where n.user_id = reader and n.type = 'new_message' and n.read_at is null and not n.deleted
        and n.data ->> 'conversation_id' = new.id::text;
    end if;
  end loop;
  return null;
end $$;

create trigger z_effects after update of user1_read_seq, user2_read_seq on public.conversations
  for each row execute function pacta_private.conversations_effects();

-- ---------------------------------------------------------------------------------------------
-- messages
-- ---------------------------------------------------------------------------------------------

-- The next sequence of a conversation, with the new message as its preview and the sender's read state
-- moved past it (whoever writes a message has read the conversation up to it). The row lock taken here
-- orders concurrent sends: each transaction waits for the previous one to commit.
create or replace function pacta_private.take_message_seq(message public.messages) returns bigint
language plpgsql volatile security definer set search_path = '' as $$
declare
  next_seq bigint;
begin
  if pg_trigger_depth() = 0 then raise exception 'internal helper' using errcode = '42501'; end if;
  update public.conversations c
    set last_seq = c.last_seq + 1,
        last_message = left(message.body, 200),
        last_message_at = message.created_at,
        user1_read_seq = case when c.user1_id = message.sender_id then c.last_seq + 1 else c.user1_read_seq end,
        user2_read_seq = case when c.user2_id = message.sender_id then c.last_seq + 1 else c.user2_read_seq end
  where c.id = message.conversation_id
  returning c.last_seq into next_seq;
  return next_seq;
end $$;

create or replace function pacta_private.messages_check() returns trigger language plpgsql set search_path = '' as $$
declare
  c public.conversations;
begin
  if tg_op = 'INSERT' then
    if not public.is_server() then
      -- "A message's sender is the signed-in user whatever the client sends."
      if new.sender_id is distinct from auth.uid() then
        perform pacta_private.reject('not_your_message', 'You can only send messages as yourself.', 403, 'sender_id');
      end if;
      new.read_at := null;
      new.deleted := false;
    end if;
    c := pacta_private.conversation_for_rules(new.conversation_id);
    if c.id is null or c.deleted then
      perform pacta_private.reject('conversation_not_found', 'Conversation not found.', 404, 'conversation_id');
    end if;
    if new.sender_id not in (c.user1_id, c.user2_id) then
      perform pacta_private.reject('not_a_participant', 'You are not part of this conversation.', 403, 'sender_id');
    end if;
    if new.recipient_id is distinct from (case when new.sender_id = c.user1_id then c.user2_id else c.user1_id end) then
      perform pacta_private.reject('wrong_recipient', 'The recipient must be the other participant of the conversation.', 422, 'recipient_id');
    end if;
    -- "Messages are sent only if non-empty after trimming"; bodies up to 4,000 characters.
    if coalesce(new.body, '') !~ '[^[:space:]]' then
      perform pacta_private.reject('empty_message', 'Type a message before sending.', 422, 'body');
    end if;
    if length(new.body) > 4000 then
      perform pacta_private.reject('message_too_long',
        format('A message can be at most 4,000 characters (this one has %s).', to_char(length(new.body), 'FM999,999,999')), 422, 'body');
    end if;
    new.seq := pacta_private.take_message_seq(new);
    return new;
  end if;
  if not public.is_server() then
    perform pacta_private.forbid_changes(to_jsonb(old), to_jsonb(new),
      array['conversation_id', 'sender_id', 'recipient_id', 'body', 'deleted'], 'immutable_field');
    perform pacta_private.forbid_changes(to_jsonb(old), to_jsonb(new), array['seq']);
    if new.read_at is distinct from old.read_at and auth.uid() is distinct from old.recipient_id then
      perform pacta_private.reject('not_recipient', 'Only the recipient can mark a message read.', 403, 'read_at');
    end if;
  end if;
  return new;
end $$;

-- The recipient hears of a new message: one notification per conversation while it is unread.
create or replace function pacta_private.messages_effects() returns trigger
language plpgsql security definer set search_path = '' as $$
declare
  sender_name text;
  collapsed_count integer;
begin
  select coalesce(nullif(p.full_name, ''), p.username, 'Someone') into sender_name from public.profiles p where p.id = new.sender_id;
  with collapsed as (
    update public.notifications n
      set title = format('%s new messages from %s', coalesce((n.data ->> 'count')::integer, 1) + 1, sender_name),
          message = left(new.body, 140),
          data = n.data || jsonb_build_object('count', coalesce((n.data ->> 'count')::integer, 1) + 1, 'message_id', new.id)
    where n.user_id = new.recipient_id and n.type = 'new_message' and n.read_at is null and not n.deleted
      and n.data ->> 'conversation_id' = new.conversation_id::text
    returning 1)
  select count(*) into collapsed_count from collapsed;
  if collapsed_count = 0 then
    insert into public.notifications (user_id, type, title, message, data)
    select new.recipient_id, 'new_message', format('New message from %s', sender_name), left(new.body, 140),
           jsonb_build_object('conversation_id', c.id, 'deal_id', c.deal_id, 'message_id', new.id, 'count', 1,
                              'link', '/inbox/' || c.id)
    from public.conversations c where c.id = new.conversation_id;
  end if;
  return null;
end $$;

-- ---------------------------------------------------------------------------------------------
-- notifications: every new one (and every collapsed update) is queued for Web Push
-- ---------------------------------------------------------------------------------------------

create table pacta_private.push_outbox (
  id bigint generated always as identity primary key,
  notification_id uuid not null references public.notifications (id) on delete cascade,
  queued_at timestamptz not null default now()
);

create or replace function pacta_private.notifications_push() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  if new.read_at is not null or new.deleted then return null; end if;
  if tg_op = 'UPDATE' and new.title is not distinct from old.title and new.message is not distinct from old.message then
    return null;
  end if;
  insert into pacta_private.push_outbox (notification_id) values (new.id);
  perform pg_notify('pacta_push', '');
  return null;
end $$;

create trigger z_push after insert or update of title, message on public.notifications
  for each row execute function pacta_private.notifications_push();

-- Web Push subscriptions: one per browser (endpoint), server-only (no client grants, never replicated);
-- the sync server's /api/push endpoints read and write them for the signed-in user.
create table pacta_private.push_subscriptions (
  endpoint text primary key check (endpoint ~ '^https?://' and length(endpoint) <= 2048),
  user_id uuid not null references public.profiles (id) on delete cascade,
  p256dh text not null check (length(p256dh) between 40 and 200),
  auth text not null check (length(auth) between 10 and 100),
  user_agent text check (length(user_agent) <= 500),
  created_at timestamptz not null default now(),
  last_used_at timestamptz
);
create index push_subscriptions_user_idx on pacta_private.push_subscriptions (user_id);

-- The VAPID key pair, made by the first server that starts (unless the environment gives one).
create table pacta_private.vapid_keys (
  singleton boolean primary key default true check (singleton),
  public_key text not null,
  private_key text not null,
  created_at timestamptz not null default now()
);

revoke all on pacta_private.push_outbox, pacta_private.push_subscriptions, pacta_private.vapid_keys from public, anon, authenticated;
revoke execute on function pacta_private.take_message_seq(public.messages) from public, anon;
grant execute on function pacta_private.take_message_seq(public.messages) to authenticated, service_role;
revoke execute on function public.conversation_id_for(uuid, uuid, uuid) from public, anon;
grant execute on function public.conversation_id_for(uuid, uuid, uuid) to authenticated, service_role;
