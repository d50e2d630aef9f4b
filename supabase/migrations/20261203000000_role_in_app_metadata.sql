-- The profile's role, copied into the user's server-set app_metadata, so the access token says which
-- role the server decided. A device signing in for the first time learns from its session which
-- collections it may never write (and so replicates pull-only) without waiting for its profile to
-- sync. Users cannot edit app_metadata; profiles.role changes only by staff (profiles_guard).
-- Hosted Supabase puts app_metadata in its access tokens the same way.

create or replace function pacta_private.copy_role_to_app_metadata() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  update auth.users
     set raw_app_meta_data = coalesce(raw_app_meta_data, '{}'::jsonb) || jsonb_build_object('role', new.role)
   where id = new.id
     and (raw_app_meta_data ->> 'role') is distinct from new.role;
  return null;
end $$;
revoke execute on function pacta_private.copy_role_to_app_metadata() from public, anon, authenticated;

drop trigger if exists profiles_role_to_app_metadata on public.profiles;
create trigger profiles_role_to_app_metadata after insert or update of role on public.profiles
  for each row execute function pacta_private.copy_role_to_app_metadata();

-- Every existing account: its next token carries the role.
update auth.users u
   set raw_app_meta_data = coalesce(u.raw_app_meta_data, '{}'::jsonb) || jsonb_build_object('role', p.role)
  from public.profiles p
 where p.id = u.id
   and (u.raw_app_meta_data ->> 'role') is distinct from p.role;
