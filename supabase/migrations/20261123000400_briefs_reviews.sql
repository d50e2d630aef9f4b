-- Campaign briefs, drafts that follow their author across devices, blind two-way reviews, shortlists
-- and saved campaigns with their limits, and invitations to a campaign.
-- Error convention and "who is the server": see 20261122000300_rules.sql. Decisions:
-- docs/decisions/017-drafts-merge-field-by-field.md and 019-blind-reviews-lists-and-invitations.md.

-- ---------------------------------------------------------------------------------------------
-- Reviews: two-way and blind.
-- "Each party of a completed deal reviews the other once within 14 days; neither is visible until
-- both are written or the window closes." A review carries the moment it becomes visible to others
-- (`published_at`, server-owned): on insert, the window's end; when the other side's review arrives,
-- now, for both. Read access is `published_at <= now()` (or being its author), so a direct read is
-- right at any moment; for replication, a review that becomes visible must also CHANGE (the pull
-- pages by change id), which the second review's trigger does, and `publish_due_reviews()` does for
-- reviews whose window closed (the server calls it periodically).
-- ---------------------------------------------------------------------------------------------

alter table public.reviews add column published_at timestamptz;
alter table public.reviews add constraint reviews_content_2000 check (length(content) <= 2000);
create index reviews_deal_idx on public.reviews (deal_id);
create index reviews_due_idx on public.reviews (published_at) where not deleted;

-- Whether the reviewer already reviewed this pair, and whether the other side has: read past RLS
-- (the other side's review is hidden from the writer). Only inside a trigger, like the other helpers.
create or replace function pacta_private.review_pair(p_deal uuid, p_reviewer uuid, p_reviewee uuid,
  out own_exists boolean, out other_exists boolean)
language plpgsql stable security definer set search_path = '' as $$
begin
  if pg_trigger_depth() = 0 then raise exception 'internal helper' using errcode = '42501'; end if;
  own_exists := exists (select 1 from public.reviews r
    where r.deal_id = p_deal and r.reviewer_id = p_reviewer and r.reviewee_id = p_reviewee);
  other_exists := exists (select 1 from public.reviews r
    where r.deal_id = p_deal and r.reviewer_id = p_reviewee and r.reviewee_id = p_reviewer and not r.deleted);
end $$;

create or replace function pacta_private.reviews_check() returns trigger language plpgsql set search_path = '' as $$
declare
  d public.deals;
  pair record;
begin
  if tg_op = 'UPDATE' then
    perform pacta_private.forbid_changes(to_jsonb(old), to_jsonb(new), array['deal_id', 'reviewer_id', 'reviewee_id'], 'immutable_field');
    if not public.is_server() then
      -- Written once: a blind review that could be edited after reading the other side's is not blind.
      if new.rating is distinct from old.rating or new.content is distinct from old.content then
        perform pacta_private.reject('review_final', 'A review cannot be changed once it is written.', 409);
      end if;
      perform pacta_private.forbid_changes(to_jsonb(old), to_jsonb(new), array['deleted', 'published_at']);
    end if;
    return new;
  end if;

  if not public.is_server() then
    if new.reviewer_id is distinct from auth.uid() then
      perform pacta_private.reject('not_your_review', 'You can only review as yourself.', 403, 'reviewer_id');
    end if;
    new.deleted := false;
  end if;
  d := pacta_private.deal_for_rules(new.deal_id);
  if d.id is null then
    perform pacta_private.reject('deal_not_found', 'Deal not found.', 404, 'deal_id');
  end if;
  -- The brand reviews one of the deal's creators, or one of them reviews the brand.
  if not ((new.reviewer_id = d.brand_id and new.reviewee_id = any (d.selected_creator_ids))
       or (new.reviewee_id = d.brand_id and new.reviewer_id = any (d.selected_creator_ids))) then
    perform pacta_private.reject('not_a_participant', 'Only the brand and the creators of a completed deal can review each other.', 403);
  end if;
  if d.status <> 'completed' then
    perform pacta_private.reject('deal_not_completed', 'A deal can be reviewed once it is completed.', 409);
  end if;
  if now() > coalesce(d.completed_at, now()) + interval '14 days' then
    perform pacta_private.reject('review_window_closed', 'Reviews can be written within 14 days of the deal''s completion.', 409);
  end if;
  if length(new.content) > 2000 then
    perform pacta_private.reject('review_too_long', 'A review can be at most 2,000 characters.', 422, 'content');
  end if;
  pair := pacta_private.review_pair(new.deal_id, new.reviewer_id, new.reviewee_id);
  if pair.own_exists then
    perform pacta_private.reject('already_reviewed', 'You have already reviewed this deal.', 409);
  end if;
  -- Visible at once when the other side has written; otherwise when the window closes.
  new.published_at := case when pair.other_exists then now() else coalesce(d.completed_at, now()) + interval '14 days' end;
  return new;
end $$;

create or replace function pacta_private.reviews_effects() returns trigger
language plpgsql security definer set search_path = '' as $$
declare
  deal_title text;
  author text;
begin
  if tg_op = 'INSERT' and not new.deleted then
    -- The second review of a pair publishes the first with it; the update replicates the change.
    update public.reviews r set published_at = new.published_at
     where r.deal_id = new.deal_id and r.reviewer_id = new.reviewee_id and r.reviewee_id = new.reviewer_id
       and not r.deleted and r.published_at > new.published_at;
    select d.title into deal_title from public.deals d where d.id = new.deal_id;
    select coalesce(nullif(p.full_name, ''), 'Your partner') into author from public.profiles p where p.id = new.reviewer_id;
    insert into public.notifications (user_id, type, title, message, data)
    values (new.reviewee_id, 'review_received', 'New review',
            case when new.published_at <= now()
                 then format('%s reviewed you on "%s". Both reviews are now visible.', author, deal_title)
                 else format('%s reviewed you on "%s". You will see it once you have written yours, or when the 14-day review window closes.',
                             author, deal_title) end,
            jsonb_build_object('deal_id', new.deal_id, 'review_id', new.id, 'link', '/deals/' || new.deal_id));
    -- XP for writing a review is the growth rules' (one award per review, its subject the review's id).
  end if;
  -- A profile's rating is the average of the reviews others can see.
  update public.profiles p set rating = coalesce((
      select round(avg(r.rating), 2) from public.reviews r
      where r.reviewee_id = new.reviewee_id and not r.deleted and r.published_at <= now()), 0)
  where p.id = new.reviewee_id;
  return null;
end $$;

drop trigger z_effects on public.reviews;
create trigger z_effects after insert or update of rating, deleted, published_at on public.reviews
  for each row execute function pacta_private.reviews_effects();

drop policy reviews_read on public.reviews;
create policy reviews_read on public.reviews for select to authenticated using (
  reviewer_id = (select auth.uid()) or published_at <= now() or (select public.is_admin()));

-- Reviews whose window closed without the other side's: touched once so the change reaches every
-- device (and the rating counts them). Run by the server's own connection; returns how many.
create or replace function public.publish_due_reviews() returns integer
language plpgsql set search_path = '' as $$
declare
  n integer;
begin
  update public.reviews r set published_at = r.published_at
   where r.published_at <= now() and r.updated_at < r.published_at and not r.deleted;
  get diagnostics n = row_count;
  return n;
end $$;
revoke execute on function public.publish_due_reviews() from public, anon, authenticated;

-- ---------------------------------------------------------------------------------------------
-- Saved lists: the limit, and campaign invitations.
-- "Free: 10 entries per saved list; Pro: unlimited ('unlimited shortlists')." Only growing past the
-- limit is refused, so a lapsed Pro member can still prune a longer list.
-- Invitations: the brand's own list of kind 'campaign_invites' holds "<deal id>:<creator id>"; an
-- entry added is checked here and tells the creator (a notification). Kept in the brand's list, so
-- inviting works offline, replicates to the brand's devices, and shows as "invited" among the deal's
-- applicants without another collection.
-- ---------------------------------------------------------------------------------------------

alter table public.saved_lists drop constraint saved_lists_kind_check;
alter table public.saved_lists add constraint saved_lists_kind_check
  check (kind in ('shortlist', 'saved_campaigns', 'skipped_deals', 'campaign_invites'));

-- What stops `brand` inviting `creator` to `deal`, or null. Read past RLS; only inside a trigger.
create or replace function pacta_private.invitation_problem(p_brand uuid, p_deal uuid, p_creator uuid)
returns text language plpgsql stable security definer set search_path = '' as $$
declare
  d public.deals;
begin
  if pg_trigger_depth() = 0 then raise exception 'internal helper' using errcode = '42501'; end if;
  select * into d from public.deals where id = p_deal;
  if d.id is null or d.deleted or d.brand_id <> p_brand then return 'not_deal_owner'; end if;
  if d.status <> 'open' then return 'deal_not_open'; end if;
  if coalesce(pacta_private.profile_role(p_creator), '') <> 'creator' then return 'not_a_creator'; end if;
  if d.pro_only and not public.is_pro_user(p_creator) then return 'pro_required'; end if;
  return null;
end $$;

create or replace function pacta_private.saved_lists_limits() returns trigger language plpgsql set search_path = '' as $$
declare
  item text;
  parts text[];
  problem text;
begin
  if new.kind in ('shortlist', 'saved_campaigns') and cardinality(new.items) > 10
     and (tg_op = 'INSERT' or cardinality(new.items) > cardinality(old.items))
     and not public.is_pro_user(new.user_id) then
    perform pacta_private.reject('list_limit_reached',
      format('Your %s is full: a free account keeps up to 10 entries per list. Upgrade to Pro for unlimited lists.',
             case when new.kind = 'shortlist' then 'Shortlist' else 'Saved Campaigns list' end), 403, 'items');
  end if;
  if new.kind = 'campaign_invites' and not new.deleted then
    for item in select i from unnest(new.items) i
                except select i from unnest(case when tg_op = 'UPDATE' then old.items else '{}'::text[] end) i loop
      parts := regexp_match(item, '^([0-9a-fA-F-]{36}):([0-9a-fA-F-]{36})$');
      if parts is null then
        perform pacta_private.reject('invalid_invitation', 'An invitation names a campaign and a creator.', 422, 'items');
      end if;
      problem := pacta_private.invitation_problem(new.user_id, parts[1]::uuid, parts[2]::uuid);
      if problem = 'not_deal_owner' then
        perform pacta_private.reject(problem, 'You can only invite creators to your own campaigns.', 403, 'items');
      elsif problem = 'deal_not_open' then
        perform pacta_private.reject(problem, 'This campaign is no longer open for applications.', 409, 'items');
      elsif problem = 'not_a_creator' then
        perform pacta_private.reject(problem, 'Only creators can be invited to a campaign.', 422, 'items');
      elsif problem = 'pro_required' then
        perform pacta_private.reject(problem, 'This campaign is for Pro creators only, and this creator is not Pro.', 409, 'items');
      end if;
    end loop;
  end if;
  return new;
end $$;

-- After b_rules (which trims and de-duplicates), so the limit counts real entries.
create trigger c_limits before insert or update on public.saved_lists
  for each row execute function pacta_private.saved_lists_limits();

create or replace function pacta_private.saved_lists_invite_effects() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  insert into public.notifications (user_id, type, title, message, data)
  select (m[2])::uuid, 'campaign_invite', 'Campaign invitation',
         format('%s invited you to apply to "%s".', coalesce(nullif(b.full_name, ''), 'A brand'), d.title),
         jsonb_build_object('deal_id', d.id, 'brand_id', d.brand_id, 'link', '/deals/' || d.id)
  from (select regexp_match(i, '^([0-9a-fA-F-]{36}):([0-9a-fA-F-]{36})$') as m
        from (select i from unnest(new.items) i
              except select i from unnest(case when tg_op = 'UPDATE' then old.items else '{}'::text[] end) i) as added) as x
  join public.deals d on d.id = (m[1])::uuid
  join public.profiles b on b.id = d.brand_id;
  return null;
end $$;

create trigger z_invite_effects after insert or update of items on public.saved_lists
  for each row when (new.kind = 'campaign_invites' and not new.deleted)
  execute function pacta_private.saved_lists_invite_effects();

-- ---------------------------------------------------------------------------------------------
-- Drafts: a campaign brief's payload holds its fields as { "fields": { name: { value, at, device } } }.
-- Two devices editing one draft merge field by field: the later edit of a field wins (ties: the
-- greater device name), a field edited on one device only is kept. The client merges a push
-- conflict the same way (src/domain/brief-draft.ts); this trigger makes the rule hold whoever writes.
-- ---------------------------------------------------------------------------------------------

-- Whether field entry `a` is at least as recent as `b` (time, then device name in byte order).
create or replace function pacta_private.draft_entry_wins(a jsonb, b jsonb) returns boolean
language sql immutable set search_path = '' as $$
  select case
    when jsonb_typeof(b) is distinct from 'object' then true
    when jsonb_typeof(a) is distinct from 'object' then false
    else (coalesce(case when jsonb_typeof(a -> 'at') = 'number' then (a ->> 'at')::numeric end, 0),
          coalesce(a ->> 'device', '') collate "C")
      >= (coalesce(case when jsonb_typeof(b -> 'at') = 'number' then (b ->> 'at')::numeric end, 0),
          coalesce(b ->> 'device', '') collate "C")
  end
$$;

create or replace function pacta_private.merge_draft_fields(mine jsonb, theirs jsonb) returns jsonb
language sql immutable set search_path = '' as $$
  select coalesce(jsonb_object_agg(k, case when pacta_private.draft_entry_wins(mine -> k, theirs -> k) then mine -> k else theirs -> k end), '{}'::jsonb)
  from (select jsonb_object_keys(mine) as k union select jsonb_object_keys(theirs)) as keys
$$;

create or replace function pacta_private.drafts_merge() returns trigger language plpgsql set search_path = '' as $$
declare
  merged jsonb;
begin
  if new.kind <> 'campaign_brief' or new.deleted or old.deleted
     or jsonb_typeof(new.payload -> 'fields') is distinct from 'object'
     or jsonb_typeof(old.payload -> 'fields') is distinct from 'object' then
    return new;
  end if;
  merged := pacta_private.merge_draft_fields(new.payload -> 'fields', old.payload -> 'fields');
  new.payload := jsonb_set(new.payload, '{fields}', merged);
  if jsonb_typeof(merged -> 'title' -> 'value') = 'string' then
    new.title := left(merged -> 'title' ->> 'value', 200);
  end if;
  return new;
end $$;

create trigger c_merge_fields before update on public.drafts
  for each row execute function pacta_private.drafts_merge();

-- ---------------------------------------------------------------------------------------------
-- Campaign briefs (deals made by the wizard: a campaign with deliverables). The wizard checks the
-- same rules on each step; these keep them whoever writes. Rules of the brief: niches 1 to 3;
-- deliverables from the six types; budget per creator at least $50; a timeline. Any deal's product
-- URL, when given, is a web address.
-- ---------------------------------------------------------------------------------------------

create or replace function pacta_private.campaign_brief_check() returns trigger language plpgsql set search_path = '' as $$
begin
  if public.is_server() then return new; end if;
  if nullif(btrim(coalesce(new.product_url, '')), '') is not null
     and new.product_url !~* '^https?://[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*(:[0-9]+)?([/?#][^[:space:]]*)?$' then
    perform pacta_private.reject('invalid_product_url', 'Enter a valid URL, like https://example.com.', 422, 'product_url');
  end if;
  if tg_op = 'UPDATE' or not new.is_campaign or cardinality(new.deliverables) = 0 then
    return new;
  end if;
  if cardinality(new.niches) > 3 then
    perform pacta_private.reject('too_many_niches', 'Choose up to 3 niches.', 422, 'niches');
  end if;
  if not new.deliverables <@ array['Instagram Post', 'Instagram Story', 'TikTok Video', 'YouTube Video', 'Blog Post', 'Twitter Post'] then
    perform pacta_private.reject('invalid_deliverable', 'Choose deliverables from the listed types.', 422, 'deliverables');
  end if;
  if new.amount_cents < 5000 then
    perform pacta_private.reject('budget_too_low', 'The budget per creator must be at least $50.', 422, 'amount_cents');
  end if;
  if new.timeline is null then
    perform pacta_private.reject('timeline_required', 'Choose a timeline.', 422, 'timeline');
  end if;
  return new;
end $$;

create trigger c_campaign_brief before insert or update of product_url on public.deals
  for each row execute function pacta_private.campaign_brief_check();

revoke execute on all functions in schema pacta_private from public, anon;
grant execute on all functions in schema pacta_private to authenticated, service_role;
