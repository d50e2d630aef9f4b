-- Pictures, portfolio media and message attachments live on Pacta's storage (src/domain/pictures.ts and
-- src/domain/media.ts hold the same rules for the forms):
--   * a profile picture (profiles.avatar_url) is the public address of an object in the owner's own
--     folder of the avatars or brand-logos bucket: /storage/v1/object/public/<bucket>/<user id>/<file>.
--     Addresses on other sites (a tracking pixel every viewer would fetch) and inline data: pictures
--     (megabytes in a row every device syncs) are refused for every writer; those stored before are
--     removed below and the app shows initials until the owner uploads a picture;
--   * a creator's portfolio (profiles.portfolio_media) is an ordered list of at most 12 images and short
--     videos, each { id, url, kind } with its url in the owner's folder of the portfolio bucket;
--   * a message may carry up to 4 files (messages.attachments), each { path, name, type, size } with
--     its path under the conversation's folder of the private attachments bucket; such a message may
--     have an empty body, and its files can no more be changed than its body.

alter table public.profiles add column portfolio_media jsonb not null default '[]'::jsonb;
alter table public.messages add column attachments jsonb not null default '[]'::jsonb;

create or replace function pacta_private.is_storage_picture(url text, owner uuid, buckets text[]) returns boolean
language sql immutable set search_path = '' as $$
  select coalesce(length(url) <= 2048
     and url ~ '^/storage/v1/object/public/[a-z-]+/[0-9a-f-]{36}/[A-Za-z0-9_-][A-Za-z0-9._-]{0,199}$'
     and split_part(url, '/', 6) = any (buckets)
     and split_part(url, '/', 7) = owner::text, false)
$$;

create or replace function pacta_private.is_valid_portfolio(media jsonb, owner uuid) returns boolean
language sql immutable set search_path = '' as $$
  select jsonb_typeof(media) = 'array' and jsonb_array_length(media) <= 12
     and not exists (
       select 1 from jsonb_array_elements(media) as m(item)
       where jsonb_typeof(m.item) <> 'object'
          or coalesce(m.item ->> 'id', '') !~ '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'
          or coalesce(m.item ->> 'kind', '') not in ('image', 'video')
          or not pacta_private.is_storage_picture(m.item ->> 'url', owner, array['portfolio']))
     and (select count(distinct m.item ->> 'id') from jsonb_array_elements(media) as m(item)) = jsonb_array_length(media)
$$;

create or replace function pacta_private.is_valid_attachments(files jsonb, conversation uuid) returns boolean
language sql immutable set search_path = '' as $$
  select jsonb_typeof(files) = 'array' and jsonb_array_length(files) <= 4
     and not exists (
       select 1 from jsonb_array_elements(files) as f(item)
       where jsonb_typeof(f.item) <> 'object'
          or coalesce(f.item ->> 'path', '') !~ ('^' || conversation::text || '/[A-Za-z0-9_-][A-Za-z0-9._-]{0,199}$')
          or length(coalesce(f.item ->> 'name', '')) not between 1 and 200
          or coalesce(f.item ->> 'type', '') !~ '^(image|video|application)/[a-z0-9.+-]+$'
          or jsonb_typeof(f.item -> 'size') <> 'number' or (f.item ->> 'size')::numeric < 0)
$$;

-- What a conversation list and a notification show for a message: its text, or its first file's name.
create or replace function pacta_private.message_preview(body text, files jsonb) returns text
language sql immutable set search_path = '' as $$
  select case when coalesce(body, '') ~ '[^[:space:]]' or jsonb_array_length(coalesce(files, '[]'::jsonb)) = 0 then body
              else 'Sent a file: ' || (files -> 0 ->> 'name') end
$$;

create or replace function pacta_private.profile_links_and_picture_check() returns trigger
language plpgsql set search_path = '' as $$
declare
  link record;
  label text;
begin
  if tg_op = 'INSERT' or new.social_links is distinct from old.social_links then
    if not public.is_server() then
      for link in select key, value from jsonb_each(new.social_links) loop
        continue when jsonb_typeof(link.value) = 'string' and btrim(link.value #>> '{}') = '';
        if link.key not in ('linkedin', 'instagram', 'tiktok', 'youtube', 'twitter') then
          perform pacta_private.reject('unknown_social_platform',
            'Only LinkedIn, Instagram, TikTok, YouTube and Twitter links can be saved.', 422, 'social_links');
        end if;
        if not pacta_private.is_valid_social_link(link.value) then
          label := case link.key when 'linkedin' then 'LinkedIn' when 'instagram' then 'Instagram' when 'tiktok' then 'TikTok'
                                 when 'youtube' then 'YouTube' else 'Twitter' end;
          perform pacta_private.reject('invalid_social_link',
            format('The %s link must be a full address starting with https://, like https://%s.com/yourname.', label, link.key),
            422, 'social_links');
        end if;
      end loop;
    end if;
    new.social_links := pacta_private.valid_social_links(new.social_links);
  end if;
  if btrim(coalesce(new.avatar_url, '')) = '' then
    new.avatar_url := null;
  elsif (tg_op = 'INSERT' or new.avatar_url is distinct from old.avatar_url)
        and not pacta_private.is_storage_picture(new.avatar_url, new.id, array['avatars', 'brand-logos']) then
    perform pacta_private.reject('external_picture',
      'Profile pictures can only be uploaded to Pacta: a picture on another site would tell that site who views your profile.',
      422, 'avatar_url');
  end if;
  if (tg_op = 'INSERT' or new.portfolio_media is distinct from old.portfolio_media)
     and not pacta_private.is_valid_portfolio(new.portfolio_media, new.id) then
    perform pacta_private.reject('invalid_portfolio',
      'A portfolio holds at most 12 images and videos, each uploaded to your own portfolio on Pacta.', 422, 'portfolio_media');
  end if;
  return new;
end $$;

create or replace function pacta_private.messages_check() returns trigger
language plpgsql set search_path = '' as $$
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
    if not pacta_private.is_valid_attachments(new.attachments, new.conversation_id) then
      perform pacta_private.reject('invalid_attachment',
        'A message can carry up to 4 files, each uploaded to this conversation on Pacta.', 422, 'attachments');
    end if;
    -- "Messages are sent only if non-empty after trimming" (a file counts); bodies up to 4,000 characters.
    if coalesce(new.body, '') !~ '[^[:space:]]' and jsonb_array_length(new.attachments) = 0 then
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
      array['conversation_id', 'sender_id', 'recipient_id', 'body', 'attachments', 'deleted'], 'immutable_field');
    perform pacta_private.forbid_changes(to_jsonb(old), to_jsonb(new), array['seq']);
    if new.read_at is distinct from old.read_at and auth.uid() is distinct from old.recipient_id then
      perform pacta_private.reject('not_recipient', 'Only the recipient can mark a message read.', 403, 'read_at');
    end if;
  end if;
  return new;
end $$;

create or replace function pacta_private.take_message_seq(message public.messages) returns bigint
language plpgsql security definer set search_path = '' as $$
declare
  next_seq bigint;
begin
  if pg_trigger_depth() = 0 then raise exception 'internal helper' using errcode = '42501'; end if;
  update public.conversations c
    set last_seq = c.last_seq + 1,
        last_message = left(pacta_private.message_preview(message.body, message.attachments), 200),
        last_message_at = message.created_at,
        user1_read_seq = case when c.user1_id = message.sender_id then c.last_seq + 1 else c.user1_read_seq end,
        user2_read_seq = case when c.user2_id = message.sender_id then c.last_seq + 1 else c.user2_read_seq end
  where c.id = message.conversation_id
  returning c.last_seq into next_seq;
  return next_seq;
end $$;

create or replace function pacta_private.messages_effects() returns trigger
language plpgsql security definer set search_path = '' as $$
declare
  sender_name text;
  collapsed_count integer;
  preview text := left(pacta_private.message_preview(new.body, new.attachments), 140);
begin
  select coalesce(nullif(p.full_name, ''), p.username, 'Someone') into sender_name from public.profiles p where p.id = new.sender_id;
  with collapsed as (
    update public.notifications n
      set title = format('%s new messages from %s', coalesce((n.data ->> 'count')::integer, 1) + 1, sender_name),
          message = preview,
          data = n.data || jsonb_build_object('count', coalesce((n.data ->> 'count')::integer, 1) + 1, 'message_id', new.id)
    where n.user_id = new.recipient_id and n.type = 'new_message' and n.read_at is null and not n.deleted
      and n.data ->> 'conversation_id' = new.conversation_id::text
    returning 1)
  select count(*) into collapsed_count from collapsed;
  if collapsed_count = 0 then
    insert into public.notifications (user_id, type, title, message, data)
    select new.recipient_id, 'new_message', format('New message from %s', sender_name), preview,
           jsonb_build_object('conversation_id', c.id, 'deal_id', c.deal_id, 'message_id', new.id, 'count', 1,
                              'link', '/inbox/' || c.id)
    from public.conversations c where c.id = new.conversation_id;
  end if;
  return null;
end $$;

-- What was stored before the rule: pictures not on Pacta's storage go (profiles then sync anew).
update public.profiles set avatar_url = null
 where avatar_url is not null and not pacta_private.is_storage_picture(avatar_url, id, array['avatars', 'brand-logos']);

drop function pacta_private.is_own_picture(text);

revoke execute on function pacta_private.is_storage_picture(text, uuid, text[]), pacta_private.is_valid_portfolio(jsonb, uuid),
  pacta_private.is_valid_attachments(jsonb, uuid), pacta_private.message_preview(text, jsonb) from public, anon;
grant execute on function pacta_private.is_storage_picture(text, uuid, text[]), pacta_private.is_valid_portfolio(jsonb, uuid),
  pacta_private.is_valid_attachments(jsonb, uuid), pacta_private.message_preview(text, jsonb) to authenticated, service_role;
