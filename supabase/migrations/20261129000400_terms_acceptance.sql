-- "Sign-up records acceptance of the Terms": the sign-up form refuses to go on without the box ticked,
-- and now the database keeps which Terms each account accepted, and when by its own clock (the time a
-- device sends is not evidence). One row per account, written by the trigger that creates the profile,
-- from the sign-up metadata's `terms_version` (the Terms page's last-updated day, YYYY-MM-DD).
-- Accounts made by staff tools or from before this have no row: nothing claims they accepted.
create table pacta_private.terms_acceptances (
  user_id uuid primary key references auth.users (id) on delete cascade,
  terms_version text not null check (terms_version ~ '^\d{4}-\d{2}-\d{2}$'),
  accepted_at timestamptz not null default now()
);
revoke all on pacta_private.terms_acceptances from public, anon, authenticated;

create or replace function public.handle_new_user()
 returns trigger
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  meta jsonb := coalesce(new.raw_user_meta_data, '{}'::jsonb);
  wanted_role text := meta ->> 'role';
  ref_code text := upper(btrim(coalesce(meta ->> 'ref', '')));
  terms text := meta ->> 'terms_version';
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

  -- The Terms accepted at sign-up, at the database's time; a malformed version records nothing.
  if jsonb_typeof(meta -> 'terms_version') = 'string' and terms ~ '^\d{4}-\d{2}-\d{2}$' then
    insert into pacta_private.terms_acceptances (user_id, terms_version) values (new.id, terms)
    on conflict (user_id) do nothing;
  end if;

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
end $function$;
