-- Terms changes proposed by either side, accepted or declined by the other
-- (docs/decisions/037-terms-changes-and-their-own-job.md). "The sheet is versioned, and any change
-- needs both sides again":
-- - proposing a version counts as the proposer's acceptance; the other side accepts it (it is then in
--   force) or declines it (the version in force stays);
-- - a proposal must change something, and nothing changes once the work is delivered;
-- - a declined version can no longer be accepted; a new proposal takes its place.

alter table public.deal_events drop constraint deal_events_kind_check;
alter table public.deal_events add constraint deal_events_kind_check check (kind in ('offer', 'offer_accepted',
  'terms', 'terms_accepted', 'terms_declined', 'draft', 'changes_requested', 'approved', 'extra_rounds', 'live_link',
  'live_confirmed'));

-- Whether one side declined the given version of an application's sheet.
create or replace function pacta_private.terms_declined(application uuid, v integer) returns boolean
language sql stable security definer set search_path = '' as $$
  select exists (select 1 from public.deal_events e
                  where e.application_id = application and e.kind = 'terms_declined' and e.terms_version = v)
$$;
revoke execute on function pacta_private.terms_declined(uuid, integer) from public, anon;
grant execute on function pacta_private.terms_declined(uuid, integer) to authenticated, service_role;

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
    if party <> 'server' then
      if a.delivered_at is not null then
        perform pacta_private.reject('terms_closed', 'The work is delivered: the terms can no longer change.', 409);
      end if;
      -- "Any change needs both sides again": a proposal that changes nothing is refused.
      if new.terms = pacta_private.terms_of(a.id, a.terms_version)
         or new.terms = pacta_private.terms_of(a.id, a.terms_agreed_version) then
        perform pacta_private.reject('terms_unchanged', 'These terms are the same as before: change something first.', 422, 'terms');
      end if;
    end if;
    -- The proposer accepts their own version; the other side accepts or declines it.
    perform pacta_private.move_application(a.id, jsonb_build_object('terms_version', new.terms_version,
      'terms_accepted_by', case when party = 'server' then '[]'::jsonb else jsonb_build_array(party) end));
    if party <> 'server' then
      perform pacta_private.deal_work_notify(other, 'terms_changed', 'New terms to accept',
        format('The %s proposed new terms for "%s" (version %s): accept or decline them.', party, d.title,
               new.terms_version), d.id, a.id);
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
    if pacta_private.terms_declined(a.id, a.terms_version) then
      perform pacta_private.reject('terms_declined', 'These terms were declined: propose new ones instead.', 409, 'terms_version');
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

  elsif new.kind = 'terms_declined' then
    -- The other side's answer to a proposed change: the version in force stays.
    if party = 'server' then
      perform pacta_private.reject('not_a_participant', 'Only the brand and the creator decline terms.', 403);
    end if;
    if new.terms_version is distinct from a.terms_version or a.terms_version = 0 then
      perform pacta_private.reject('terms_changed', 'The terms changed meanwhile: look at the newest version.', 409, 'terms_version');
    end if;
    if party = any (a.terms_accepted_by) then
      perform pacta_private.reject('terms_already_accepted', 'You already accepted these terms.', 409);
    end if;
    if a.terms_agreed_version = 0 then
      perform pacta_private.reject('no_terms_in_force', 'No terms are in force yet: propose other terms instead.', 409);
    end if;
    if pacta_private.terms_declined(a.id, a.terms_version) then
      perform pacta_private.reject('terms_declined', 'These terms were already declined.', 409, 'terms_version');
    end if;
    perform pacta_private.deal_work_notify(other, 'terms_declined', 'Terms declined',
      format('The %s declined the new terms of "%s" (version %s): version %s stays in force.', party, d.title,
             a.terms_version, a.terms_agreed_version), d.id, a.id);

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

revoke execute on function pacta_private.deal_events_check() from public, anon;
grant execute on function pacta_private.deal_events_check() to authenticated, service_role;
