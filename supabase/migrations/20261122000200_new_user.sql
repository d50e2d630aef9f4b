-- Sign-up side effects, in the database so they hold whoever creates the auth user (local /auth/v1,
-- hosted Supabase Auth, the dashboard, an admin API call):
-- * a profile row: role creator or brand from the sign-up metadata (anything else, admin included,
--   becomes creator: admin is granted only by an operator command), full name, a unique referral code;
-- * a pending (unqualified) referral when the metadata carries `ref` = someone's referral code;
-- * the social links given at sign-up (known platforms only, non-empty strings);
-- * profiles.email_verified follows auth.users.email_confirmed_at.
-- Functions are security definer with an empty search_path, as Supabase recommends for auth triggers.

create or replace function public.new_referral_code() returns text
language plpgsql volatile set search_path = '' as $$
declare
  code text;
begin
  loop
    -- 6 characters from [A-Z0-9]; not a secret, only needs to be unique and hard to guess in bulk.
    code := upper(substr(translate(encode(uuid_send(gen_random_uuid()), 'base64'), '+/=', ''), 1, 6));
    exit when code ~ '^[A-Z0-9]{6}$'
      and not exists (select 1 from public.profiles p where p.referral_code = code);
  end loop;
  return code;
end $$;

create or replace function public.handle_new_user() returns trigger
language plpgsql security definer set search_path = '' as $$
declare
  meta jsonb := coalesce(new.raw_user_meta_data, '{}'::jsonb);
  wanted_role text := meta ->> 'role';
  ref_code text := upper(btrim(coalesce(meta ->> 'ref', '')));
  referrer uuid;
begin
  insert into public.profiles (id, role, full_name, referral_code, email_verified, social_links)
  values (
    new.id,
    case when wanted_role in ('creator', 'brand') then wanted_role else 'creator' end,
    left(btrim(coalesce(meta ->> 'full_name', '')), 120),
    public.new_referral_code(),
    new.email_confirmed_at is not null,
    (select coalesce(jsonb_object_agg(link.key, left(btrim(link.value #>> '{}'), 2048)), '{}'::jsonb)
       from jsonb_each(case when jsonb_typeof(meta -> 'social_links') = 'object' then meta -> 'social_links' else '{}'::jsonb end) as link
      where link.key in ('linkedin', 'instagram', 'tiktok', 'youtube', 'twitter')
        and jsonb_typeof(link.value) = 'string' and btrim(link.value #>> '{}') <> '')
  )
  on conflict (id) do nothing;

  if ref_code <> '' then
    -- A bad or racing referral must never block the sign-up itself.
    begin
      select p.id into referrer from public.profiles p where p.referral_code = ref_code and p.id <> new.id;
      if referrer is not null then
        insert into public.referrals (referrer_id, referred_user_id, qualified)
        values (referrer, new.id, false)
        on conflict (referred_user_id) do nothing;
      end if;
    exception when others then
      raise warning 'referral for new user % not recorded: %', new.id, sqlerrm;
    end;
  end if;
  return new;
end $$;

create or replace function public.handle_user_email_confirmed() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  update public.profiles set email_verified = (new.email_confirmed_at is not null)
  where id = new.id and email_verified is distinct from (new.email_confirmed_at is not null);
  return new;
end $$;

drop trigger if exists on_auth_user_created on auth.users;
create trigger on_auth_user_created after insert on auth.users
  for each row execute function public.handle_new_user();

drop trigger if exists on_auth_user_email_confirmed on auth.users;
create trigger on_auth_user_email_confirmed after update of email_confirmed_at on auth.users
  for each row execute function public.handle_user_email_confirmed();

revoke execute on function public.handle_new_user(), public.handle_user_email_confirmed(), public.new_referral_code()
  from public, anon, authenticated;
