-- The rules of the deal's work log (docs/decisions/030-the-deals-work-is-a-log.md). Each event is
-- checked against the state derived from the earlier ones, under the application's row lock, and the
-- state moves on the application in the same statement. Whoever appends, the event's author is the
-- signed-in user; what the server does on its own (terms version 1, an automatic confirmation) has
-- no author.

-- The defaults of a terms sheet; src/domain/deal-work.ts states the same (tests/deals/ compares).
create or replace function pacta_private.deal_work_defaults() returns jsonb
language sql immutable set search_path = '' as $$
  select jsonb_build_object('revision_rounds', 2, 'approval_window_hours', 72, 'payout_hold_hours', 72)
$$;

-- A sheet's shape, as src/domain/collections/deal-work.ts (termsSheet) says.
create or replace function pacta_private.valid_terms(t jsonb) returns boolean
language sql immutable set search_path = '' as $$
  select jsonb_typeof(t) = 'object'
     and jsonb_typeof(t -> 'deliverables') = 'array'
     and jsonb_array_length(t -> 'deliverables') between 1 and 20
     and (select bool_and(jsonb_typeof(x) = 'object'
                          and length(coalesce(x ->> 'id', '')) between 1 and 40
                          and length(coalesce(x ->> 'title', '')) between 1 and 200
                          and coalesce(x ->> 'due_date', '') ~ '^\d{4}-\d{2}-\d{2}$')
            from jsonb_array_elements(t -> 'deliverables') x)
     and (select count(distinct x ->> 'id') = jsonb_array_length(t -> 'deliverables')
            from jsonb_array_elements(t -> 'deliverables') x)
     and t ->> 'usage_rights' in ('organic_only', 'paid_ads', 'perpetual')
     and (t -> 'usage_days' = 'null'::jsonb or (jsonb_typeof(t -> 'usage_days') = 'number' and (t ->> 'usage_days')::numeric between 1 and 3650))
     and (t ->> 'usage_rights' <> 'paid_ads' or jsonb_typeof(t -> 'usage_days') = 'number')
     and jsonb_typeof(t -> 'exclusivity_days') = 'number' and (t ->> 'exclusivity_days')::numeric between 0 and 365
     and jsonb_typeof(t -> 'revision_rounds') = 'number' and (t ->> 'revision_rounds')::numeric between 0 and 10
     and jsonb_typeof(t -> 'approval_window_hours') = 'number' and (t ->> 'approval_window_hours')::numeric between 1 and 720
     and jsonb_typeof(t -> 'payout_hold_hours') = 'number' and (t ->> 'payout_hold_hours')::numeric between 0 and 720
$$;

create or replace function pacta_private.is_web_link(url text) returns boolean
language sql immutable set search_path = '' as $$
  select length(url) <= 2048 and url ~* '^https?://[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*(:[0-9]+)?([/?#][^[:space:]]*)?$'
$$;

-- The sheet of an application's given version.
create or replace function pacta_private.terms_of(application uuid, v integer) returns jsonb
language sql stable security definer set search_path = '' as $$
  select e.terms from public.deal_events e where e.application_id = application and e.kind = 'terms' and e.terms_version = v
$$;

-- The work map for a newly agreed sheet: deliverables kept keep their progress (and the extra rounds
-- the creator agreed to); new ones start; ones no longer in the sheet drop out.
create or replace function pacta_private.work_for_terms(work jsonb, previous jsonb, terms jsonb) returns jsonb
language sql immutable set search_path = '' as $$
  select coalesce(jsonb_object_agg(x ->> 'id',
           case when work ? (x ->> 'id') then
             jsonb_set(work -> (x ->> 'id'), '{rounds_included}', to_jsonb(greatest(0,
               ((work -> (x ->> 'id') ->> 'rounds_included')::integer
                - coalesce((previous ->> 'revision_rounds')::integer, 0)
                + (terms ->> 'revision_rounds')::integer))))
           else jsonb_build_object('status', 'not_started', 'rounds_used', 0,
                  'rounds_included', (terms ->> 'revision_rounds')::integer, 'draft_id', null, 'live_id', null,
                  'live_url', null, 'confirm_due_at', null) end), '{}'::jsonb)
  from jsonb_array_elements(terms -> 'deliverables') x
$$;

create or replace function pacta_private.deal_work_notify(who uuid, kind text, title text, message text,
  deal uuid, application uuid) returns void
language sql volatile security definer set search_path = '' as $$
  insert into public.notifications (user_id, type, title, message, data)
  values (who, kind, title, message,
          jsonb_build_object('deal_id', deal, 'application_id', application, 'link', '/deals/' || deal))
$$;

-- ---------------------------------------------------------------------------------------------
-- applications: the proposed price; accepting fixes the creator's price and starts the terms
-- ---------------------------------------------------------------------------------------------

create or replace function pacta_private.applications_offer_rules() returns trigger language plpgsql set search_path = '' as $$
declare
  d public.deals;
begin
  if tg_op = 'INSERT' then
    d := pacta_private.deal_for_rules(new.deal_id);
    -- "An application carries the creator's proposed price, by default the deal's amount."
    new.proposed_price_cents := coalesce(new.proposed_price_cents, d.amount_cents);
    if new.proposed_price_cents < 100 then
      perform pacta_private.reject('price_too_low', 'The price must be at least $1.', 422, 'proposed_price_cents');
    end if;
    new.offer_price_cents := new.proposed_price_cents;
    new.offer_due_date := null;
    new.offer_by := 'creator';
    new.offer_id := null;
    new.agreed_price_cents := null;
    new.agreed_due_date := null;
    new.terms_version := 0;
    new.terms_accepted_by := '{}';
    new.terms_agreed_version := 0;
    new.work := '{}'::jsonb;
    new.delivered_at := null;
    new.payout_due_at := null;
    return new;
  end if;
  if not public.is_server() then
    perform pacta_private.forbid_changes(to_jsonb(old), to_jsonb(new), array['proposed_price_cents'], 'immutable_field');
    perform pacta_private.forbid_changes(to_jsonb(old), to_jsonb(new), array['offer_price_cents', 'offer_due_date',
      'offer_by', 'offer_id', 'agreed_price_cents', 'agreed_due_date', 'terms_version', 'terms_accepted_by',
      'terms_agreed_version', 'work', 'delivered_at', 'payout_due_at']);
  end if;
  if new.status = 'accepted' and old.status is distinct from 'accepted' and new.agreed_price_cents is null then
    -- "Accepting an offer fixes that creator's price": the brand's Accept takes the creator's offer;
    -- a counter-offer of the brand's own waits for the creator.
    if old.offer_by = 'brand' and not public.is_server() then
      perform pacta_private.reject('offer_not_accepted',
        'The creator has not accepted your counter-offer yet.', 409, 'status');
    end if;
    new.agreed_price_cents := coalesce(old.offer_price_cents, old.proposed_price_cents);
    new.agreed_due_date := old.offer_due_date;
    new.offer_price_cents := null;
    new.offer_due_date := null;
    new.offer_by := null;
    new.offer_id := null;
  end if;
  return new;
end $$;

create trigger c_offer_rules before insert or update on public.applications
  for each row execute function pacta_private.applications_offer_rules();

-- "On acceptance, both sides accept a terms sheet": the server writes version 1 from the brief.
create or replace function pacta_private.applications_start_terms() returns trigger
language plpgsql security definer set search_path = '' as $$
declare
  d public.deals;
  due date;
begin
  if new.status <> 'accepted' or old.status = 'accepted' or new.terms_version > 0 then return null; end if;
  select * into d from public.deals where id = new.deal_id;
  -- The agreed due date, or two weeks from acceptance (the brief's deadline is free text).
  due := coalesce(new.agreed_due_date, (now() + interval '14 days')::date);
  insert into public.deal_events (id, application_id, deal_id, author_id, kind, terms, terms_version)
  values (gen_random_uuid(), new.id, new.deal_id, null, 'terms',
          jsonb_build_object(
            'deliverables', (select coalesce(jsonb_agg(jsonb_build_object('id', 'd' || n, 'title', left(t, 200), 'due_date', due) order by n), '[]'::jsonb)
                               from unnest(case when cardinality(d.deliverables) > 0 then d.deliverables else array['Content'] end)
                                    with ordinality as x(t, n)),
            'usage_rights', 'organic_only', 'usage_days', null, 'exclusivity_days', 0)
          || pacta_private.deal_work_defaults(),
          1);
  return null;
end $$;

create trigger z_start_terms after update of status on public.applications
  for each row execute function pacta_private.applications_start_terms();

-- ---------------------------------------------------------------------------------------------
-- deal_events: each event checked against the state so far, and the state moved on
-- ---------------------------------------------------------------------------------------------

-- Moves an application's server-kept state (the columns named in `changes`) as the server: only from
-- inside the deal_events rules, never called by a client.
create or replace function pacta_private.move_application(app uuid, changes jsonb) returns public.applications
language plpgsql volatile security definer set search_path = '' as $$
declare
  result public.applications;
begin
  if pg_trigger_depth() = 0 then raise exception 'internal helper' using errcode = '42501'; end if;
  update public.applications t
     set (status, offer_price_cents, offer_due_date, offer_by, offer_id, agreed_price_cents, agreed_due_date,
          terms_version, terms_accepted_by, terms_agreed_version, work, delivered_at, payout_due_at) =
         (select r.status, r.offer_price_cents, r.offer_due_date, r.offer_by, r.offer_id, r.agreed_price_cents,
                 r.agreed_due_date, r.terms_version, r.terms_accepted_by, r.terms_agreed_version, r.work,
                 r.delivered_at, r.payout_due_at
            from jsonb_populate_record(t, changes) r)
   where t.id = app
  returning * into result;
  return result;
end $$;

-- Not SECURITY DEFINER: public.is_server() tells a client's push (refused anything but its own
-- appends) from the server's own events; the client reads the application under RLS, so a
-- stranger's event finds nothing.
create or replace function pacta_private.deal_events_check() returns trigger
language plpgsql set search_path = '' as $$
declare
  uid uuid := auth.uid();
  a public.applications;
  d public.deals;
  party text;
  other uuid;
  w jsonb;
  agreed jsonb;
  previous jsonb;
  accepted text[];
  creator_name text;
begin
  if tg_op = 'UPDATE' then
    -- "Appended, never edited."
    if not public.is_server() then
      perform pacta_private.forbid_changes(to_jsonb(old), to_jsonb(new), array['application_id', 'deal_id', 'author_id',
        'kind', 'price_cents', 'due_date', 'terms', 'terms_version', 'deliverable_id', 'ref_id', 'note', 'links', 'files',
        'rounds', 'deleted'], 'immutable_field');
    end if;
    return new;
  end if;

  select * into a from public.applications where id = new.application_id for update;
  if a.id is null or a.deleted then
    perform pacta_private.reject('application_not_found', 'Application not found.', 404, 'application_id');
  end if;
  d := pacta_private.deal_for_rules(a.deal_id);
  if new.deal_id is distinct from a.deal_id then
    perform pacta_private.reject('wrong_deal', 'This step belongs to another deal.', 422, 'deal_id');
  end if;
  new.deleted := false;
  if public.is_server() then
    -- The server's own events have no author; one it appends for a party names that party.
    uid := new.author_id;
  elsif new.author_id is distinct from uid then
    perform pacta_private.reject('not_your_step', 'You can only act as yourself.', 403, 'author_id');
  end if;
  party := case when uid is null then 'server' when uid = a.creator_id then 'creator' when uid = d.brand_id then 'brand' end;
  if party is null then
    perform pacta_private.reject('not_a_participant', 'Only the deal''s brand and this creator take part.', 403);
  end if;
  if d.status = 'cancelled' or d.deleted then
    perform pacta_private.reject('deal_closed', 'This deal is cancelled.', 409);
  end if;
  other := case when party = 'creator' then d.brand_id else a.creator_id end;
  select coalesce(nullif(p.full_name, ''), 'The creator') into creator_name from public.profiles p where p.id = a.creator_id;

  if new.kind in ('offer', 'offer_accepted') then
    if a.status <> 'pending' then
      perform pacta_private.reject('offer_closed',
        case when a.status = 'accepted' then 'The price is already agreed: change the terms instead.'
             else 'This application is closed.' end, 409);
    end if;
    if party = 'server' then
      perform pacta_private.reject('not_a_participant', 'Only the brand and the creator make offers.', 403);
    end if;
  elsif a.status <> 'accepted' then
    perform pacta_private.reject('not_accepted', 'This creator has not been accepted on the deal.', 409);
  end if;

  if new.kind = 'offer' then
    -- "Either side can counter, with a price and a due date."
    if new.price_cents is null or new.price_cents < 100 then
      perform pacta_private.reject('price_too_low', 'The price must be at least $1.', 422, 'price_cents');
    end if;
    if new.due_date is not null and new.due_date < current_date then
      perform pacta_private.reject('due_date_past', 'Choose a due date from today on.', 422, 'due_date');
    end if;
    perform pacta_private.move_application(a.id, jsonb_build_object('offer_price_cents', new.price_cents,
      'offer_due_date', new.due_date, 'offer_by', party, 'offer_id', new.id));
    perform pacta_private.deal_work_notify(other, 'offer_received', 'New offer',
      format('%s on "%s": %s.', case when party = 'brand' then 'The brand made an offer' else creator_name || ' made an offer' end,
             d.title, to_char(new.price_cents / 100.0, 'FM$999,999,999,990.00')), d.id, a.id);

  elsif new.kind = 'offer_accepted' then
    if a.offer_by = party then
      perform pacta_private.reject('own_offer', 'This is your own offer: the other side accepts it.', 409, 'ref_id');
    end if;
    if new.ref_id is distinct from a.offer_id then
      perform pacta_private.reject('offer_changed', 'The offer changed: look at the newest one.', 409, 'ref_id');
    end if;
    -- Accepting fixes the price; the application is accepted as the server (max_creators still holds).
    perform pacta_private.move_application(a.id, jsonb_build_object('agreed_price_cents', a.offer_price_cents,
      'agreed_due_date', a.offer_due_date, 'offer_price_cents', null, 'offer_due_date', null, 'offer_by', null,
      'offer_id', null, 'status', 'accepted'));
    perform pacta_private.deal_work_notify(other, 'offer_accepted', 'Offer accepted',
      format('The offer of %s on "%s" was accepted. Next: accept the terms.',
             to_char(a.offer_price_cents / 100.0, 'FM$999,999,999,990.00'), d.title), d.id, a.id);

  elsif new.kind = 'terms' then
    if new.terms is null or not pacta_private.valid_terms(new.terms) then
      perform pacta_private.reject('invalid_terms', 'The terms sheet is incomplete: check every field.', 422, 'terms');
    end if;
    if new.terms_version is distinct from a.terms_version + 1 then
      perform pacta_private.reject('terms_changed', 'The terms changed meanwhile: look at the newest version.', 409, 'terms_version');
    end if;
    perform pacta_private.move_application(a.id, jsonb_build_object('terms_version', new.terms_version,
      'terms_accepted_by', '[]'::jsonb));
    if party <> 'server' then
      perform pacta_private.deal_work_notify(other, 'terms_changed', 'New terms to accept',
        format('The terms of "%s" changed (version %s): both sides accept them again.', d.title, new.terms_version), d.id, a.id);
    end if;

  elsif new.kind = 'terms_accepted' then
    if party = 'server' then
      perform pacta_private.reject('not_a_participant', 'Only the brand and the creator accept terms.', 403);
    end if;
    if new.terms_version is distinct from a.terms_version or a.terms_version = 0 then
      perform pacta_private.reject('terms_changed', 'The terms changed meanwhile: look at the newest version.', 409, 'terms_version');
    end if;
    if party = any (a.terms_accepted_by) then
      perform pacta_private.reject('terms_already_accepted', 'You already accepted these terms.', 409);
    end if;
    accepted := a.terms_accepted_by || party;
    if cardinality(accepted) = 2 then
      previous := case when a.terms_agreed_version > 0 then pacta_private.terms_of(a.id, a.terms_agreed_version) end;
      perform pacta_private.move_application(a.id, jsonb_build_object('terms_accepted_by', to_jsonb(accepted),
        'terms_agreed_version', a.terms_version,
        'work', pacta_private.work_for_terms(a.work, previous, pacta_private.terms_of(a.id, a.terms_version))));
      perform pacta_private.deal_work_notify(other, 'terms_accepted', 'Terms accepted',
        format('Both sides accepted the terms of "%s".', d.title), d.id, a.id);
    else
      perform pacta_private.move_application(a.id, jsonb_build_object('terms_accepted_by', to_jsonb(accepted)));
      perform pacta_private.deal_work_notify(other, 'terms_to_accept', 'Terms to accept',
        format('The %s accepted the terms of "%s": your turn.', party, d.title), d.id, a.id);
    end if;

  else
    -- Submissions: per deliverable of the terms in force.
    if a.terms_agreed_version = 0 then
      perform pacta_private.reject('terms_not_agreed', 'Both sides accept the terms before work is submitted.', 409);
    end if;
    w := a.work -> new.deliverable_id;
    if new.deliverable_id is null or w is null then
      perform pacta_private.reject('unknown_deliverable', 'This deliverable is not in the agreed terms.', 422, 'deliverable_id');
    end if;
    agreed := pacta_private.terms_of(a.id, a.terms_agreed_version);
    if new.kind in ('draft', 'extra_rounds', 'live_link') and party <> 'creator' then
      perform pacta_private.reject('creator_only', 'Only the creator submits work.', 403);
    end if;
    if new.kind in ('changes_requested', 'approved') and party <> 'brand' then
      perform pacta_private.reject('brand_only', 'Only the brand reviews drafts.', 403);
    end if;
    if new.kind = 'live_confirmed' and party not in ('brand', 'server') then
      perform pacta_private.reject('brand_only', 'Only the brand confirms the live link.', 403);
    end if;

    if new.kind = 'draft' then
      if w ->> 'status' not in ('not_started', 'draft_submitted', 'changes_requested') then
        perform pacta_private.reject('already_approved', 'This deliverable is already approved.', 409, 'deliverable_id');
      end if;
      if cardinality(new.links) + cardinality(new.files) = 0 then
        perform pacta_private.reject('draft_empty', 'Add a file or a link to the draft.', 422, 'links');
      end if;
      if exists (select 1 from unnest(new.links) l where not pacta_private.is_web_link(l)) then
        perform pacta_private.reject('invalid_link', 'Enter a valid link, like https://example.com/video.', 422, 'links');
      end if;
      w := w || jsonb_build_object('status', 'draft_submitted', 'draft_id', new.id);
      perform pacta_private.deal_work_notify(d.brand_id, 'draft_submitted', 'Draft to review',
        format('%s submitted a draft of %s for "%s".', creator_name,
               (select x ->> 'title' from jsonb_array_elements(agreed -> 'deliverables') x where x ->> 'id' = new.deliverable_id),
               d.title), d.id, a.id);
    elsif new.kind in ('changes_requested', 'approved') then
      if w ->> 'status' <> 'draft_submitted' or new.ref_id is distinct from (w ->> 'draft_id')::uuid then
        perform pacta_private.reject('not_under_review', 'This draft is no longer waiting for review.', 409, 'ref_id');
      end if;
      if new.kind = 'changes_requested' then
        if coalesce(new.note, '') !~ '[^[:space:]]' then
          perform pacta_private.reject('comments_required', 'Say what to change.', 422, 'note');
        end if;
        -- "Each request counts against the included rounds; more rounds only if the creator agrees."
        if (w ->> 'rounds_used')::integer >= (w ->> 'rounds_included')::integer then
          perform pacta_private.reject('no_rounds_left',
            'No revision rounds left: the creator can agree to more.', 409);
        end if;
        w := w || jsonb_build_object('status', 'changes_requested', 'rounds_used', (w ->> 'rounds_used')::integer + 1);
        perform pacta_private.deal_work_notify(a.creator_id, 'changes_requested', 'Changes requested',
          format('The brand asked for changes on "%s": %s', d.title, left(new.note, 140)), d.id, a.id);
      else
        w := w || jsonb_build_object('status', 'approved');
        perform pacta_private.deal_work_notify(a.creator_id, 'draft_approved', 'Approved',
          format('Your draft for "%s" was approved. Post it and submit the live link.', d.title), d.id, a.id);
      end if;
    elsif new.kind = 'extra_rounds' then
      if new.rounds is null then
        perform pacta_private.reject('rounds_required', 'Say how many more rounds you agree to.', 422, 'rounds');
      end if;
      w := w || jsonb_build_object('rounds_included', (w ->> 'rounds_included')::integer + new.rounds);
      perform pacta_private.deal_work_notify(d.brand_id, 'extra_rounds', 'More revision rounds',
        format('%s agreed to %s more revision round(s) on "%s".', creator_name, new.rounds, d.title), d.id, a.id);
    elsif new.kind = 'live_link' then
      if w ->> 'status' not in ('approved', 'live_submitted') then
        perform pacta_private.reject('not_approved', 'Submit the live link once the draft is approved.', 409, 'deliverable_id');
      end if;
      if cardinality(new.links) <> 1 or not pacta_private.is_web_link(new.links[1]) then
        perform pacta_private.reject('invalid_link', 'Enter the post''s link, like https://example.com/p/123.', 422, 'links');
      end if;
      w := w || jsonb_build_object('status', 'live_submitted', 'live_id', new.id, 'live_url', new.links[1],
        'confirm_due_at', now() + make_interval(hours => (agreed ->> 'approval_window_hours')::integer));
      perform pacta_private.deal_work_notify(d.brand_id, 'live_submitted', 'Live link to confirm',
        format('%s posted the content for "%s". Confirm it, or it is confirmed automatically.', creator_name, d.title), d.id, a.id);
    elsif new.kind = 'live_confirmed' then
      if w ->> 'status' <> 'live_submitted' or new.ref_id is distinct from (w ->> 'live_id')::uuid then
        perform pacta_private.reject('not_live_submitted', 'There is no live link waiting to be confirmed.', 409, 'ref_id');
      end if;
      w := w || jsonb_build_object('status', 'live', 'confirm_due_at', null);
      perform pacta_private.deal_work_notify(a.creator_id, 'live_confirmed', 'Live',
        format('Your post for "%s" is confirmed live.', d.title), d.id, a.id);
    end if;
    a := pacta_private.move_application(a.id, jsonb_build_object('work', jsonb_set(a.work, array[new.deliverable_id], w)));
    perform pacta_private.deal_work_delivered(a, d, agreed);
  end if;
  return new;
end $$;

-- "When every deliverable is approved and live, the deal completes": the creator's payout clock
-- starts (the agreed hold), and the deal completes once every accepted creator has delivered.
create or replace function pacta_private.deal_work_delivered(a public.applications, d public.deals, agreed jsonb) returns void
language plpgsql volatile security definer set search_path = '' as $$
declare
  due timestamptz;
begin
  if a.delivered_at is not null
     or exists (select 1 from jsonb_each(a.work) x where x.value ->> 'status' <> 'live') then
    return;
  end if;
  due := now() + make_interval(hours => (agreed ->> 'payout_hold_hours')::integer);
  update public.applications set delivered_at = now(), payout_due_at = due where id = a.id;
  perform pacta_private.deal_work_notify(a.creator_id, 'work_delivered', 'Work delivered',
    format('Everything for "%s" is approved and live. Payout on hold until %s.', d.title,
           to_char(due at time zone 'UTC', 'Mon FMDD, HH24:MI "UTC"')), d.id, a.id);
  perform pacta_private.deal_work_notify(d.brand_id, 'work_delivered', 'Work delivered',
    format('Everything for "%s" is approved and live. The payout is released on %s unless you open a dispute.', d.title,
           to_char(due at time zone 'UTC', 'Mon FMDD, HH24:MI "UTC"')), d.id, a.id);
  if d.status = 'in_progress' and not exists (
       select 1 from public.applications o where o.deal_id = d.id and o.status = 'accepted' and o.id <> a.id and o.delivered_at is null) then
    update public.deals set status = 'completed', winner_id = a.creator_id where id = d.id;
  end if;
end $$;

create trigger b_rules before insert or update on public.deal_events
  for each row execute function pacta_private.deal_events_check();

-- "Confirmed automatically when the approval window closes": the live links whose window closed,
-- each confirmed once by whichever server instance claims its application first (SKIP LOCKED);
-- nothing is confirmed on a deal under dispute ("a dispute stops the clock").
create or replace function public.confirm_due_live_links() returns integer
language plpgsql volatile security definer set search_path = '' as $$
declare
  r record;
  n integer := 0;
begin
  for r in
    select a.id as application_id, a.deal_id, x.key as deliverable_id, (x.value ->> 'live_id')::uuid as live_id
      from public.applications a
      join public.deals d on d.id = a.deal_id
      cross join lateral jsonb_each(a.work) x
     where a.status = 'accepted' and not a.deleted and d.escrow_status <> 'disputed'
       and x.value ->> 'status' = 'live_submitted' and (x.value ->> 'confirm_due_at')::timestamptz <= now()
  loop
    -- Claimed: another instance holding the application passes it by; one that already confirmed it
    -- left it no longer waiting.
    perform 1 from public.applications a where a.id = r.application_id
       and a.work -> r.deliverable_id ->> 'status' = 'live_submitted'
       and (a.work -> r.deliverable_id ->> 'live_id')::uuid = r.live_id
       for update skip locked;
    if not found then continue; end if;
    insert into public.deal_events (id, application_id, deal_id, author_id, kind, deliverable_id, ref_id)
    values (gen_random_uuid(), r.application_id, r.deal_id, null, 'live_confirmed', r.deliverable_id, r.live_id);
    n := n + 1;
  end loop;
  return n;
end $$;
revoke execute on function public.confirm_due_live_links() from public, anon, authenticated;

revoke execute on function pacta_private.move_application(uuid, jsonb) from public, anon;
grant execute on function pacta_private.move_application(uuid, jsonb) to authenticated, service_role;
revoke execute on function pacta_private.deal_work_delivered(public.applications, public.deals, jsonb),
  pacta_private.applications_start_terms(), pacta_private.deal_work_notify(uuid, text, text, text, uuid, uuid),
  pacta_private.terms_of(uuid, integer), pacta_private.deal_events_check() from public, anon;
grant execute on function pacta_private.deal_work_delivered(public.applications, public.deals, jsonb),
  pacta_private.deal_work_notify(uuid, text, text, text, uuid, uuid), pacta_private.terms_of(uuid, integer),
  pacta_private.deal_events_check() to authenticated, service_role;
