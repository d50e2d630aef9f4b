-- "Is this user Pacta staff?" has one definition. public.is_admin() asks it for the signed-in user
-- (the RLS policies); the server asks it for the user a request is made by
-- (sync-server/auth/authorization.ts), instead of repeating the profile query in its own files.
create or replace function pacta_private.is_admin_user(user_id uuid) returns boolean
language sql stable security definer set search_path = '' as $$
  select exists (select 1 from public.profiles p where p.id = user_id and p.role = 'admin' and not p.deleted)
$$;
revoke all on function pacta_private.is_admin_user(uuid) from public;
grant execute on function pacta_private.is_admin_user(uuid) to service_role;

create or replace function public.is_admin() returns boolean
language sql stable security definer set search_path = '' as $$
  select pacta_private.is_admin_user(auth.uid())
$$;
