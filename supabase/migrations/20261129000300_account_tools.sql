-- Account tools: blocking a person, reporting a person or a deal to staff, and deleting an account.
--
-- * Blocking: a user's own saved list of kind 'blocked_users' holds the ids of the people they
--   blocked (it replicates like the other lists, so the app predicts the block offline). "Blocked
--   people cannot message you or apply to your deals": the database refuses a new conversation or
--   message between the two (either way round) and an application from someone the deal's brand
--   blocked, whatever client wrote it.
-- * Reports: tickets of kind 'report' in the staff queue, written by the server's report route only
--   (it is rate-limited and answers the same whether the target exists or not).
-- * Deletion: "refused while money is in escrow or a deal is in progress"; otherwise the person's
--   data is removed or anonymised in one transaction. Ledger rows, escrows and the messages the other
--   party received are kept: money always reconciles, and a conversation is half someone else's.

alter table public.saved_lists drop constraint saved_lists_kind_check;
alter table public.saved_lists add constraint saved_lists_kind_check
  check (kind in ('shortlist', 'saved_campaigns', 'skipped_deals', 'campaign_invites', 'blocked_users'));

alter table public.support_tickets drop constraint support_tickets_kind_check;
alter table public.support_tickets add constraint support_tickets_kind_check
  check (kind in ('question', 'dispute', 'contact', 'report'));

-- Whether `blocker` blocked `person`.
create or replace function pacta_private.has_blocked(blocker uuid, person uuid)
returns boolean language sql stable security definer set search_path = '' as $$
  select exists (select 1 from public.saved_lists l
                  where l.user_id = blocker and l.kind = 'blocked_users' and not l.deleted
                    and person::text = any (l.items))
$$;
revoke all on function pacta_private.has_blocked(uuid, uuid) from public;
grant execute on function pacta_private.has_blocked(uuid, uuid) to authenticated, service_role;

-- A block list names people by id, never oneself, at most 1,000 of them.
create or replace function pacta_private.blocked_users_check()
returns trigger language plpgsql set search_path = '' as $$
declare
  item text;
begin
  if new.deleted then return new; end if;
  if cardinality(new.items) > 1000 then
    perform pacta_private.reject('block_limit_reached', 'You can block up to 1,000 people.', 422, 'items');
  end if;
  foreach item in array new.items loop
    if item !~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' then
      perform pacta_private.reject('invalid_block', 'A block names a person.', 422, 'items');
    end if;
    if item::uuid = new.user_id then
      perform pacta_private.reject('cannot_block_yourself', 'You cannot block yourself.', 422, 'items');
    end if;
  end loop;
  return new;
end $$;
revoke all on function pacta_private.blocked_users_check() from public;
grant execute on function pacta_private.blocked_users_check() to authenticated, service_role;

create trigger c_blocked_users before insert or update on public.saved_lists
  for each row when (new.kind = 'blocked_users') execute function pacta_private.blocked_users_check();

-- A conversation or a message between two people where one blocked the other is refused, and so is
-- one to an account that was deleted. The same words either way round: the sender is not told who
-- blocked whom.
create or replace function pacta_private.conversations_block_check()
returns trigger language plpgsql set search_path = '' as $$
begin
  if pacta_private.has_blocked(new.user1_id, new.user2_id) or pacta_private.has_blocked(new.user2_id, new.user1_id) then
    perform pacta_private.reject('blocked', 'You cannot message this person.', 403, 'user2_id');
  end if;
  if exists (select 1 from public.profiles p where p.id in (new.user1_id, new.user2_id) and p.deleted) then
    perform pacta_private.reject('account_deleted', 'This account was deleted.', 409, 'user2_id');
  end if;
  return new;
end $$;
revoke all on function pacta_private.conversations_block_check() from public;
grant execute on function pacta_private.conversations_block_check() to authenticated, service_role;

create trigger b_blocks before insert on public.conversations
  for each row execute function pacta_private.conversations_block_check();

create or replace function pacta_private.messages_block_check()
returns trigger language plpgsql set search_path = '' as $$
begin
  if pacta_private.has_blocked(new.recipient_id, new.sender_id) or pacta_private.has_blocked(new.sender_id, new.recipient_id) then
    perform pacta_private.reject('blocked', 'You cannot message this person.', 403, 'recipient_id');
  end if;
  if exists (select 1 from public.profiles p where p.id = new.recipient_id and p.deleted) then
    perform pacta_private.reject('account_deleted', 'This account was deleted.', 409, 'recipient_id');
  end if;
  return new;
end $$;
revoke all on function pacta_private.messages_block_check() from public;
grant execute on function pacta_private.messages_block_check() to authenticated, service_role;

create trigger b_blocks before insert on public.messages
  for each row execute function pacta_private.messages_block_check();

-- "Blocked people cannot apply to your deals": the deal's brand blocked the creator.
create or replace function pacta_private.applications_block_check()
returns trigger language plpgsql set search_path = '' as $$
begin
  if pacta_private.has_blocked((select d.brand_id from public.deals d where d.id = new.deal_id), new.creator_id) then
    perform pacta_private.reject('blocked', 'You cannot apply to this deal.', 403, 'deal_id');
  end if;
  return new;
end $$;
revoke all on function pacta_private.applications_block_check() from public;
grant execute on function pacta_private.applications_block_check() to authenticated, service_role;

create trigger b_blocks before insert on public.applications
  for each row execute function pacta_private.applications_block_check();

-- Reports come from the server's report route only (rate-limited, no existence oracle).
create or replace function pacta_private.support_report_check()
returns trigger language plpgsql set search_path = '' as $$
begin
  if new.kind = 'report' and not public.is_server() then
    perform pacta_private.reject('report_from_api', 'Reports are sent with the Report button.', 403, 'kind');
  end if;
  return new;
end $$;
revoke all on function pacta_private.support_report_check() from public;
grant execute on function pacta_private.support_report_check() to authenticated, service_role;

create trigger c_report_from_api before insert on public.support_tickets
  for each row execute function pacta_private.support_report_check();

-- What stops an account from being deleted now, as codes (none: it may be deleted):
-- money_in_escrow: a deal of theirs holds money (funded and not yet released or refunded, or disputed);
-- checkout_open: a checkout for a deal of theirs is open;
-- deal_in_progress: a deal of theirs is in progress;
-- subscription_active: a Pro subscription would go on charging the card;
-- staff_account: staff accounts are removed by an operator.
create or replace function pacta_private.account_deletion_blockers(user_id uuid)
returns text[] language sql stable security definer set search_path = '' as $$
  with theirs as (
    select d.* from public.deals d
     where not d.deleted
       and (d.brand_id = account_deletion_blockers.user_id
            or account_deletion_blockers.user_id = any (d.selected_creator_ids)
            or d.winner_id = account_deletion_blockers.user_id
            or exists (select 1 from public.applications a
                        where a.deal_id = d.id and a.creator_id = account_deletion_blockers.user_id and a.status = 'accepted')
            or exists (select 1 from public.deal_escrows e
                        where e.deal_id = d.id and e.creator_id = account_deletion_blockers.user_id))
  )
  select coalesce(array_agg(code order by code), '{}') from (
    select 'money_in_escrow' as code where exists (select 1 from theirs where escrow_status in ('pending', 'disputed')
                                                     and exists (select 1 from public.deal_escrows e where e.deal_id = theirs.id and e.funded_at is not null))
    union all
    select 'checkout_open' where exists (select 1 from theirs where pacta_private.deal_has_open_checkout(theirs.id))
    union all
    select 'deal_in_progress' where exists (select 1 from theirs where status = 'in_progress')
    union all
    select 'subscription_active' where exists (
      select 1 from public.billing_accounts b join public.profiles p on p.id = b.user_id
       where b.user_id = account_deletion_blockers.user_id and b.stripe_subscription_id is not null
         and p.pro_tier <> 'free' and (p.pro_until is null or p.pro_until > now()))
    union all
    select 'staff_account' where pacta_private.is_admin_user(account_deletion_blockers.user_id)
  ) as blockers
$$;
revoke all on function pacta_private.account_deletion_blockers(uuid) from public;
grant execute on function pacta_private.account_deletion_blockers(uuid) to service_role;

-- Deletes an account in one transaction, or refuses with the first blocker (nothing is written).
-- Removed: the sign-in (sessions, e-mail, password), the profile's personal fields (the row stays,
-- marked deleted, so the other party's messages and reviews still have a sender), drafts, lists,
-- notifications, push subscriptions and every stored file. Closed: the person's open deals and
-- pending applications, their open tickets. Kept: ledger rows and escrows, messages, reviews, the
-- tickets' text (staff's record). Returns the stored files whose bytes the caller removes.
create or replace function pacta_private.delete_account(user_id uuid)
returns table (bucket_id text, version text) language plpgsql security definer set search_path = '' as $$
declare
  blockers text[];
begin
  -- One deletion at a time per account, and no deal of theirs changes state underneath it.
  perform 1 from public.profiles p where p.id = delete_account.user_id for update;
  if not found then
    perform pacta_private.reject('user_not_found', 'This account does not exist.', 404);
  end if;
  blockers := pacta_private.account_deletion_blockers(delete_account.user_id);
  if cardinality(blockers) > 0 then
    perform pacta_private.reject(blockers[1], array_to_string(blockers, ','), 409);
  end if;

  update public.deals d set status = 'cancelled'
   where d.brand_id = delete_account.user_id and d.status = 'open' and not d.deleted;
  update public.applications a set status = 'withdrawn'
   where a.creator_id = delete_account.user_id and a.status = 'pending' and not a.deleted;
  update public.support_tickets t set status = 'closed'
   where t.user_id = delete_account.user_id and t.status = 'open' and t.kind <> 'dispute';
  update public.drafts d set deleted = true, title = '', payload = '{}'
   where d.user_id = delete_account.user_id;
  update public.saved_lists l set deleted = true, items = '{}'
   where l.user_id = delete_account.user_id;
  update public.notifications n set deleted = true, message = '', data = '{}'
   where n.user_id = delete_account.user_id;
  delete from pacta_private.push_subscriptions s where s.user_id = delete_account.user_id;

  update public.profiles p set
    full_name = 'Deleted user', username = null, avatar_url = null, bio = '', niches = '{}', region = null,
    platforms = '{}', followers = 0, engagement_rate = 0, min_deal_amount_cents = null, max_deal_amount_cents = null,
    social_links = '{}', portfolio_media = '[]', referral_code = null, verified = false, email_verified = false,
    deleted = true
   where p.id = delete_account.user_id;

  -- The sign-in: no session lives on, and the e-mail address is free for a new account.
  delete from auth.refresh_tokens r where r.user_id = delete_account.user_id::text;
  delete from auth.sessions s where s.user_id = delete_account.user_id;
  delete from auth.identities i where i.user_id = delete_account.user_id;
  update auth.users u set email = null, phone = null, encrypted_password = null, raw_user_meta_data = '{}',
    deleted_at = now(), banned_until = 'infinity', updated_at = now()
   where u.id = delete_account.user_id;

  return query
    delete from storage.objects o where o.owner_id = delete_account.user_id::text
    returning o.bucket_id, o.version;
end $$;
revoke all on function pacta_private.delete_account(uuid) from public;
grant execute on function pacta_private.delete_account(uuid) to service_role;
