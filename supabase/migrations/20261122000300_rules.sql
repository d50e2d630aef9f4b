-- Business rules that hold whoever writes: server-owned fields, status transitions, counters, XP.
--
-- ERROR CONVENTION (the sync server and the UI rely on it)
--   A write these rules refuse raises SQLSTATE 'PTnnn' (class PT, "Pacta"; PostgREST reads the same
--   class as "answer with HTTP nnn", so hosted Supabase maps it the same way):
--     PT403  not allowed for this user (not the owner, wrong role, a server-owned field)
--     PT404  the row the write refers to does not exist (or is not visible)
--     PT409  conflicts with the current state (deal no longer open, already applied, ticket closed)
--     PT422  not a valid value or transition (deal status jump, completing without a creator)
--   MESSAGE = a machine code in snake_case, e.g. 'deal_not_open';
--   DETAIL  = the sentence the UI shows, word for word from the spec where the spec has one;
--   HINT    = the column concerned, when one column is the cause (server_owned_field, immutable_field).
--   Raise them only through pacta_private.reject(code, message, http_status[, column]).
--
-- WHO IS "THE SERVER"
--   Rows written as the roles `anon` / `authenticated` are client writes, checked here. Anything else
--   (the table owner the sync server connects as, `service_role`, and the cascades that run inside the
--   SECURITY DEFINER functions below) is the server: it may set server-owned fields, but the status
--   transitions and business rules still apply to it.
--   Hence: BEFORE triggers (the checks) are SECURITY INVOKER so `current_user` is the writer; AFTER
--   triggers (the consequences) are SECURITY DEFINER so their writes pass as the server. Checks that
--   must read across RLS go through pacta_private helpers, which only answer inside a trigger.

create schema if not exists pacta_private;
revoke all on schema pacta_private from public;
grant usage on schema pacta_private to authenticated, service_role;

-- ---------------------------------------------------------------------------------------------
-- Helpers
-- ---------------------------------------------------------------------------------------------

create or replace function pacta_private.reject(code text, message text, http_status integer default 422, column_name text default null)
returns void language plpgsql set search_path = '' as $$
begin
  if column_name is null then
    raise exception using errcode = 'PT' || http_status::text, message = code, detail = message;
  end if;
  raise exception using errcode = 'PT' || http_status::text, message = code, detail = message, hint = column_name;
end $$;

-- True when the current statement is not a client's (see "WHO IS THE SERVER" above).
create or replace function public.is_server() returns boolean language sql stable set search_path = '' as $$
  select current_user::text not in ('anon', 'authenticated')
$$;

create or replace function public.is_admin() returns boolean
language sql stable security definer set search_path = '' as $$
  select exists (select 1 from public.profiles p where p.id = auth.uid() and p.role = 'admin' and not p.deleted)
$$;

-- The role of a profile, read past RLS (for checks and policies).
create or replace function pacta_private.profile_role(user_id uuid) returns text
language sql stable security definer set search_path = '' as $$
  select p.role from public.profiles p where p.id = user_id and not p.deleted
$$;

-- Names of the given columns whose values differ between two row images.
create or replace function pacta_private.changed_columns(old_row jsonb, new_row jsonb, cols text[]) returns text[]
language sql immutable set search_path = '' as $$
  select coalesce(array_agg(c order by n), '{}') from unnest(cols) with ordinality as u(c, n)
  where old_row -> c is distinct from new_row -> c
$$;

-- Rejects a client update that changes any of `cols`.
create or replace function pacta_private.forbid_changes(old_row jsonb, new_row jsonb, cols text[], code text default 'server_owned_field')
returns void language plpgsql set search_path = '' as $$
declare
  changed text[] := pacta_private.changed_columns(old_row, new_row, cols);
begin
  if cardinality(changed) = 0 then return; end if;
  if code = 'immutable_field' then
    perform pacta_private.reject(code, format('%s cannot be changed once set.', changed[1]), 403, changed[1]);
  end if;
  perform pacta_private.reject(code, format('%s is managed by Pacta and cannot be changed.', changed[1]), 403, changed[1]);
end $$;

-- Cross-RLS reads for the checks. They refuse to answer outside a trigger, so they are no way around RLS.
create or replace function pacta_private.deal_for_rules(deal_id uuid) returns public.deals
language plpgsql volatile security definer set search_path = '' as $$
declare
  d public.deals;
begin
  if pg_trigger_depth() = 0 then raise exception 'internal helper' using errcode = '42501'; end if;
  -- Locks the deal so a concurrent status change and an application cannot both pass their checks.
  select * into d from public.deals where id = deal_id for no key update;
  return d;
end $$;

create or replace function pacta_private.conversation_for_rules(conversation_id uuid) returns public.conversations
language plpgsql stable security definer set search_path = '' as $$
declare
  c public.conversations;
begin
  if pg_trigger_depth() = 0 then raise exception 'internal helper' using errcode = '42501'; end if;
  select * into c from public.conversations where id = conversation_id;
  return c;
end $$;

create or replace function pacta_private.ticket_for_rules(ticket_id uuid) returns public.support_tickets
language plpgsql volatile security definer set search_path = '' as $$
declare
  t public.support_tickets;
begin
  if pg_trigger_depth() = 0 then raise exception 'internal helper' using errcode = '42501'; end if;
  select * into t from public.support_tickets where id = ticket_id for no key update;
  return t;
end $$;

-- ---------------------------------------------------------------------------------------------
-- Pro membership, XP and levels
-- ---------------------------------------------------------------------------------------------

create or replace function public.is_pro_user(user_id uuid) returns boolean
language sql stable security definer set search_path = '' as $$
  select exists (
      select 1 from public.profiles p
      where p.id = user_id and p.pro_tier <> 'free' and (p.pro_until is null or p.pro_until > now()))
    or exists (
      select 1 from public.user_pro_features u join public.pro_features f on f.id = u.feature_id
      where u.user_id = is_pro_user.user_id and f.name = 'pro_deals' and (u.expires_at is null or u.expires_at > now()))
$$;

-- Grants Pro features for a while (referral rewards, support gestures). Service role, the server's own
-- connection or an admin only. A grant never shortens a longer (or permanent) one already held.
create or replace function public.grant_pro_features(target_user_id uuid, feature_names text[], duration interval)
returns table (feature_name text, expires_at timestamptz)
language plpgsql volatile security definer set search_path = '' as $$
declare
  unknown text;
begin
  -- Inside SECURITY DEFINER current_user is the owner, so the caller is judged by its JWT claims:
  -- none (the server's own connection) or service_role pass; a signed-in user must be an admin.
  if coalesce(auth.role(), 'service_role') <> 'service_role' and not public.is_admin() then
    perform pacta_private.reject('forbidden', 'Only Pacta staff can grant Pro features.', 403);
  end if;
  if duration is null or duration <= interval '0' then
    perform pacta_private.reject('invalid_duration', 'The duration must be positive.', 422);
  end if;
  if not exists (select 1 from public.profiles p where p.id = target_user_id) then
    perform pacta_private.reject('user_not_found', 'User not found.', 404);
  end if;
  select n into unknown from unnest(feature_names) n where not exists (select 1 from public.pro_features f where f.name = n) limit 1;
  if unknown is not null or coalesce(cardinality(feature_names), 0) = 0 then
    perform pacta_private.reject('unknown_pro_feature', format('Unknown Pro feature: %s.', coalesce(unknown, '(none)')), 422);
  end if;
  return query
    insert into public.user_pro_features as u (user_id, feature_id, expires_at)
    select target_user_id, f.id, now() + duration from public.pro_features f where f.name = any (feature_names)
    on conflict (user_id, feature_id) do update
      set expires_at = case when u.expires_at is null then null else greatest(u.expires_at, excluded.expires_at) end
    returning (select f.name from public.pro_features f where f.id = u.feature_id), u.expires_at;
end $$;

-- Levels 1–20 from the spec's thresholds (000 §9); level 20 is the cap. Same table as src/domain/xp.ts.
create or replace function public.level_for_xp(xp integer) returns integer
language sql immutable parallel safe set search_path = '' as $$
  select count(*)::integer
  from unnest(array[0, 100, 300, 600, 1000, 1500, 2100, 2800, 3600, 4500,
                    5500, 6600, 7800, 9100, 10500, 12000, 13600, 15300, 17100, 19000]) as t(threshold)
  where threshold <= greatest(coalesce(xp, 0), 0)
$$;

-- Adds XP, logs it, keeps the level, and tells the user about a level-up. Server only.
-- Awards (DESIGN.md, the first table): DEAL_APPLY 25, PROFILE_COMPLETE 50, DEAL_COMPLETE 100,
-- REFERRAL_QUALIFIED 75, REVIEW 30, PRO_UPGRADE 500, FIRST_DEAL 300.
create or replace function public.award_xp(target_user_id uuid, action text, amount integer, metadata jsonb default '{}'::jsonb)
returns integer language plpgsql volatile security definer set search_path = '' as $$
declare
  old_level integer;
  new_xp integer;
  new_level integer;
begin
  select p.level into old_level from public.profiles p where p.id = target_user_id for no key update;
  if not found then return null; end if;
  update public.profiles p set xp = greatest(p.xp + amount, 0), level = public.level_for_xp(greatest(p.xp + amount, 0))
  where p.id = target_user_id returning p.xp, p.level into new_xp, new_level;
  insert into public.xp_logs (user_id, action, xp_gained, total_xp, metadata)
  values (target_user_id, action, amount, new_xp, coalesce(metadata, '{}'::jsonb));
  if new_level > old_level then
    insert into public.notifications (user_id, type, title, message, data)
    values (target_user_id, 'level_up', 'Level Up!', format('You reached level %s.', new_level),
            jsonb_build_object('level', new_level, 'xp', new_xp));
  end if;
  return new_xp;
end $$;

-- ---------------------------------------------------------------------------------------------
-- profiles
-- ---------------------------------------------------------------------------------------------

create or replace function pacta_private.profiles_check() returns trigger language plpgsql set search_path = '' as $$
begin
  -- Moving to free ends the membership: no dates left behind (spec 000 §4 "Pro status").
  if new.pro_tier = 'free' then
    new.pro_since := null;
    new.pro_until := null;
  end if;
  if public.is_server() then return new; end if;
  if tg_op = 'INSERT' then
    -- Profiles are made by the sign-up trigger; clients have no INSERT grant. Defence in depth only.
    perform pacta_private.reject('forbidden', 'Profiles are created at sign-up.', 403);
  end if;
  if new.role is distinct from old.role and not public.is_admin() then
    perform pacta_private.reject('server_owned_field', 'Your role cannot be changed.', 403, 'role');
  end if;
  if new.verified is distinct from old.verified and not public.is_admin() then
    perform pacta_private.reject('server_owned_field', 'Only Pacta staff can verify an account.', 403, 'verified');
  end if;
  perform pacta_private.forbid_changes(to_jsonb(old), to_jsonb(new), array[
    'email_verified', 'rating', 'total_deals', 'completed_deals', 'pro_tier', 'pro_since', 'pro_until',
    'referral_code', 'xp', 'level', 'referrals_count', 'deleted']);
  return new;
end $$;

create trigger b_rules before insert or update on public.profiles
  for each row execute function pacta_private.profiles_check();

-- ---------------------------------------------------------------------------------------------
-- deals
-- ---------------------------------------------------------------------------------------------

create or replace function pacta_private.deals_check() returns trigger language plpgsql set search_path = '' as $$
declare
  server boolean := public.is_server();
begin
  if tg_op = 'INSERT' then
    if not server then
      if coalesce(pacta_private.profile_role(auth.uid()), '') not in ('brand', 'admin') then
        perform pacta_private.reject('only_brands_create_deals', 'Only brands can create deals.', 403);
      end if;
      if new.brand_id is distinct from auth.uid() then
        perform pacta_private.reject('not_deal_owner', 'A deal is published under your own brand.', 403, 'brand_id');
      end if;
      -- Server-owned fields start at their defaults whatever the client sent.
      new.escrow_status := 'none';
      new.applications_count := 0;
      new.selected_creator_ids := '{}';
      new.winner_id := null;
      new.completed_at := null;
      new.deleted := false;
      if new.status <> 'open' then
        perform pacta_private.reject('invalid_status', 'A new deal starts open.', 422, 'status');
      end if;
    end if;
    return new;
  end if;

  if not server then
    if old.brand_id is distinct from auth.uid() and not public.is_admin() then
      perform pacta_private.reject('not_deal_owner', 'You do not have permission to edit this deal.', 403);
    end if;
    perform pacta_private.forbid_changes(to_jsonb(old), to_jsonb(new), array['brand_id'], 'immutable_field');
    perform pacta_private.forbid_changes(to_jsonb(old), to_jsonb(new), array[
      'escrow_status', 'applications_count', 'selected_creator_ids', 'completed_at', 'deleted']);
    if old.status in ('completed', 'cancelled')
       and to_jsonb(old) - array['updated_at', 'version', 'change_xid']
           is distinct from to_jsonb(new) - array['updated_at', 'version', 'change_xid'] then
      perform pacta_private.reject('deal_closed', format('This deal is %s and can no longer be edited.', old.status), 409);
    end if;
    -- winner_id is recorded by completion only.
    if new.winner_id is distinct from old.winner_id and new.status is not distinct from old.status then
      perform pacta_private.reject('server_owned_field', 'The winner is recorded when the deal is completed.', 403, 'winner_id');
    end if;
  end if;

  if new.status is distinct from old.status then
    if new.status = 'completed' then
      if cardinality(new.selected_creator_ids) = 0 then
        perform pacta_private.reject('no_selected_creator', 'You must select at least one creator before completing the deal.', 422, 'status');
      end if;
      if old.status not in ('open', 'in_progress') then
        perform pacta_private.reject('invalid_status_transition', format('A %s deal cannot be completed.', old.status), 422, 'status');
      end if;
      -- The first selected creator wins unless the writer named another selected creator.
      if new.winner_id is null or not (new.winner_id = any (new.selected_creator_ids)) then
        new.winner_id := new.selected_creator_ids[1];
      end if;
      new.completed_at := now();
    elsif new.status = 'cancelled' then
      if old.status not in ('open', 'in_progress') then
        perform pacta_private.reject('invalid_status_transition', format('A %s deal cannot be cancelled.', old.status), 422, 'status');
      end if;
    elsif server and ((old.status = 'open' and new.status = 'in_progress') or (old.status = 'in_progress' and new.status = 'open')) then
      null; -- follows accepting the first creator / removing the last one (applications_effects)
    else
      perform pacta_private.reject('invalid_status_transition',
        case when new.status = 'in_progress' then 'A deal moves to in progress when you accept a creator.'
             else format('A deal cannot go from %s to %s.', replace(old.status, '_', ' '), replace(new.status, '_', ' ')) end,
        422, 'status');
    end if;
  end if;
  return new;
end $$;

create trigger b_rules before insert or update on public.deals
  for each row execute function pacta_private.deals_check();

-- Counters on the profiles: a brand's deals, everyone's completed deals.
create or replace function pacta_private.deals_effects() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  if tg_op = 'INSERT' then
    update public.profiles set total_deals = total_deals + 1 where id = new.brand_id;
  elsif new.status = 'completed' and old.status <> 'completed' then
    update public.profiles set completed_deals = completed_deals + 1 where id = new.brand_id;
    update public.profiles set completed_deals = completed_deals + 1, total_deals = total_deals + 1
    where id = any (new.selected_creator_ids);
    insert into public.notifications (user_id, type, title, message, data)
    select c, 'deal_completed', 'Deal completed', format('"%s" was marked as completed.', new.title),
           jsonb_build_object('deal_id', new.id, 'winner', c = new.winner_id)
    from unnest(new.selected_creator_ids) as c;
  end if;
  return null;
end $$;

create trigger z_effects after insert or update of status on public.deals
  for each row execute function pacta_private.deals_effects();

-- ---------------------------------------------------------------------------------------------
-- applications
-- ---------------------------------------------------------------------------------------------

create or replace function pacta_private.applications_check() returns trigger language plpgsql set search_path = '' as $$
declare
  server boolean := public.is_server();
  uid uuid := auth.uid();
  d public.deals;
  by_creator boolean;
  by_brand boolean;
begin
  if tg_op = 'INSERT' then
    if not server and new.creator_id is distinct from uid then
      perform pacta_private.reject('not_your_application', 'You can only apply for yourself.', 403, 'creator_id');
    end if;
    if coalesce(pacta_private.profile_role(new.creator_id), '') <> 'creator' then
      perform pacta_private.reject('only_creators_apply', 'Only creators can apply to deals.', 403);
    end if;
    d := pacta_private.deal_for_rules(new.deal_id);
    if d.id is null then
      perform pacta_private.reject('deal_not_found', 'Deal not found.', 404, 'deal_id');
    end if;
    if d.status <> 'open' or d.deleted then
      perform pacta_private.reject('deal_not_open', 'This deal is no longer open for applications.', 409);
    end if;
    if d.pro_only and not public.is_pro_user(new.creator_id) then
      perform pacta_private.reject('pro_required', 'This is a Pro Exclusive Deal: only Pro users can apply. Upgrade to Pro to apply.', 403);
    end if;
    if exists (select 1 from public.applications a where a.deal_id = new.deal_id and a.creator_id = new.creator_id) then
      perform pacta_private.reject('already_applied', 'You have already applied to this deal.', 409);
    end if;
    if new.status <> 'pending' then
      perform pacta_private.reject('invalid_status', 'An application starts pending.', 422, 'status');
    end if;
    if not server then new.deleted := false; end if;
    return new;
  end if;

  perform pacta_private.forbid_changes(to_jsonb(old), to_jsonb(new), array['deal_id', 'creator_id'], 'immutable_field');
  if not server then
    perform pacta_private.forbid_changes(to_jsonb(old), to_jsonb(new), array['deleted']);
  end if;
  by_creator := uid is not null and uid = old.creator_id;
  if new.pitch is distinct from old.pitch and not (server or by_creator) then
    perform pacta_private.reject('not_your_application', 'Only the creator can edit the pitch.', 403, 'pitch');
  end if;
  if new.status is distinct from old.status then
    d := pacta_private.deal_for_rules(old.deal_id);
    by_brand := uid is not null and (uid = d.brand_id or public.is_admin());
    if d.status in ('completed', 'cancelled') then
      perform pacta_private.reject('deal_closed', format('This deal is %s: applications can no longer change.', d.status), 409, 'status');
    end if;
    if old.status = 'withdrawn' then
      perform pacta_private.reject('application_withdrawn', 'This application was withdrawn.', 409, 'status');
    end if;
    if new.status = 'withdrawn' then
      if not (server or by_creator) then
        perform pacta_private.reject('not_your_application', 'Only the creator can withdraw an application.', 403, 'status');
      end if;
    elsif not (server or by_brand) then
      perform pacta_private.reject('not_deal_owner', 'Only the deal''s brand can accept or reject applications.', 403, 'status');
    elsif new.status = 'accepted' and d.max_creators is not null
          and cardinality(d.selected_creator_ids) >= d.max_creators and not (old.creator_id = any (d.selected_creator_ids)) then
      perform pacta_private.reject('max_creators_reached',
        format('This deal already has its maximum of %s creators.', d.max_creators), 409, 'status');
    end if;
  end if;
  return new;
end $$;

create trigger b_rules before insert or update on public.applications
  for each row execute function pacta_private.applications_check();

-- Applying counts, earns XP and tells the brand; a status change keeps the deal's selection in step.
create or replace function pacta_private.applications_effects() returns trigger
language plpgsql security definer set search_path = '' as $$
declare
  d public.deals;
begin
  if tg_op = 'INSERT' then
    update public.deals set applications_count = applications_count + 1 where id = new.deal_id returning * into d;
    perform public.award_xp(new.creator_id, 'DEAL_APPLY', 25, jsonb_build_object('deal_id', new.deal_id, 'application_id', new.id));
    insert into public.notifications (user_id, type, title, message, data)
    select d.brand_id, 'new_application', 'New application',
           format('%s applied to "%s".', coalesce(nullif(p.full_name, ''), 'A creator'), d.title),
           jsonb_build_object('deal_id', d.id, 'application_id', new.id)
    from public.profiles p where p.id = new.creator_id;
    return null;
  end if;
  if new.status is not distinct from old.status then return null; end if;
  if new.status = 'accepted' then
    update public.deals
      set selected_creator_ids = case when new.creator_id = any (selected_creator_ids) then selected_creator_ids
                                      else selected_creator_ids || new.creator_id end,
          status = case when status = 'open' then 'in_progress' else status end
    where id = new.deal_id returning * into d;
  else
    update public.deals
      set selected_creator_ids = array_remove(selected_creator_ids, new.creator_id),
          -- The last selected creator gone: the deal is open for applications again.
          status = case when status = 'in_progress' and array_remove(selected_creator_ids, new.creator_id) = '{}' then 'open'
                        else status end,
          applications_count = applications_count - case when new.status = 'withdrawn' then 1 else 0 end
    where id = new.deal_id returning * into d;
  end if;
  if new.status in ('accepted', 'rejected') then
    insert into public.notifications (user_id, type, title, message, data)
    values (new.creator_id, 'application_' || new.status,
            case when new.status = 'accepted' then 'Application accepted' else 'Application not selected' end,
            case when new.status = 'accepted' then format('Your application to "%s" was accepted.', d.title)
                 else format('Your application to "%s" was not selected.', d.title) end,
            jsonb_build_object('deal_id', new.deal_id, 'application_id', new.id));
  end if;
  return null;
end $$;

create trigger z_effects after insert or update of status on public.applications
  for each row execute function pacta_private.applications_effects();

-- ---------------------------------------------------------------------------------------------
-- saved lists, drafts, notifications
-- ---------------------------------------------------------------------------------------------

-- Empty or duplicate entries are not added (spec 000 §5 "Saved list"); first occurrence wins.
create or replace function pacta_private.saved_lists_check() returns trigger language plpgsql set search_path = '' as $$
begin
  new.items := coalesce((
    select array_agg(item order by first_at)
    from (select btrim(i) as item, min(n) as first_at from unnest(new.items) with ordinality as u(i, n)
          where btrim(coalesce(i, '')) <> '' group by btrim(i)) as s), '{}');
  if tg_op = 'UPDATE' and not public.is_server() then
    perform pacta_private.forbid_changes(to_jsonb(old), to_jsonb(new), array['user_id', 'kind'], 'immutable_field');
  end if;
  return new;
end $$;

create trigger b_rules before insert or update on public.saved_lists
  for each row execute function pacta_private.saved_lists_check();

create or replace function pacta_private.drafts_check() returns trigger language plpgsql set search_path = '' as $$
begin
  if not public.is_server() then
    perform pacta_private.forbid_changes(to_jsonb(old), to_jsonb(new), array['user_id'], 'immutable_field');
  end if;
  return new;
end $$;

create trigger b_rules before update on public.drafts
  for each row execute function pacta_private.drafts_check();

-- A client may only mark its notifications read or dismiss them.
create or replace function pacta_private.notifications_check() returns trigger language plpgsql set search_path = '' as $$
begin
  if not public.is_server() then
    perform pacta_private.forbid_changes(to_jsonb(old), to_jsonb(new), array['user_id', 'type', 'title', 'message', 'data']);
  end if;
  return new;
end $$;

create trigger b_rules before update on public.notifications
  for each row execute function pacta_private.notifications_check();

-- ---------------------------------------------------------------------------------------------
-- conversations and messages
-- ---------------------------------------------------------------------------------------------

create or replace function pacta_private.conversations_check() returns trigger language plpgsql set search_path = '' as $$
begin
  if public.is_server() then return new; end if;
  if tg_op = 'INSERT' then
    if auth.uid() is null or auth.uid() not in (new.user1_id, new.user2_id) then
      perform pacta_private.reject('not_a_participant', 'You can only start conversations you take part in.', 403);
    end if;
    new.last_message := '';
    new.last_message_at := null;
    new.deleted := false;
    return new;
  end if;
  perform pacta_private.forbid_changes(to_jsonb(old), to_jsonb(new), array['user1_id', 'user2_id', 'deal_id'], 'immutable_field');
  perform pacta_private.forbid_changes(to_jsonb(old), to_jsonb(new), array['last_message', 'last_message_at', 'deleted']);
  return new;
end $$;

create trigger b_rules before insert or update on public.conversations
  for each row execute function pacta_private.conversations_check();

create or replace function pacta_private.messages_check() returns trigger language plpgsql set search_path = '' as $$
declare
  c public.conversations;
begin
  if tg_op = 'INSERT' then
    if not public.is_server() then
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
    return new;
  end if;
  if not public.is_server() then
    perform pacta_private.forbid_changes(to_jsonb(old), to_jsonb(new),
      array['conversation_id', 'sender_id', 'recipient_id', 'body', 'deleted'], 'immutable_field');
    if new.read_at is distinct from old.read_at and auth.uid() is distinct from old.recipient_id then
      perform pacta_private.reject('not_recipient', 'Only the recipient can mark a message read.', 403, 'read_at');
    end if;
  end if;
  return new;
end $$;

create trigger b_rules before insert or update on public.messages
  for each row execute function pacta_private.messages_check();

create or replace function pacta_private.messages_effects() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  update public.conversations
    set last_message = left(new.body, 200), last_message_at = new.created_at
  where id = new.conversation_id and (last_message_at is null or last_message_at <= new.created_at);
  return null;
end $$;

create trigger z_effects after insert on public.messages
  for each row execute function pacta_private.messages_effects();

-- ---------------------------------------------------------------------------------------------
-- support tickets and their messages
-- ---------------------------------------------------------------------------------------------

create or replace function pacta_private.support_tickets_check() returns trigger language plpgsql set search_path = '' as $$
begin
  if tg_op = 'INSERT' then
    if not public.is_server() then
      if new.user_id is distinct from auth.uid() then
        perform pacta_private.reject('not_your_ticket', 'You can only open tickets for yourself.', 403, 'user_id');
      end if;
      new.status := 'open';
      new.first_response_at := null;
      new.deleted := false;
    end if;
    -- Pro users' tickets are answered first (spec 001 §4); otherwise the given priority.
    new.is_pro := public.is_pro_user(new.user_id);
    if new.is_pro then new.priority := 'high'; end if;
    return new;
  end if;
  if not public.is_server() then
    perform pacta_private.forbid_changes(to_jsonb(old), to_jsonb(new), array['user_id', 'subject', 'message'], 'immutable_field');
    perform pacta_private.forbid_changes(to_jsonb(old), to_jsonb(new), array['is_pro', 'first_response_at', 'deleted']);
    if new.priority is distinct from old.priority and not public.is_admin() then
      perform pacta_private.reject('server_owned_field', 'Only Pacta staff can change a ticket''s priority.', 403, 'priority');
    end if;
  end if;
  return new;
end $$;

create trigger b_rules before insert or update on public.support_tickets
  for each row execute function pacta_private.support_tickets_check();

create or replace function pacta_private.support_messages_check() returns trigger language plpgsql set search_path = '' as $$
declare
  t public.support_tickets;
begin
  if tg_op = 'UPDATE' then
    if not public.is_server() then
      perform pacta_private.forbid_changes(to_jsonb(old), to_jsonb(new), array['ticket_id', 'user_id', 'message', 'deleted'], 'immutable_field');
    end if;
    return new;
  end if;
  if not public.is_server() then
    if new.user_id is distinct from auth.uid() then
      perform pacta_private.reject('not_your_message', 'You can only reply as yourself.', 403, 'user_id');
    end if;
    new.deleted := false;
  end if;
  t := pacta_private.ticket_for_rules(new.ticket_id);
  if t.id is null or t.deleted then
    perform pacta_private.reject('ticket_not_found', 'Ticket not found.', 404, 'ticket_id');
  end if;
  if new.user_id <> t.user_id and coalesce(pacta_private.profile_role(new.user_id), '') <> 'admin' then
    perform pacta_private.reject('not_your_ticket', 'Only the ticket''s owner and Pacta staff can reply.', 403);
  end if;
  if t.status <> 'open' then
    perform pacta_private.reject('ticket_closed', 'This ticket is closed: replies are possible only while it is open.', 409);
  end if;
  return new;
end $$;

create trigger b_rules before insert or update on public.support_messages
  for each row execute function pacta_private.support_messages_check();

-- The first staff reply is the first response (average response time on the support page).
create or replace function pacta_private.support_messages_effects() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  update public.support_tickets t set first_response_at = new.created_at
  where t.id = new.ticket_id and t.first_response_at is null and t.user_id <> new.user_id
    and exists (select 1 from public.profiles p where p.id = new.user_id and p.role = 'admin');
  return null;
end $$;

create trigger z_effects after insert on public.support_messages
  for each row execute function pacta_private.support_messages_effects();

-- ---------------------------------------------------------------------------------------------
-- reviews
-- ---------------------------------------------------------------------------------------------

create or replace function pacta_private.reviews_check() returns trigger language plpgsql set search_path = '' as $$
declare
  d public.deals;
begin
  if tg_op = 'UPDATE' then
    perform pacta_private.forbid_changes(to_jsonb(old), to_jsonb(new), array['deal_id', 'reviewer_id', 'reviewee_id'], 'immutable_field');
    if not public.is_server() then
      perform pacta_private.forbid_changes(to_jsonb(old), to_jsonb(new), array['deleted']);
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
  if d.status <> 'completed' then
    perform pacta_private.reject('deal_not_completed', 'A deal can be reviewed once it is completed.', 409);
  end if;
  -- The brand reviews one of the deal's creators, or one of them reviews the brand.
  if not ((new.reviewer_id = d.brand_id and new.reviewee_id = any (d.selected_creator_ids))
       or (new.reviewee_id = d.brand_id and new.reviewer_id = any (d.selected_creator_ids))) then
    perform pacta_private.reject('not_a_participant', 'Only the brand and the creators of a completed deal can review each other.', 403);
  end if;
  return new;
end $$;

create trigger b_rules before insert or update on public.reviews
  for each row execute function pacta_private.reviews_check();

create or replace function pacta_private.reviews_effects() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  update public.profiles p set rating = coalesce((
      select round(avg(r.rating), 2) from public.reviews r where r.reviewee_id = new.reviewee_id and not r.deleted), 0)
  where p.id = new.reviewee_id;
  return null;
end $$;

create trigger z_effects after insert or update of rating, deleted on public.reviews
  for each row execute function pacta_private.reviews_effects();

-- ---------------------------------------------------------------------------------------------
-- Who may call what. Postgres lets PUBLIC execute new functions; the server-only ones are closed.
-- (Trigger functions need no EXECUTE grant to fire.)
-- ---------------------------------------------------------------------------------------------

revoke execute on all functions in schema pacta_private from public, anon;
grant execute on all functions in schema pacta_private to authenticated, service_role;
revoke execute on function public.award_xp(uuid, text, integer, jsonb) from public, anon, authenticated;
grant execute on function public.award_xp(uuid, text, integer, jsonb) to service_role;
revoke execute on function public.grant_pro_features(uuid, text[], interval) from public, anon;
grant execute on function public.grant_pro_features(uuid, text[], interval) to authenticated, service_role;
revoke execute on function public.is_pro_user(uuid), public.is_admin(), public.is_server(), public.level_for_xp(integer) from public, anon;
grant execute on function public.is_pro_user(uuid), public.is_admin(), public.is_server(), public.level_for_xp(integer)
  to authenticated, service_role;
