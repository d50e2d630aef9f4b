-- Drafts sent as files. A creator uploads a draft's files to the private deliverables bucket, under the
-- deal's folder (`<deal id>/…`), then submits the draft naming them (deal_events.files).
--
-- Who may do what with a deal's files:
--   * read: the deal's parties, each the files they uploaded and the brand's; the brand every file.
--     Two creators of one deal each hand their own work to the brand: neither sees the other's drafts;
--   * upload: the deal's parties (the brand and its selected or accepted creators), as themselves;
--   * replace or remove: only the one who uploaded it, and only until a draft names it. A submitted
--     draft's files can no more be changed than its note: the brand approves what it saw, and a
--     dispute can point at it.
-- A draft may name only files its author uploaded to this deal's folder. A file that is missing, in
-- another folder or someone else's gets the same refusal, so a submission cannot be used to learn
-- whether a file exists.

-- Whether `user_id` (as storage.objects.owner_id holds it: text) is the brand of the deal of this folder.
create or replace function pacta_private.is_deal_brand(folder text, user_id text)
returns boolean language sql stable security definer set search_path = '' as $$
  select folder ~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'
     and exists (select 1 from public.deals d where d.id = folder::uuid and d.brand_id::text = user_id)
$$;

create or replace function pacta_private.is_submitted_deal_file(folder text, object_name text)
returns boolean language sql stable security definer set search_path = '' as $$
  select folder ~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'
     and exists (select 1 from public.deal_events e
                  where e.deal_id = folder::uuid and e.kind = 'draft' and object_name = any (e.files))
$$;

create or replace function pacta_private.is_own_deal_file(object_name text, deal uuid, author uuid)
returns boolean language sql stable security definer set search_path = '' as $$
  select coalesce(object_name ~ ('^' || deal::text || '/[A-Za-z0-9_-][A-Za-z0-9._-]{0,199}$')
     and exists (select 1 from storage.objects o
                  where o.bucket_id = 'deliverables' and o.name = object_name and o.owner_id = author::text), false)
$$;

revoke all on function pacta_private.is_deal_brand(text, text), pacta_private.is_submitted_deal_file(text, text),
  pacta_private.is_own_deal_file(text, uuid, uuid) from public;
grant execute on function pacta_private.is_deal_brand(text, text), pacta_private.is_submitted_deal_file(text, text),
  pacta_private.is_own_deal_file(text, uuid, uuid) to authenticated, service_role;

drop policy storage_deal_files on storage.objects;

create policy storage_deal_files_read on storage.objects
  for select to authenticated
  using (bucket_id = 'deliverables'
         and pacta_private.may_use_deal_files((storage.foldername(name))[1], (select auth.uid()))
         and (owner_id = (select auth.uid())::text
              or pacta_private.is_deal_brand((storage.foldername(name))[1], (select auth.uid())::text)
              or pacta_private.is_deal_brand((storage.foldername(name))[1], owner_id)));
create policy storage_deal_files_insert on storage.objects
  for insert to authenticated
  with check (bucket_id = 'deliverables'
              and owner_id = (select auth.uid())::text
              and pacta_private.may_use_deal_files((storage.foldername(name))[1], (select auth.uid())));
create policy storage_deal_files_update on storage.objects
  for update to authenticated
  using (bucket_id = 'deliverables'
         and owner_id = (select auth.uid())::text
         and pacta_private.may_use_deal_files((storage.foldername(name))[1], (select auth.uid()))
         and not pacta_private.is_submitted_deal_file((storage.foldername(name))[1], name))
  with check (bucket_id = 'deliverables'
              and owner_id = (select auth.uid())::text
              and pacta_private.may_use_deal_files((storage.foldername(name))[1], (select auth.uid())));
create policy storage_deal_files_delete on storage.objects
  for delete to authenticated
  using (bucket_id = 'deliverables'
         and owner_id = (select auth.uid())::text
         and pacta_private.may_use_deal_files((storage.foldername(name))[1], (select auth.uid()))
         and not pacta_private.is_submitted_deal_file((storage.foldername(name))[1], name));

-- "A draft may name only files its author uploaded to this deal's folder", at most 10, each once.
-- Runs after b_rules, so who may submit a draft at all is answered first.
create or replace function pacta_private.deal_event_files_check() returns trigger
language plpgsql set search_path = '' as $$
begin
  if cardinality(new.files) = 0 then
    return new;
  end if;
  if new.kind <> 'draft' then
    perform pacta_private.reject('files_not_allowed', 'Only a draft carries files.', 422, 'files');
  end if;
  if (select count(distinct f) from unnest(new.files) f) <> cardinality(new.files)
     or exists (select 1 from unnest(new.files) f
                 where not pacta_private.is_own_deal_file(f, new.deal_id, new.author_id)) then
    perform pacta_private.reject('invalid_draft_file',
      'Each file of a draft must be one you uploaded to this deal on Pacta.', 422, 'files');
  end if;
  return new;
end $$;

create trigger c_draft_files before insert on public.deal_events
  for each row execute function pacta_private.deal_event_files_check();
