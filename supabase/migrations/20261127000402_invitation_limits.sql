-- What one brand can make creators receive through campaign invitations.
--
-- An invitation is an entry "<deal id>:<creator id>" added to the brand's campaign_invites list, and
-- each entry added told the creator with a notification (and a push to their devices). Removing the
-- entry and adding it again notified again, as often as a script could toggle it, and nothing capped
-- how many creators one brand could notify.
--   * One notice per campaign and creator per 7 days: re-inviting within 7 days of the last notice
--     (after a withdraw, or from another device) keeps the invitation but tells the creator nothing.
--   * At most 20 invitation notices per brand per hour (a sliding hour): the write that would send
--     the 21st is refused whole with 'invitation_rate_limited' (429), a sentence the invite panel shows.
-- Only notices count: a silent re-invite and a withdrawal are free. The log keeps 8 days, enough
-- for both windows.

create table pacta_private.invitation_notices (
  brand_id uuid not null references public.profiles (id) on delete cascade,
  deal_id uuid not null,
  creator_id uuid not null,
  sent_at timestamptz not null default now()
);
create index on pacta_private.invitation_notices (brand_id, sent_at);
create index on pacta_private.invitation_notices (deal_id, creator_id, sent_at);
revoke all on pacta_private.invitation_notices from public, anon, authenticated;

create or replace function pacta_private.saved_lists_invite_effects() returns trigger
language plpgsql security definer set search_path = '' as $$
declare
  added record;
  sent_last_hour integer;
begin
  -- Every invitation writes under one lock per brand, so two devices cannot both pass the cap.
  perform pg_advisory_xact_lock(hashtextextended('pacta_invitation_notices:' || new.user_id::text, 0));
  delete from pacta_private.invitation_notices where brand_id = new.user_id and sent_at < now() - interval '8 days';
  for added in
    select d.id as deal_id, (m[2])::uuid as creator_id, d.title, d.brand_id, coalesce(nullif(b.full_name, ''), 'A brand') as brand_name
    from (select regexp_match(i, '^([0-9a-fA-F-]{36}):([0-9a-fA-F-]{36})$') as m
          from (select i from unnest(new.items) i
                except select i from unnest(case when tg_op = 'UPDATE' then old.items else '{}'::text[] end) i) as a) as x
    join public.deals d on d.id = (m[1])::uuid
    join public.profiles b on b.id = d.brand_id
  loop
    continue when exists (select 1 from pacta_private.invitation_notices n
                          where n.deal_id = added.deal_id and n.creator_id = added.creator_id
                            and n.sent_at > now() - interval '7 days');
    select count(*)::int into sent_last_hour from pacta_private.invitation_notices n
     where n.brand_id = new.user_id and n.sent_at > now() - interval '1 hour';
    if sent_last_hour >= 20 then
      perform pacta_private.reject('invitation_rate_limited',
        'You have sent 20 invitations in the last hour. Please wait a while before inviting more creators.', 429, 'items');
    end if;
    insert into pacta_private.invitation_notices (brand_id, deal_id, creator_id) values (new.user_id, added.deal_id, added.creator_id);
    insert into public.notifications (user_id, type, title, message, data)
    values (added.creator_id, 'campaign_invite', 'Campaign invitation',
            format('%s invited you to apply to "%s".', added.brand_name, added.title),
            jsonb_build_object('deal_id', added.deal_id, 'brand_id', added.brand_id, 'link', '/deals/' || added.deal_id));
  end loop;
  return null;
end $$;

-- The notices already sent count for both windows.
insert into pacta_private.invitation_notices (brand_id, deal_id, creator_id, sent_at)
select (n.data ->> 'brand_id')::uuid, (n.data ->> 'deal_id')::uuid, n.user_id, n.created_at
from public.notifications n
where n.type = 'campaign_invite' and n.created_at > now() - interval '8 days'
  and exists (select 1 from public.profiles p where p.id = (n.data ->> 'brand_id')::uuid);
