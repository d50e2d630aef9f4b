-- Files, the way Supabase Storage keeps them: buckets in storage.buckets, one row per object in
-- storage.objects, and who may read or write an object decided by row-level security on
-- storage.objects. The same statements run on a hosted project (`supabase db push`), whose Storage
-- then enforces the same limits, types and policies.

-- The buckets. Limits and types match BUCKETS in src/domain/files.ts (a test compares them).
insert into storage.buckets (id, name, public, file_size_limit, allowed_mime_types) values
  ('avatars', 'avatars', true, 5242880, array['image/jpeg', 'image/png', 'image/webp']),
  ('brand-logos', 'brand-logos', true, 5242880, array['image/jpeg', 'image/png', 'image/webp']),
  ('portfolio', 'portfolio', true, 52428800,
    array['image/jpeg', 'image/png', 'image/webp', 'video/mp4', 'video/webm', 'video/quicktime']),
  ('deliverables', 'deliverables', false, 104857600,
    array['image/jpeg', 'image/png', 'image/webp', 'video/mp4', 'video/webm', 'video/quicktime', 'application/pdf']),
  ('attachments', 'attachments', false, 26214400,
    array['image/jpeg', 'image/png', 'image/webp', 'video/mp4', 'video/webm', 'video/quicktime', 'application/pdf'])
on conflict (id) do update set
  public = excluded.public,
  file_size_limit = excluded.file_size_limit,
  allowed_mime_types = excluded.allowed_mime_types;

-- A deal's files (drafts, deliverables) are its parties': the brand that owns it and the creators it
-- selected or whose application it accepted. The folder is the deal's id; any other folder name is
-- nobody's deal.
create or replace function pacta_private.may_use_deal_files(folder text, user_id uuid)
returns boolean language sql stable security definer set search_path = '' as $$
  select folder ~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'
     and exists (
       select 1 from public.deals d
        where d.id = folder::uuid
          and (d.brand_id = user_id
               or user_id = any (d.selected_creator_ids)
               or exists (select 1 from public.applications a
                           where a.deal_id = d.id and a.creator_id = user_id and a.status = 'accepted')))
$$;
revoke all on function pacta_private.may_use_deal_files(text, uuid) from public;
grant execute on function pacta_private.may_use_deal_files(text, uuid) to authenticated, service_role;

-- A conversation's attachments are its two participants'. The folder is the conversation's id.
create or replace function pacta_private.may_use_conversation_files(folder text, user_id uuid)
returns boolean language sql stable security definer set search_path = '' as $$
  select folder ~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'
     and exists (select 1 from public.conversations c
                  where c.id = folder::uuid and user_id in (c.user1_id, c.user2_id))
$$;
revoke all on function pacta_private.may_use_conversation_files(text, uuid) from public;
grant execute on function pacta_private.may_use_conversation_files(text, uuid) to authenticated, service_role;

-- Bytes one user's objects take, in every bucket (the per-user quota). Read past RLS: the user may
-- no longer see every object they uploaded (a deal they left), yet each still counts.
create or replace function pacta_private.storage_bytes_used(user_id uuid)
returns bigint language sql stable security definer set search_path = '' as $$
  select coalesce(sum((o.metadata ->> 'size')::bigint), 0)::bigint
    from storage.objects o where o.owner_id = user_id::text
$$;
revoke all on function pacta_private.storage_bytes_used(uuid) from public;
grant execute on function pacta_private.storage_bytes_used(uuid) to authenticated, service_role;

-- Avatars, brand logos and portfolio media: anyone may read them (public buckets); only the owner
-- writes, under a folder named by their user id (`<user id>/…`), Supabase's documented pattern.
create policy storage_public_media_read on storage.objects
  for select to anon, authenticated
  using (bucket_id in ('avatars', 'brand-logos', 'portfolio'));
create policy storage_own_media_insert on storage.objects
  for insert to authenticated
  with check (bucket_id in ('avatars', 'brand-logos', 'portfolio')
              and (storage.foldername(name))[1] = (select auth.uid())::text);
create policy storage_own_media_update on storage.objects
  for update to authenticated
  using (bucket_id in ('avatars', 'brand-logos', 'portfolio')
         and (storage.foldername(name))[1] = (select auth.uid())::text)
  with check (bucket_id in ('avatars', 'brand-logos', 'portfolio')
              and (storage.foldername(name))[1] = (select auth.uid())::text);
create policy storage_own_media_delete on storage.objects
  for delete to authenticated
  using (bucket_id in ('avatars', 'brand-logos', 'portfolio')
         and (storage.foldername(name))[1] = (select auth.uid())::text);

-- Deliverables: the deal's parties read and write under the deal's folder (`<deal id>/…`).
create policy storage_deal_files on storage.objects
  for all to authenticated
  using (bucket_id = 'deliverables'
         and pacta_private.may_use_deal_files((storage.foldername(name))[1], (select auth.uid())))
  with check (bucket_id = 'deliverables'
              and pacta_private.may_use_deal_files((storage.foldername(name))[1], (select auth.uid())));

-- Attachments: the conversation's participants read and write under its folder (`<conversation id>/…`).
create policy storage_conversation_files on storage.objects
  for all to authenticated
  using (bucket_id = 'attachments'
         and pacta_private.may_use_conversation_files((storage.foldername(name))[1], (select auth.uid())))
  with check (bucket_id = 'attachments'
              and pacta_private.may_use_conversation_files((storage.foldername(name))[1], (select auth.uid())));

-- The key signed URLs are signed with, one for every instance (made by the first server to start).
create table pacta_private.storage_url_keys (
  singleton boolean primary key default true check (singleton),
  secret text not null,
  created_at timestamptz not null default now()
);
revoke all on pacta_private.storage_url_keys from public, anon, authenticated;
