-- Row-level security and grants: who reads and writes which rows.
--
-- * RLS is on for every table in `public`, including tables of other migrations: a table without a
--   policy is closed to clients (the server's own connection owns the tables and is not subject to RLS).
-- * Grants are explicit and minimal. `anon` (signed out) gets nothing but INSERT on contact_messages:
--   the only signed-out page that writes or reads data is the contact form; every other data screen
--   requires sign-in (spec route tables), so nothing else is exposed without a session.
-- * No client ever DELETEs: rows are soft-deleted (`deleted`) so the removal replicates as a tombstone.
-- * Policies never filter on `deleted`: a tombstone must still reach the clients that held the row.
-- * The sync server runs each user's pulls and pushes as that user (role `authenticated` with the
--   token's claims), so these policies decide each user's scope. Column rules (server-owned fields,
--   transitions) are the triggers of 20261122000300_rules.sql.
-- * auth.uid() and the helpers are wrapped in (select …) so Postgres evaluates them once per query.
-- * Admin = profiles.role 'admin' (public.is_admin()); admins read everything staff needs, but not
--   other people's private conversations, drafts, saved lists, notifications or billing identifiers.

-- Set-returning helpers that read past RLS, so policies of two tables never reference each other.
create or replace function pacta_private.my_deal_ids() returns setof uuid
language sql stable security definer set search_path = '' as $$
  select d.id from public.deals d where d.brand_id = auth.uid()
$$;
revoke execute on function pacta_private.my_deal_ids() from public;
grant execute on function pacta_private.my_deal_ids() to authenticated, service_role;

-- RLS on every table; and signed-out visitors lose whatever a platform default granted them on any
-- table or view of `public` (hosted Supabase grants anon ALL on new tables by default privileges).
do $$
declare
  t record;
begin
  for t in select tablename from pg_tables where schemaname = 'public' loop
    execute format('alter table public.%I enable row level security', t.tablename);
  end loop;
  for t in select c.relname from pg_class c join pg_namespace n on n.oid = c.relnamespace
           where n.nspname = 'public' and c.relkind in ('r', 'p', 'v', 'm', 'f') loop
    execute format('revoke all on public.%I from anon', t.relname);
  end loop;
end $$;

revoke all on
  public.profiles, public.billing_accounts, public.deals, public.applications, public.saved_lists, public.drafts,
  public.conversations, public.messages, public.notifications, public.support_tickets, public.support_messages,
  public.reviews, public.xp_logs, public.referrals, public.referral_badges, public.referral_rewards,
  public.pro_features, public.user_pro_features, public.contact_messages
from anon, authenticated;

grant all on
  public.profiles, public.billing_accounts, public.deals, public.applications, public.saved_lists, public.drafts,
  public.conversations, public.messages, public.notifications, public.support_tickets, public.support_messages,
  public.reviews, public.xp_logs, public.referrals, public.referral_badges, public.referral_rewards,
  public.pro_features, public.user_pro_features, public.contact_messages
to service_role;

-- profiles: every signed-in user sees profiles (deal cards, portfolios, leaderboard); one edits oneself.
-- Created only by the sign-up trigger, hence no INSERT.
grant select, update on public.profiles to authenticated;
create policy profiles_read on public.profiles for select to authenticated using (true);
create policy profiles_update on public.profiles for update to authenticated
  using (id = (select auth.uid()) or (select public.is_admin()))
  with check (id = (select auth.uid()) or (select public.is_admin()));

-- billing_accounts: payment-provider ids, read by their owner; written by the server only.
grant select on public.billing_accounts to authenticated;
create policy billing_accounts_read on public.billing_accounts for select to authenticated
  using (user_id = (select auth.uid()));

-- deals: open (and completed, for portfolios and reviews) deals are public to signed-in users, except
-- Pro-only ones for non-Pro users; the brand sees its own, a creator the deals it applied to.
grant select, insert, update on public.deals to authenticated;
create policy deals_read on public.deals for select to authenticated using (
  (status in ('open', 'completed') and (not pro_only or (select public.is_pro_user((select auth.uid())))))
  or brand_id = (select auth.uid())
  or id in (select a.deal_id from public.applications a where a.creator_id = (select auth.uid()))
  or (select public.is_admin()));
create policy deals_insert on public.deals for insert to authenticated
  with check (brand_id = (select auth.uid()) and (select pacta_private.profile_role((select auth.uid()))) in ('brand', 'admin'));
create policy deals_update on public.deals for update to authenticated
  using (brand_id = (select auth.uid()) or (select public.is_admin()))
  with check (brand_id = (select auth.uid()) or (select public.is_admin()));

-- applications: seen by their creator and the deal's brand (and admins); the creator applies and
-- withdraws, the brand changes the status (the triggers decide which change is whose).
grant select, insert, update on public.applications to authenticated;
create policy applications_read on public.applications for select to authenticated using (
  creator_id = (select auth.uid())
  or deal_id in (select pacta_private.my_deal_ids())
  or (select public.is_admin()));
create policy applications_insert on public.applications for insert to authenticated
  with check (creator_id = (select auth.uid()));
create policy applications_update on public.applications for update to authenticated
  using (creator_id = (select auth.uid()) or deal_id in (select pacta_private.my_deal_ids()) or (select public.is_admin()))
  with check (creator_id = (select auth.uid()) or deal_id in (select pacta_private.my_deal_ids()) or (select public.is_admin()));

-- saved_lists, drafts: private to their owner.
grant select, insert, update on public.saved_lists, public.drafts to authenticated;
create policy saved_lists_own on public.saved_lists for all to authenticated
  using (user_id = (select auth.uid())) with check (user_id = (select auth.uid()));
create policy drafts_own on public.drafts for all to authenticated
  using (user_id = (select auth.uid())) with check (user_id = (select auth.uid()));

-- notifications: made by the server; the owner reads them, marks them read or dismisses them.
grant select, update on public.notifications to authenticated;
create policy notifications_own on public.notifications for all to authenticated
  using (user_id = (select auth.uid())) with check (user_id = (select auth.uid()));

-- conversations and messages: the two participants only (admins included: private correspondence).
grant select, insert, update on public.conversations, public.messages to authenticated;
create policy conversations_participants on public.conversations for all to authenticated
  using ((select auth.uid()) in (user1_id, user2_id)) with check ((select auth.uid()) in (user1_id, user2_id));
create policy messages_read on public.messages for select to authenticated
  using ((select auth.uid()) in (sender_id, recipient_id));
create policy messages_insert on public.messages for insert to authenticated
  with check (sender_id = (select auth.uid()));
create policy messages_update on public.messages for update to authenticated
  using ((select auth.uid()) in (sender_id, recipient_id)) with check ((select auth.uid()) in (sender_id, recipient_id));

-- support: a ticket and its thread belong to the asker and to staff (admins).
grant select, insert, update on public.support_tickets to authenticated;
grant select, insert on public.support_messages to authenticated;
create policy support_tickets_read on public.support_tickets for select to authenticated
  using (user_id = (select auth.uid()) or (select public.is_admin()));
create policy support_tickets_insert on public.support_tickets for insert to authenticated
  with check (user_id = (select auth.uid()));
create policy support_tickets_update on public.support_tickets for update to authenticated
  using (user_id = (select auth.uid()) or (select public.is_admin()))
  with check (user_id = (select auth.uid()) or (select public.is_admin()));
-- Visible tickets are decided by the tickets' own policy (the subquery runs under it).
create policy support_messages_read on public.support_messages for select to authenticated
  using (ticket_id in (select t.id from public.support_tickets t));
create policy support_messages_insert on public.support_messages for insert to authenticated
  with check (user_id = (select auth.uid()) and ticket_id in (select t.id from public.support_tickets t));

-- reviews: public to signed-in users (deal pages, portfolios); written by the reviewer.
grant select, insert, update on public.reviews to authenticated;
create policy reviews_read on public.reviews for select to authenticated using (true);
create policy reviews_insert on public.reviews for insert to authenticated
  with check (reviewer_id = (select auth.uid()));
create policy reviews_update on public.reviews for update to authenticated
  using (reviewer_id = (select auth.uid())) with check (reviewer_id = (select auth.uid()));

-- Growth records: written by the server's functions only; read by their owner and admins.
grant select on public.xp_logs, public.referrals, public.referral_badges, public.referral_rewards to authenticated;
create policy xp_logs_read on public.xp_logs for select to authenticated
  using (user_id = (select auth.uid()) or (select public.is_admin()));
create policy referrals_read on public.referrals for select to authenticated
  using ((select auth.uid()) in (referrer_id, referred_user_id) or (select public.is_admin()));
create policy referral_badges_read on public.referral_badges for select to authenticated
  using (user_id = (select auth.uid()) or (select public.is_admin()));
create policy referral_rewards_read on public.referral_rewards for select to authenticated
  using (referrer_id = (select auth.uid()) or (select public.is_admin()));

-- Pro: the feature catalogue is public to signed-in users; a user's grants are private.
grant select on public.pro_features, public.user_pro_features to authenticated;
create policy pro_features_read on public.pro_features for select to authenticated using (true);
create policy user_pro_features_read on public.user_pro_features for select to authenticated
  using (user_id = (select auth.uid()) or (select public.is_admin()));

-- contact_messages: anyone may write to staff (signed out or in, as oneself); only admins read.
grant insert on public.contact_messages to anon, authenticated;
grant select on public.contact_messages to authenticated;
create policy contact_messages_insert_anon on public.contact_messages for insert to anon
  with check (user_id is null);
create policy contact_messages_insert on public.contact_messages for insert to authenticated
  with check (user_id is null or user_id = (select auth.uid()));
create policy contact_messages_read on public.contact_messages for select to authenticated
  using ((select public.is_admin()));
