-- Pacta's tables. Conventions (see ../shared/DESIGN.md, "Data model decisions"):
-- * ids are client-generated UUIDs so rows can be created offline;
-- * money is integer cents (`*_cents bigint`);
-- * every replicated table carries the sync columns, all server-owned:
--     created_at, updated_at  timestamps set by the server, never by a client;
--     deleted                 soft delete (clients never hard-delete; a tombstone replicates);
--     version                 1 on insert, +1 on every update: the master revision used for conflicts;
--     change_xid              the writing transaction's id: checkpoints page by (change_xid, id) and only
--                             read rows below the oldest running transaction, so a row is never skipped
--                             when transactions commit out of order.
-- Rules (RLS, status transitions, server-owned business fields) live in later migrations.

-- Keeps the sync columns server-owned whoever writes.
create or replace function public.sync_stamp() returns trigger language plpgsql as $$
begin
  if tg_op = 'INSERT' then
    new.created_at := now();
    new.version := 1;
  else
    new.id := old.id;
    new.created_at := old.created_at;
    new.version := old.version + 1;
  end if;
  new.updated_at := now();
  new.change_xid := pg_current_xact_id();
  return new;
end $$;

-- Adds the sync columns, their index and the stamping trigger to a table.
create or replace function public.make_replicated(tbl regclass) returns void language plpgsql as $$
begin
  execute format('alter table %s
      add column created_at timestamptz not null default now(),
      add column updated_at timestamptz not null default now(),
      add column deleted boolean not null default false,
      add column version bigint not null default 1,
      add column change_xid xid8 not null default pg_current_xact_id()', tbl);
  execute format('create index on %s (change_xid, id)', tbl);
  execute format('create trigger a_sync_stamp before insert or update on %s
      for each row execute function public.sync_stamp()', tbl);
end $$;

create table public.profiles (
  id uuid primary key references auth.users (id) on delete cascade,
  role text not null default 'creator' check (role in ('creator', 'brand', 'admin')),
  full_name text not null default '' check (length(full_name) <= 120),
  username text unique check (username ~ '^[a-z0-9_]{3,30}$'),
  avatar_url text check (length(avatar_url) <= 2048),
  bio text not null default '' check (length(bio) <= 2000),
  niches text[] not null default '{}' check (cardinality(niches) <= 26),
  region text check (length(region) <= 80),
  platforms text[] not null default '{}',
  followers integer not null default 0 check (followers >= 0),
  engagement_rate numeric(6, 4) not null default 0 check (engagement_rate between 0 and 1),
  min_deal_amount_cents bigint check (min_deal_amount_cents >= 0),
  max_deal_amount_cents bigint check (max_deal_amount_cents >= 0),
  social_links jsonb not null default '{}'::jsonb check (jsonb_typeof(social_links) = 'object'),
  -- server-owned below: trust, growth and membership
  verified boolean not null default false,
  email_verified boolean not null default false,
  rating numeric(3, 2) not null default 0,
  total_deals integer not null default 0,
  completed_deals integer not null default 0,
  pro_tier text not null default 'free' check (pro_tier in ('free', 'basic', 'premium')),
  pro_since timestamptz,
  pro_until timestamptz,
  referral_code text unique check (referral_code ~ '^[A-Z0-9]{6}$'),
  xp integer not null default 0 check (xp >= 0),
  level integer not null default 1 check (level between 1 and 20),
  referrals_count integer not null default 0
);
select public.make_replicated('public.profiles');

-- Payment-provider identifiers: private to the user and the server, never replicated to others.
create table public.billing_accounts (
  user_id uuid primary key references public.profiles (id) on delete cascade,
  stripe_customer_id text unique,
  stripe_subscription_id text unique,
  stripe_account_id text unique,
  updated_at timestamptz not null default now()
);

create table public.deals (
  id uuid primary key,
  brand_id uuid not null references public.profiles (id),
  title text not null check (length(btrim(title)) between 1 and 200),
  description text not null check (length(btrim(description)) between 1 and 10000),
  amount_cents bigint not null check (amount_cents >= 100),
  budget_cents bigint check (budget_cents >= 0),
  requirements text[] not null default '{}',
  deadline text check (length(deadline) <= 200),
  category text check (length(category) <= 80),
  niches text[] not null check (cardinality(niches) between 1 and 5),
  platforms text[] not null default '{}',
  deliverables text[] not null default '{}',
  timeline text check (timeline in ('1 week', '2 weeks', '1 month', '2 months', '3+ months')),
  brand_guidelines text,
  target_audience text,
  key_messaging text,
  product_url text,
  pro_only boolean not null default false,
  status text not null default 'open' check (status in ('open', 'in_progress', 'completed', 'cancelled')),
  payout_format text not null default 'fixed' check (payout_format in ('fixed', 'performance', 'commission')),
  is_campaign boolean not null default false,
  max_creators integer check (max_creators >= 1),
  performance_rate numeric(6, 4) check (performance_rate >= 0),
  selected_creator_ids uuid[] not null default '{}',
  winner_id uuid references public.profiles (id),
  completed_at timestamptz,
  -- server-owned
  escrow_status text not null default 'none' check (escrow_status in ('none', 'pending', 'released', 'refunded')),
  applications_count integer not null default 0
);
select public.make_replicated('public.deals');
create index deals_brand_idx on public.deals (brand_id);
create index deals_open_idx on public.deals (status, created_at desc);

create table public.applications (
  id uuid primary key,
  deal_id uuid not null references public.deals (id),
  creator_id uuid not null references public.profiles (id),
  status text not null default 'pending' check (status in ('pending', 'accepted', 'rejected', 'withdrawn')),
  pitch text not null default '' check (length(pitch) <= 2000),
  unique (deal_id, creator_id)
);
select public.make_replicated('public.applications');
create index applications_creator_idx on public.applications (creator_id);

-- Shortlist (brand), saved campaigns (creator) and skipped deals (swipe). One row per user and kind;
-- clients derive the id from (user_id, kind) so two offline devices converge on one row.
create table public.saved_lists (
  id uuid primary key,
  user_id uuid not null references public.profiles (id),
  kind text not null check (kind in ('shortlist', 'saved_campaigns', 'skipped_deals')),
  items text[] not null default '{}',
  unique (user_id, kind)
);
select public.make_replicated('public.saved_lists');

-- Private work in progress (campaign briefs, deal forms, messages being composed).
create table public.drafts (
  id uuid primary key,
  user_id uuid not null references public.profiles (id),
  kind text not null check (kind in ('campaign_brief', 'deal', 'message')),
  title text not null default '' check (length(title) <= 200),
  payload jsonb not null default '{}'::jsonb check (pg_column_size(payload) <= 65536)
);
select public.make_replicated('public.drafts');

create table public.conversations (
  id uuid primary key,
  user1_id uuid not null references public.profiles (id),
  user2_id uuid not null references public.profiles (id),
  deal_id uuid references public.deals (id),
  title text not null default '' check (length(title) <= 200),
  -- server-owned, kept by the messages trigger
  last_message text not null default '',
  last_message_at timestamptz,
  check (user1_id <> user2_id)
);
select public.make_replicated('public.conversations');
create index conversations_user1_idx on public.conversations (user1_id);
create index conversations_user2_idx on public.conversations (user2_id);

create table public.messages (
  id uuid primary key,
  conversation_id uuid not null references public.conversations (id),
  sender_id uuid not null references public.profiles (id),
  recipient_id uuid not null references public.profiles (id),
  body text not null check (length(btrim(body)) between 1 and 4000),
  read_at timestamptz
);
select public.make_replicated('public.messages');
create index messages_conversation_idx on public.messages (conversation_id, created_at);

create table public.notifications (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references public.profiles (id),
  type text not null,
  title text not null,
  message text not null default '',
  data jsonb not null default '{}'::jsonb,
  read_at timestamptz
);
select public.make_replicated('public.notifications');
create index notifications_user_idx on public.notifications (user_id);

create table public.support_tickets (
  id uuid primary key,
  user_id uuid not null references public.profiles (id),
  subject text not null check (length(btrim(subject)) between 1 and 200),
  message text not null check (length(btrim(message)) between 1 and 10000),
  priority text not null default 'normal' check (priority in ('high', 'normal', 'low')),
  status text not null default 'open' check (status in ('open', 'closed')),
  -- server-owned
  is_pro boolean not null default false,
  first_response_at timestamptz
);
select public.make_replicated('public.support_tickets');
create index support_tickets_user_idx on public.support_tickets (user_id);

create table public.support_messages (
  id uuid primary key,
  ticket_id uuid not null references public.support_tickets (id),
  user_id uuid not null references public.profiles (id),
  message text not null check (length(btrim(message)) between 1 and 10000)
);
select public.make_replicated('public.support_messages');
create index support_messages_ticket_idx on public.support_messages (ticket_id);

create table public.reviews (
  id uuid primary key,
  deal_id uuid not null references public.deals (id),
  reviewer_id uuid not null references public.profiles (id),
  reviewee_id uuid not null references public.profiles (id),
  rating smallint not null check (rating between 1 and 5),
  content text not null default '' check (length(content) <= 4000),
  unique (deal_id, reviewer_id, reviewee_id)
);
select public.make_replicated('public.reviews');
create index reviews_reviewee_idx on public.reviews (reviewee_id);

-- Growth engine records: written only by the server (functions and triggers), read by their owner.
create table public.xp_logs (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references public.profiles (id),
  action text not null,
  xp_gained integer not null,
  total_xp integer not null,
  metadata jsonb not null default '{}'::jsonb
);
select public.make_replicated('public.xp_logs');
create index xp_logs_user_idx on public.xp_logs (user_id, created_at desc);

create table public.referrals (
  id uuid primary key default gen_random_uuid(),
  referrer_id uuid not null references public.profiles (id),
  referred_user_id uuid not null unique references public.profiles (id),
  status text not null default 'active' check (status in ('active')),
  qualified boolean not null default false,
  qualified_at timestamptz,
  earnings_cents bigint not null default 0,
  check (referrer_id <> referred_user_id)
);
select public.make_replicated('public.referrals');
create index referrals_referrer_idx on public.referrals (referrer_id);

create table public.referral_badges (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references public.profiles (id),
  badge_type text not null check (badge_type in ('bronze', 'silver', 'gold', 'pro_booster')),
  earned_at timestamptz not null default now(),
  unique (user_id, badge_type)
);
select public.make_replicated('public.referral_badges');

create table public.referral_rewards (
  id uuid primary key default gen_random_uuid(),
  referrer_id uuid not null references public.profiles (id),
  referral_id uuid references public.referrals (id),
  reward_type text not null,
  amount_cents bigint not null check (amount_cents >= 0),
  status text not null default 'pending' check (status in ('pending', 'paid')),
  issued_at timestamptz not null default now(),
  paid_at timestamptz
);
select public.make_replicated('public.referral_rewards');
create index referral_rewards_referrer_idx on public.referral_rewards (referrer_id);

create table public.pro_features (
  id uuid primary key default gen_random_uuid(),
  name text not null unique,
  description text not null default '',
  tier integer not null default 1
);

create table public.user_pro_features (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references public.profiles (id) on delete cascade,
  feature_id uuid not null references public.pro_features (id),
  expires_at timestamptz,
  created_at timestamptz not null default now(),
  unique (user_id, feature_id)
);

-- Contact form submissions, kept for staff.
create table public.contact_messages (
  id uuid primary key default gen_random_uuid(),
  name text not null check (length(btrim(name)) between 1 and 120),
  email text not null check (email ~ '^[^@\s]+@[^@\s]+\.[^@\s]+$'),
  subject text not null check (subject in ('general', 'support', 'partnership', 'billing', 'feature', 'other')),
  message text not null check (length(btrim(message)) between 1 and 10000),
  user_id uuid references public.profiles (id),
  created_at timestamptz not null default now()
);

insert into public.pro_features (name, description, tier) values
  ('pro_deals', 'Access to Pro-only deals', 1),
  ('priority_matching', 'Priority deal and creator matching', 1),
  ('priority_support', 'Support tickets answered first', 1),
  ('lower_commission', 'Platform commission of 2.5% instead of 5%', 1);
