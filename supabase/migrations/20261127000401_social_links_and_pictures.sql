-- Social links and pictures an ordinary account cannot turn against the people who view its profile.
--
-- Social links (src/domain/social-links.ts holds the same rule for the forms):
--   * only the known platforms (linkedin, instagram, tiktok, youtube, twitter), each a full https://
--     address: a host name with a dot, an optional port, a path without spaces, at most 2,048
--     characters. javascript:, data: and plain http links were accepted before and opened from every
--     visitor's click;
--   * a client's write that breaks it is refused with a sentence naming the platform (sync shows it
--     on the profile); the server's own writes (the sign-up trigger copying the sign-up form's links)
--     keep the valid links and drop the rest, so a bad link never blocks a sign-up;
--   * blank links are dropped. "Verified" is decided where links are shown, from this same shape: the
--     platform's exact host or its www. (never a look-alike such as instagram.com.evil.example).
-- Pictures (profiles.avatar_url, the only picture a profile has):
--   * only from Pacta itself: a path on Pacta's own origin (/…, never //host or /\host, which browsers
--     read as another site) or an inline data:image/ URL; an address on another site would be fetched
--     by every viewer's browser and tell that site who looked (a tracking pixel). Refused for every
--     writer; the pictures already stored elsewhere are removed below, and the app shows initials.

create or replace function pacta_private.is_valid_social_link(value jsonb) returns boolean
language sql immutable set search_path = '' as $$
  select jsonb_typeof(value) = 'string' and length(value #>> '{}') <= 2048
     and (value #>> '{}') ~* '^https://[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)+(:[0-9]{1,5})?([/?#][^[:space:]]*)?$'
$$;

-- The links a server write keeps: known platforms, valid links, no blanks.
create or replace function pacta_private.valid_social_links(links jsonb) returns jsonb
language sql immutable set search_path = '' as $$
  select coalesce(jsonb_object_agg(l.key, l.value), '{}'::jsonb)
  from jsonb_each(case when jsonb_typeof(links) = 'object' then links else '{}'::jsonb end) as l
  where l.key in ('linkedin', 'instagram', 'tiktok', 'youtube', 'twitter') and pacta_private.is_valid_social_link(l.value)
$$;

create or replace function pacta_private.is_own_picture(url text) returns boolean
language sql immutable set search_path = '' as $$
  select length(url) <= 2048 and (
    url ~ '^/[^/\\[:space:][:cntrl:]][^\\[:space:][:cntrl:]]*$'
    or url ~ '^data:image/(png|jpeg|gif|webp|avif|svg\+xml)[;,][^[:cntrl:]]*$')
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
  elsif (tg_op = 'INSERT' or new.avatar_url is distinct from old.avatar_url) and not pacta_private.is_own_picture(new.avatar_url) then
    perform pacta_private.reject('external_picture',
      'Profile pictures can only be stored on Pacta: a picture on another site would tell that site who views your profile.',
      422, 'avatar_url');
  end if;
  return new;
end $$;

-- What was stored before the rule: invalid links and outside pictures go (profiles then sync anew).
update public.profiles set social_links = pacta_private.valid_social_links(social_links)
 where social_links is distinct from pacta_private.valid_social_links(social_links);
update public.profiles set avatar_url = null
 where avatar_url is not null and not pacta_private.is_own_picture(avatar_url);

-- After b_rules (server-owned fields), before the growth and sync triggers see the row.
create trigger c_links_and_picture before insert or update on public.profiles
  for each row execute function pacta_private.profile_links_and_picture_check();

revoke execute on function pacta_private.is_valid_social_link(jsonb), pacta_private.valid_social_links(jsonb),
  pacta_private.is_own_picture(text), pacta_private.profile_links_and_picture_check() from public, anon;
grant execute on function pacta_private.is_valid_social_link(jsonb), pacta_private.valid_social_links(jsonb),
  pacta_private.is_own_picture(text), pacta_private.profile_links_and_picture_check() to authenticated, service_role;
