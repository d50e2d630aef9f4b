-- Demo marketplace for a fresh database (run once, in one transaction, as a superuser, after the
-- migrations; `npm start` prints the three demo logins of sync-server/db/demo-logins.ts).
--
-- * 24 brands (six products each), 240 creators (every one of the 26 niches), 540 deals (each its own product
--   and kind of brief, so no title or description repeats), ~1,700 applications, ~80 reviews,
--   conversations, support tickets, referrals, XP; the demo brand and creator have a bit of everything.
-- * Deterministic: every "random" choice is a hash of the row number (pg_temp.rnd), never random().
-- * Set-based and trigger-free: triggers are switched off for the session (session_replication_role)
--   so the seed writes history as it would have happened (timestamps in the past) and then derives the
--   server-owned fields itself (counters, selections, winners, ratings, XP and levels) exactly as the
--   rules of 20261122000300_rules.sql keep them. The sign-up trigger does not run either: profiles are
--   upserted here, so the seed works whether or not it exists.
-- * Passwords: bcrypt (GoTrue's format, `$2a$`), cost 10 for the three demo logins and 4 for the bulk
--   users, who all share the demo password too.

set local session_replication_role = replica;

create function pg_temp.rnd(seed text) returns double precision language sql immutable as $$
  select ('x' || substr(md5(seed), 1, 12))::bit(48)::bigint / 281474976710656.0
$$;
create function pg_temp.pick(items text[], seed text) returns text language sql immutable as $$
  select items[1 + floor(pg_temp.rnd(seed) * cardinality(items))::int]
$$;
create function pg_temp.uid(kind text, n int) returns uuid language sql immutable as $$
  select md5('pacta-seed:' || kind || ':' || n)::uuid
$$;

-- Profiles start without a picture (the app shows initials): pictures are only accepted from Pacta's
-- storage (pacta_private.is_storage_picture). The demo creator's and brand's pictures ship in
-- supabase/seed-files/ and are stored, and set as their pictures, by the server right after this seed
-- (sync-server/storage/demo-files.ts).

create temp table seed_niches (i int primary key, name text not null) on commit drop;
insert into seed_niches select i, n from unnest(array['Technology', 'Fitness', 'Fashion', 'Food', 'Travel', 'Gaming',
  'Finance', 'Music', 'Beauty', 'Health', 'Education', 'Parenting', 'Pets', 'Automotive', 'Outdoors', 'Art', 'Photography',
  'Business', 'Sports', 'Home', 'DIY', 'Books', 'Movies', 'Science', 'Spirituality', 'Other']) with ordinality as t(n, i);

-- ---------------------------------------------------------------------------------------------
-- People
-- ---------------------------------------------------------------------------------------------

create temp table seed_users (
  id uuid primary key, n int not null, role text not null, email text not null, full_name text not null,
  username text not null, niches text[] not null, region text not null, platforms text[] not null,
  pro boolean not null, verified boolean not null, bio text not null, social_links jsonb not null,
  followers int not null, engagement numeric not null, created_at timestamptz not null
) on commit drop;

-- Brands: a name, its focus niches (together they cover all 26). Brand 1 is the demo brand.
insert into seed_users
select pg_temp.uid('brand', b.n), b.n, 'brand',
       case when b.n = 1 then 'brand@pacta.dev' else b.slug || '@brands.pacta.dev' end,
       b.name, b.slug, b.niches,
       pg_temp.pick(array['North America', 'Europe', 'Latin America', 'Asia Pacific'], 'brand-region' || b.n),
       array['Instagram', 'TikTok', 'YouTube'],
       b.n % 5 = 2, b.n % 3 <> 0,
       format('%s partners with creators in %s. We brief clearly, pay on time through escrow and love long-term collaborations.',
              b.name, array_to_string(b.niches, ', ')),
       jsonb_build_object('linkedin', 'https://www.linkedin.com/company/' || replace(b.slug, '_', '-')),
       0, 0,
       now() - make_interval(days => 150 - b.n)
from (values
  (1, 'Northwind Outfitters', 'northwind_outfitters', array['Outdoors', 'Travel', 'Sports']),
  (2, 'Lumen Audio', 'lumen_audio', array['Music', 'Technology']),
  (3, 'Solstice Skincare', 'solstice_skincare', array['Beauty', 'Health']),
  (4, 'Evergreen Pantry', 'evergreen_pantry', array['Food', 'Health']),
  (5, 'Kinetic Fitness', 'kinetic_fitness', array['Fitness', 'Sports', 'Health']),
  (6, 'Harbor Bank', 'harbor_bank', array['Finance', 'Business']),
  (7, 'Pixelforge Games', 'pixelforge_games', array['Gaming', 'Technology', 'Movies']),
  (8, 'Atlas Luggage', 'atlas_luggage', array['Travel', 'Fashion']),
  (9, 'Juniper Home', 'juniper_home', array['Home', 'DIY', 'Art']),
  (10, 'Copperline Coffee', 'copperline_coffee', array['Food', 'Business']),
  (11, 'Bluefin Pet Co.', 'bluefin_pet_co', array['Pets', 'Parenting']),
  (12, 'Brightside Learning', 'brightside_learning', array['Education', 'Books', 'Science']),
  (13, 'Velvet Thread', 'velvet_thread', array['Fashion', 'Beauty']),
  (14, 'Summit Motors', 'summit_motors', array['Automotive', 'Technology']),
  (15, 'Lantern Books', 'lantern_books', array['Books', 'Education', 'Movies']),
  (16, 'Meadow Baby', 'meadow_baby', array['Parenting', 'Health']),
  (17, 'Aperture Cameras', 'aperture_cameras', array['Photography', 'Art', 'Travel']),
  (18, 'Quantum Kit', 'quantum_kit', array['Science', 'Technology', 'Education']),
  (19, 'Stillwater Wellness', 'stillwater_wellness', array['Spirituality', 'Health', 'Fitness']),
  (20, 'Crafted Tools', 'crafted_tools', array['DIY', 'Home', 'Automotive']),
  (21, 'Trailhead Snacks', 'trailhead_snacks', array['Food', 'Outdoors', 'Sports']),
  (22, 'Neon Arcade', 'neon_arcade', array['Gaming', 'Music']),
  (23, 'Ledger Lane', 'ledger_lane', array['Finance', 'Technology']),
  (24, 'Canvas & Co.', 'canvas_and_co', array['Art', 'Photography', 'Other'])
) as b(n, name, slug, niches);

-- Creators: 240 distinct names; creator n's first niche is niche ((n-1) mod 26)+1, so every niche has
-- 9 or 10 creators, plus up to two more niches. Creator 1 is the demo creator (not Pro: Pro-only deals
-- show their upgrade prompt); every 8th creator is Pro.
insert into seed_users
select pg_temp.uid('creator', c.n), c.n, 'creator',
       case when c.n = 1 then 'creator@pacta.dev' else c.username || '@creators.pacta.dev' end,
       c.first || ' ' || c.last, c.username, c.niches,
       pg_temp.pick(array['North America', 'Europe', 'Latin America', 'Asia Pacific', 'Africa', 'Middle East'], 'region' || c.n),
       c.platforms,
       c.n % 8 = 3, c.n % 3 = 0,
       format('%s creator%s. I make honest, well-researched content about %s for an engaged community.',
              c.niches[1], case when cardinality(c.niches) > 1 then ' with a soft spot for ' || lower(c.niches[2]) else '' end,
              lower(array_to_string(c.niches, ' and '))),
       jsonb_strip_nulls(jsonb_build_object(
         'instagram', 'https://www.instagram.com/' || c.username,
         'tiktok', case when 'TikTok' = any (c.platforms) then 'https://www.tiktok.com/@' || c.username end,
         'youtube', case when 'YouTube' = any (c.platforms) then 'https://www.youtube.com/@' || c.username end)),
       floor(800 * exp(pg_temp.rnd('followers' || c.n) * 6.3))::int,
       round((0.012 + pg_temp.rnd('engagement' || c.n) * 0.1)::numeric, 4),
       now() - make_interval(days => 140 - c.n / 2, hours => c.n % 24)
from (
  select n, f.first, l.last, lower(f.first || '_' || l.last) as username,
         case when n = 1 then array['Outdoors', 'Travel', 'Fitness'] else (select array_agg(name order by o) from (
            select s.name, 0 as o from seed_niches s where s.i = (n - 1) % 26 + 1
            union
            select s.name, 1 + k from generate_series(1, 2) k
              join seed_niches s on s.i = 1 + floor(pg_temp.rnd('niche' || n || ':' || k) * 26)::int
             where pg_temp.rnd('has-niche' || n || ':' || k) < 0.55 and s.i <> (n - 1) % 26 + 1) x) end as niches,
         (select array_agg(p order by p) from unnest(array['Instagram', 'TikTok', 'YouTube', 'Blog', 'Twitter']) as p
           where p = 'Instagram' or pg_temp.rnd('platform' || n || p) < 0.4) as platforms
  from generate_series(1, 240) as n
  cross join lateral (select (array['Maya', 'Leo', 'Ava', 'Noah', 'Zoe', 'Ethan', 'Lina', 'Omar', 'Ivy', 'Kai',
      'Nora', 'Mateo', 'Elena', 'Jonas', 'Priya', 'Theo', 'Amara', 'Lucas', 'Sofia', 'Rami', 'Hana', 'Felix', 'Chloe',
      'Diego', 'Aisha', 'Milo', 'Freya', 'Tariq', 'Ines', 'Sami'])[1 + (n - 1) % 30] as first) f
  cross join lateral (select (array['Chen', 'Rivera', 'Okafor', 'Schmidt', 'Nakamura', 'Silva', 'Haddad', 'Kowalski',
      'Martin', 'Patel', 'Moreau', 'Larsen', 'Costa', 'Kim', 'Novak', 'Ibrahim', 'Walsh', 'Rossi', 'Tanaka', 'Mensah',
      'Duarte', 'Fischer', 'Ali', 'Berg'])[1 + (((n - 1) / 30) * 3 + (n - 1) % 30) % 24] as last) l
) as c;

insert into seed_users values (
  pg_temp.uid('admin', 1), 1, 'admin', 'admin@pacta.dev', 'Pacta Support', 'pacta_support', '{}', 'Europe', '{}',
  false, true, 'The Pacta team: support, verification and disputes.', '{}', 0, 0, now() - interval '200 days');

insert into auth.users (instance_id, id, aud, role, email, encrypted_password, email_confirmed_at, raw_app_meta_data,
                        raw_user_meta_data, created_at, updated_at)
select '00000000-0000-0000-0000-000000000000', u.id, 'authenticated', 'authenticated', u.email,
       crypt('pacta-demo-2026', gen_salt('bf', case when u.n = 1 then 10 else 4 end)),
       u.created_at, '{"provider": "email", "providers": ["email"]}',
       -- Sign-up metadata carries creator or brand only; the admin is promoted below, as an operator would.
       jsonb_build_object('role', case when u.role = 'admin' then 'creator' else u.role end, 'full_name', u.full_name),
       u.created_at, u.created_at
from seed_users u;

insert into auth.identities (provider_id, user_id, identity_data, provider, created_at, updated_at)
select u.id::text, u.id, jsonb_build_object('sub', u.id::text, 'email', u.email, 'email_verified', true, 'phone_verified', false),
       'email', u.created_at, u.created_at
from seed_users u;

insert into public.profiles (id, role, full_name, username, avatar_url, bio, niches, region, platforms, followers, engagement_rate,
                             min_deal_amount_cents, max_deal_amount_cents, social_links, verified, email_verified,
                             pro_tier, pro_since, pro_until, referral_code, created_at, updated_at)
select u.id, u.role, u.full_name, u.username, null, u.bio, u.niches, u.region, u.platforms, u.followers, u.engagement,
       case when u.role = 'creator' then (100 + floor(pg_temp.rnd('min' || u.n) * 4) * 100) * 100 end,
       case when u.role = 'creator' then (1500 + floor(pg_temp.rnd('max' || u.n) * 8) * 1000) * 100 end,
       u.social_links, u.verified, true,
       case when u.pro then pg_temp.pick(array['basic', 'premium'], 'tier' || u.id) else 'free' end,
       case when u.pro then now() - interval '40 days' end,
       case when u.pro then now() + interval '325 days' end,
       -- 6 characters from [A-Z0-9], unique (checked below) and stable across re-seeds.
       upper(substr(md5('referral:' || u.id), 1, 6)),
       u.created_at, u.created_at
from seed_users u
on conflict (id) do update set
  role = excluded.role, full_name = excluded.full_name, username = excluded.username, avatar_url = excluded.avatar_url, bio = excluded.bio,
  niches = excluded.niches, region = excluded.region, platforms = excluded.platforms, followers = excluded.followers,
  engagement_rate = excluded.engagement_rate, min_deal_amount_cents = excluded.min_deal_amount_cents,
  max_deal_amount_cents = excluded.max_deal_amount_cents, social_links = excluded.social_links,
  verified = excluded.verified, email_verified = excluded.email_verified, pro_tier = excluded.pro_tier,
  pro_since = excluded.pro_since, pro_until = excluded.pro_until, referral_code = excluded.referral_code,
  created_at = excluded.created_at, updated_at = excluded.updated_at;

-- What each brand sells: six products, each with the one line a brief would open with. Deal titles and
-- descriptions are built from these, so every deal names a real-sounding product of its own brand.
create temp table seed_products (brand_n int not null, k int not null, name text not null, blurb text not null,
  primary key (brand_n, k)) on commit drop;
insert into seed_products values
  (1, 0, 'Ridgeline 35L Pack', 'a 35-litre hiking pack with a ventilated back panel and a rain cover that lives in the lid'),
  (1, 1, 'Driftwood Rain Shell', 'a packable three-layer rain shell that weighs less than a water bottle'),
  (1, 2, 'Basecamp Two Tent', 'a two-person tent that pitches in under five minutes, even in wind'),
  (1, 3, 'Trailrunner Gaiters', 'light gaiters that keep grit out of trail shoes on long runs'),
  (1, 4, 'Alpenglow Down Jacket', 'a recycled-down jacket rated for cold mornings at altitude'),
  (1, 5, 'Wayfinder Trekking Poles', 'carbon trekking poles that fold small enough for carry-on luggage'),
  (2, 0, 'Lumen Pods Air', 'wireless earbuds with adaptive noise cancelling and a 30-hour case'),
  (2, 1, 'Studio One Headphones', 'closed-back studio headphones tuned flat for mixing'),
  (2, 2, 'Beacon Mini Speaker', 'a palm-sized waterproof speaker that pairs in stereo'),
  (2, 3, 'Lumen Desk Monitors', 'compact powered monitors for home studios and desks'),
  (2, 4, 'Echo USB Microphone', 'a plug-and-play USB microphone for podcasts and streams'),
  (2, 5, 'Lumen Turntable', 'a belt-drive turntable with a built-in preamp and Bluetooth out'),
  (3, 0, 'Dawn Vitamin C Serum', 'a gentle 10% vitamin C serum for dull, uneven skin'),
  (3, 1, 'Cloud Barrier Cream', 'a fragrance-free ceramide moisturiser for sensitive skin'),
  (3, 2, 'Daily Shield SPF 50', 'a sheer mineral sunscreen that leaves no white cast'),
  (3, 3, 'Night Reset Retinal', 'a beginner-friendly retinal for a slow, steady evening routine'),
  (3, 4, 'Soft Foam Cleanser', 'a low-pH cleanser that rinses clean without the tight feeling'),
  (3, 5, 'Solstice Lip Balm Trio', 'three tinted lip balms made with shea and SPF 15'),
  (4, 0, 'Harvest Granola', 'a low-sugar granola with toasted oats, seeds and sour cherries'),
  (4, 1, 'Pantry Pesto Jars', 'small-batch pestos made with basil from partner farms'),
  (4, 2, 'Ancient Grain Pasta', 'a spelt and einkorn pasta that cooks in seven minutes'),
  (4, 3, 'Cold-Pressed Olive Oil', 'a single-estate extra virgin olive oil from the new harvest'),
  (4, 4, 'Weeknight Spice Kit', 'six blends that turn pantry staples into a dinner in twenty minutes'),
  (4, 5, 'Nut Butter Sampler', 'almond, cashew and peanut butters ground with nothing added'),
  (5, 0, 'Kinetic Adjustable Dumbbells', 'dumbbells that adjust from 2 to 24 kg with one dial'),
  (5, 1, 'FlexBand Set', 'five resistance bands with door anchor and handles'),
  (5, 2, 'Pulse Smart Rope', 'a skipping rope that counts jumps and syncs with your phone'),
  (5, 3, 'Recovery Roller Pro', 'a vibrating foam roller with three intensity levels'),
  (5, 4, 'Kinetic App Membership', 'a training app with coach-led strength plans'),
  (5, 5, 'Grip Training Mat', 'a non-slip 6 mm mat for strength work and mobility'),
  (6, 0, 'Harbor First Account', 'a no-fee current account for people opening their first bank account'),
  (6, 1, 'Round-Up Savings', 'a savings pot that rounds up card purchases to the next euro'),
  (6, 2, 'Harbor Business Card', 'a business card with instant receipts for freelancers'),
  (6, 3, 'Goal Planner', 'an in-app planner for saving towards a deposit, a trip or a rainy day'),
  (6, 4, 'Harbor Invest Starter', 'low-cost index investing from 10 a month'),
  (6, 5, 'Money Basics Course', 'a free six-lesson course on budgeting and credit scores'),
  (7, 0, 'Starfall Tactics', 'a turn-based space strategy game with a branching campaign'),
  (7, 1, 'Ember Knights', 'a co-op action game for up to four players'),
  (7, 2, 'Pocket Farm Stories', 'a cosy farming game for phones and tablets'),
  (7, 3, 'Pixelforge Controller', 'a hall-effect controller with remappable back buttons'),
  (7, 4, 'Rift Runner', 'a speedrun-friendly platformer with a level editor'),
  (7, 5, 'Pixelforge Soundtrack Vinyl', 'the Starfall Tactics soundtrack on double vinyl'),
  (8, 0, 'Atlas Carry-On 40', 'a carry-on with a laptop sleeve and a compression shelf'),
  (8, 1, 'Atlas Check-In 70', 'a hard-shell check-in case with a lifetime warranty'),
  (8, 2, 'Weekender Duffel', 'a water-resistant duffel that opens like a suitcase'),
  (8, 3, 'Packing Cube Set', 'five compression cubes in graded sizes'),
  (8, 4, 'Atlas Travel Wallet', 'an RFID-blocking wallet with a passport slot'),
  (8, 5, 'Transit Sling Bag', 'a slim sling bag for city days and airport security lines'),
  (9, 0, 'Juniper Linen Bedding', 'stone-washed linen bedding that softens with every wash'),
  (9, 1, 'Modular Shelf System', 'wall shelves you can rearrange without new holes'),
  (9, 2, 'Clay Table Lamp', 'a hand-thrown ceramic lamp with a warm dimmable bulb'),
  (9, 3, 'Juniper Paint Collection', 'low-VOC wall paints in twelve muted colours'),
  (9, 4, 'Woven Storage Baskets', 'seagrass baskets sized for standard shelving'),
  (9, 5, 'Terrace Planter Set', 'self-watering planters for balconies and windowsills'),
  (10, 0, 'Copperline House Blend', 'a chocolatey medium roast for filter and espresso'),
  (10, 1, 'Single-Origin Subscription', 'a monthly single-origin coffee with tasting notes'),
  (10, 2, 'Copperline Pour-Over Kit', 'a ceramic dripper, filters and a gooseneck kettle'),
  (10, 3, 'Cold Brew Bags', 'steep-overnight cold brew bags for the fridge'),
  (10, 4, 'Office Coffee Plan', 'fresh beans delivered weekly to small teams'),
  (10, 5, 'Decaf Evening Roast', 'a Swiss-water decaf that still tastes like coffee'),
  (11, 0, 'Bluefin Salmon Kibble', 'a grain-free salmon kibble for dogs with sensitive stomachs'),
  (11, 1, 'Calm Chews', 'chamomile chews for nervous dogs on fireworks nights'),
  (11, 2, 'Bluefin Cat Fountain', 'a quiet filtered water fountain that cats actually drink from'),
  (11, 3, 'Adventure Harness', 'a no-pull harness with a handle for stiles and car rides'),
  (11, 4, 'Puzzle Feeder', 'a slow feeder that turns dinner into a ten-minute game'),
  (11, 5, 'Family Pet Starter Box', 'everything a family needs for the first week with a new pet'),
  (12, 0, 'Brightside Maths Tutor', 'an adaptive maths app for ages 8 to 14'),
  (12, 1, 'Reading Quest', 'a reading app that turns chapter books into quests'),
  (12, 2, 'Science at Home Kit', 'twelve kitchen-table experiments with video guides'),
  (12, 3, 'Exam Sprint Planner', 'a revision planner that schedules itself around exam dates'),
  (12, 4, 'Brightside Language Club', 'live small-group language lessons for teens'),
  (12, 5, 'Homework Helper Hub', 'step-by-step help that explains instead of answering'),
  (13, 0, 'Velvet Thread Capsule Edit', 'a ten-piece capsule wardrobe in recycled fibres'),
  (13, 1, 'Everyday Silk Scarf', 'a washable silk scarf in six prints'),
  (13, 2, 'Tailored Wide-Leg Trousers', 'trousers cut for comfort with a tailored line'),
  (13, 3, 'Velvet Thread Knitwear', 'merino knits made to last more than one winter'),
  (13, 4, 'Occasion Dress Rental', 'a rental service for weddings, galas and graduations'),
  (13, 5, 'Repair & Restyle Service', 'free repairs and alterations for anything bought from us'),
  (14, 0, 'Summit EV Crossover', 'an all-electric crossover with 480 km of range'),
  (14, 1, 'Summit Hybrid Estate', 'a hybrid estate car with room for a family and a dog'),
  (14, 2, 'Home Charger Install', 'a home charger with installation booked in the app'),
  (14, 3, 'Summit Roadside Plus', 'roadside assistance that includes EV towing'),
  (14, 4, 'Weekend Test Drive', 'a free 48-hour test drive delivered to your door'),
  (14, 5, 'Summit Roof Box', 'an aerodynamic roof box that barely dents range'),
  (15, 0, 'Lantern Reading Club', 'a monthly book box with a hardback and author notes'),
  (15, 1, 'Tidewater Trilogy', 'a new fantasy trilogy with a first book out this season'),
  (15, 2, 'Lantern Audiobooks', 'an audiobook plan with one credit a month and no lock-in'),
  (15, 3, 'Classics in Translation', 'new translations of five European classics'),
  (15, 4, 'Screen to Page Series', 'the novels behind this year''s film and TV adaptations'),
  (15, 5, 'Lantern Kids Picture Books', 'illustrated picture books for bedtime reading'),
  (16, 0, 'Meadow Carrier', 'an ergonomic baby carrier that fits both parents'),
  (16, 1, 'Meadow Organic Sleepsuit', 'organic cotton sleepsuits with two-way zips'),
  (16, 2, 'Sleep Sound Machine', 'a white-noise machine with a night light'),
  (16, 3, 'First Foods Set', 'silicone bowls, spoons and a weaning guide'),
  (16, 4, 'Meadow Changing Bag', 'a backpack changing bag with a wipe-clean mat'),
  (16, 5, 'Postnatal Wellness Kit', 'a recovery kit for the first six weeks after birth'),
  (17, 0, 'Aperture X2 Mirrorless', 'a compact mirrorless camera with in-body stabilisation'),
  (17, 1, 'Prime 35mm f/1.8', 'a fast everyday prime lens for street and travel'),
  (17, 2, 'Aperture Travel Tripod', 'a carbon travel tripod that folds to 35 cm'),
  (17, 3, 'Film Simulation Presets', 'colour presets modelled on classic film stocks'),
  (17, 4, 'Aperture Photo Walks', 'guided photo walks in twelve cities'),
  (17, 5, 'Instant Print Camera', 'an instant camera that also saves a digital copy'),
  (18, 0, 'Quantum Robotics Kit', 'a build-and-code robot for ages 10 and up'),
  (18, 1, 'Circuit Lab Starter', 'a breadboard kit with forty guided projects'),
  (18, 2, 'Pocket Microscope', 'a clip-on phone microscope with 400x zoom'),
  (18, 3, 'Quantum Chemistry Set', 'a safe chemistry set with real lab glassware'),
  (18, 4, 'Star Tracker Telescope', 'a beginner telescope with a phone-guided mount'),
  (18, 5, 'Code Club Subscription', 'monthly coding projects with a live help hour'),
  (19, 0, 'Stillwater Meditation App', 'guided meditations from five to forty minutes'),
  (19, 1, 'Breathwork Course', 'a 21-day breathwork course with daily audio'),
  (19, 2, 'Stillwater Yoga Bolster', 'a buckwheat-filled bolster for restorative yoga'),
  (19, 3, 'Sleep Story Library', 'bedtime stories read slowly for adults'),
  (19, 4, 'Retreat Weekend', 'a two-night retreat with yoga, walks and no phones'),
  (19, 5, 'Journaling Deck', 'fifty-two prompt cards for a weekly reflection'),
  (20, 0, 'Crafted Cordless Drill', 'an 18 V brushless drill with two batteries'),
  (20, 1, 'Crafted Workbench', 'a folding workbench with clamps built in'),
  (20, 2, 'Precision Hand Tool Set', 'forty-two hand tools in a roll-up case'),
  (20, 3, 'Crafted Garage Storage', 'wall rails and hooks for a tidy garage'),
  (20, 4, 'Detail Sander', 'a compact sander for furniture restoration'),
  (20, 5, 'Crafted Tool Library', 'tool hire by the day for big one-off jobs'),
  (21, 0, 'Trailhead Energy Bars', 'oat and date bars for long days outside'),
  (21, 1, 'Summit Trail Mix', 'a salty-sweet mix of nuts, seeds and dark chocolate'),
  (21, 2, 'Electrolyte Tabs', 'sugar-light electrolyte tablets in four flavours'),
  (21, 3, 'Camp Breakfast Pouches', 'just-add-water breakfasts for camp mornings'),
  (21, 4, 'Trailhead Jerky', 'grass-fed beef jerky with simple ingredients'),
  (21, 5, 'Race Day Gels', 'easy-on-the-stomach gels for running and cycling'),
  (22, 0, 'Neon Arcade Cabinet', 'a home arcade cabinet with 200 licensed classics'),
  (22, 1, 'Synthwave Keyboard', 'a mechanical keyboard with hot-swap switches'),
  (22, 2, 'Neon Stream Deck', 'a macro pad with fifteen screen keys for streamers'),
  (22, 3, 'Retro Handheld', 'a handheld console with a bright OLED screen'),
  (22, 4, 'Neon Headset', 'a wireless gaming headset with a detachable mic'),
  (22, 5, 'Arcade Night Pass', 'unlimited play at Neon Arcade bars for a month'),
  (23, 0, 'Ledger Lane Budget App', 'a budgeting app that sorts spending automatically'),
  (23, 1, 'Freelancer Tax Pot', 'an account that sets aside tax from every invoice'),
  (23, 2, 'Ledger Lane Invoicing', 'invoices that chase late payments for you'),
  (23, 3, 'Crypto Basics Course', 'a plain-language course on what crypto is and is not'),
  (23, 4, 'Shared Household Wallet', 'a shared wallet for flatmates and couples'),
  (23, 5, 'Ledger Lane Net Worth Tracker', 'one view of savings, pensions and debts'),
  (24, 0, 'Canvas & Co. Gouache Set', 'twenty-four artist gouache colours in tubes'),
  (24, 1, 'Sketchbook Trio', 'three sketchbooks with 200 gsm paper that takes wet media'),
  (24, 2, 'Frame Studio', 'made-to-measure frames ordered online'),
  (24, 3, 'Print on Demand Shop', 'a shop that prints and ships your artwork for you'),
  (24, 4, 'Canvas & Co. Workshops', 'online workshops with working illustrators'),
  (24, 5, 'Portfolio Photo Kit', 'a light box and copy stand for photographing artwork');

-- Eight kinds of brief; a brand's deals combine each product with a different kind, so no title repeats.
-- Each kind has the category its title says (a "Giveaway" deal is a Giveaway, a "30-Day Test" a Product Review).
create temp table seed_briefs (t int primary key, title text not null, ask text not null, category text) on commit drop;
insert into seed_briefs (t, title, ask) values
  (0, '%s Launch', 'We launch it this month and want it seen in use, in your voice, in the first week: your first reaction, the first real use, and who you would recommend it to.'),
  (1, '%s: 30-Day Test', 'Live with it for a month, then tell your audience what stuck and what did not. We would rather have an honest 4 out of 5 than a scripted rave.'),
  (2, '%s Unboxing', 'Open it on camera, set it up and share first impressions. Keep it unscripted; we only check facts before you post.'),
  (3, 'How I Use the %s', 'Show one real routine or project where it earns its place, step by step, so a viewer could copy it.'),
  (4, '%s Giveaway', 'Host a giveaway for your followers: we ship two units, one for you and one for the winner, and cover postage to any country.'),
  (5, '%s: Before and After', 'Compare it fairly with what you used before. Numbers, side-by-side shots and your own verdict are all welcome.'),
  (6, 'A Week With the %s', 'Take it along for a normal week and fold it into your usual content; no special shoot needed.'),
  (7, '%s Ambassador Season', 'A three-month partnership: one piece a month, early access to what we release next, and a say in what we make.');
update seed_briefs set category = (array['Sponsored Post', 'Product Review', 'Unboxing', 'Tutorial', 'Giveaway',
  'Product Review', 'Sponsored Post', 'Brand Ambassador'])[t + 1];

create function pg_temp.and_list(items text[]) returns text language sql immutable as $$
  select case when cardinality(items) <= 1 then coalesce(items[1], '')
              else array_to_string(items[1:cardinality(items) - 1], ', ') || ' and ' || items[cardinality(items)] end
$$;

-- ---------------------------------------------------------------------------------------------
-- Deals: 540, brand n gets deals n, n+24, …; mostly open, some in progress, completed or cancelled.
-- ---------------------------------------------------------------------------------------------

create temp table seed_deals on commit drop as
select pg_temp.uid('deal', d.n) as id, d.n, b.id as brand_id, b.full_name as brand_name, b.n as brand_n,
       -- The brand's j-th deal: product j mod 6 with brief kind (j div 6 + j mod 6) mod 8, a pair no other
       -- deal of the brand has (j <= 22).
       format(br.title, pr.name) as title, pr.name as product, pr.blurb, br.ask,
       pl.platforms,
       (select array_agg(x order by x) from (
          select 'Instagram Post' as x
          union all select 'Instagram Story' where pg_temp.rnd('story' || d.n) < 0.45
          union all select case p when 'TikTok' then 'TikTok Video' when 'YouTube' then 'YouTube Video'
                                  when 'Blog' then 'Blog Post' else 'Twitter Post' end
            from unnest(pl.platforms) as p where p <> 'Instagram') y) as deliverables,
       br.category,
       -- 1 to 5 niches: the brand's focus first, sometimes one more.
       (select array_agg(x order by o) from (
          select x, o from unnest(b.niches) with ordinality as t(x, o)
          where o = 1 or pg_temp.rnd('deal-niche' || d.n || x) < 0.6
          union
          select s.name, 9 from seed_niches s
          where pg_temp.rnd('extra-niche' || d.n) < 0.25 and s.i = 1 + floor(pg_temp.rnd('extra' || d.n) * 26)::int
            and not (s.name = any (b.niches))) y) as niches,
       -- $50 to ~$10,000, log-spread, rounded to $5.
       (round(50 * exp(pg_temp.rnd('amount' || d.n) * 5.3) / 5) * 5 * 100)::bigint as amount_cents,
       pg_temp.rnd('pro' || d.n) < 0.12 and not (b.n = 1 and d.n <= 200) as pro_only,
       case
         when b.n = 1 and d.n in (25, 121) then 'in_progress'
         when b.n = 1 and d.n in (49, 73, 145) then 'completed'
         when b.n = 1 and d.n = 97 then 'cancelled'
         when b.n = 1 then 'open'
         when pg_temp.rnd('status' || d.n) < 0.78 then 'open'
         when pg_temp.rnd('status' || d.n) < 0.87 then 'in_progress'
         when pg_temp.rnd('status' || d.n) < 0.97 then 'completed'
         else 'cancelled' end as status,
       pg_temp.rnd('campaign' || d.n) < 0.2 as is_campaign,
       pg_temp.pick(array['fixed', 'fixed', 'fixed', 'fixed', 'fixed', 'fixed', 'performance', 'commission'], 'payout' || d.n) as payout_format,
       pg_temp.rnd('age' || d.n) as age
from generate_series(1, 540) as d(n)
join seed_users b on b.role = 'brand' and b.n = (d.n - 1) % 24 + 1
join seed_products pr on pr.brand_n = b.n and pr.k = ((d.n - 1) / 24) % 6
join seed_briefs br on br.t = (((d.n - 1) / 24) / 6 + ((d.n - 1) / 24) % 6) % 8
cross join lateral (
  select array_agg(p order by p) as platforms from unnest(array['Instagram', 'TikTok', 'YouTube', 'Blog', 'Twitter']) as p
  where p = 'Instagram' or pg_temp.rnd('deal-platform' || d.n || p) < 0.35) as pl;

insert into public.deals (id, brand_id, title, description, amount_cents, budget_cents, requirements, deadline, category,
                          niches, platforms, deliverables, timeline, pro_only, status, payout_format, is_campaign,
                          max_creators, performance_rate, escrow_status, created_at, updated_at)
select d.id, d.brand_id,
       d.title,
       -- Every description is the deal's own: its product, its kind of brief, its deliverables, its
       -- niches and how it pays.
       format('%s: %s. %s The work: %s. Made for creators who cover %s. %s%s',
              d.product, d.blurb, d.ask,
              pg_temp.and_list((select array_agg(case x when 'Instagram Post' then 'an Instagram post' when 'Instagram Story' then 'an Instagram story'
                                                       when 'TikTok Video' then 'a TikTok video' when 'YouTube Video' then 'a YouTube video'
                                                       when 'Blog Post' then 'a blog post' else 'a post on X' end
                                                 order by array_position(array['Instagram Post', 'Instagram Story', 'TikTok Video',
                                                   'YouTube Video', 'Blog Post', 'Twitter Post'], x))
                                from unnest(d.deliverables) as x)),
              lower(pg_temp.and_list(d.niches)),
              case d.payout_format
                when 'performance' then 'Paid on results: a base fee held in escrow plus a rate per tracked sign-up through your link.'
                when 'commission' then 'Paid by commission on every sale through your personal code, with a guaranteed minimum held in escrow.'
                else 'A flat fee, held in escrow from acceptance and released when we approve the work.' end,
              case when d.is_campaign then format(' We are booking %s creators for this campaign.', 2 + d.n % 4) else '' end),
       d.amount_cents,
       case when d.is_campaign then d.amount_cents * (2 + d.n % 4) end,
       (select coalesce(array_agg(r order by r), '{}') from unnest(array['Minimum 5,000 followers', 'Post within 14 days of receiving the product',
          'Tag the brand in every post', 'Include the discount code in the caption', 'Share post insights after 7 days',
          'No competing sponsorships for 30 days', 'English-language content']) as r
         where pg_temp.rnd('req' || d.n || r) < 0.35),
       pg_temp.pick(array['Within 2 weeks', 'Within 30 days', 'End of next month', 'Before the holidays', 'Flexible'], 'deadline' || d.n),
       d.category, d.niches, d.platforms, d.deliverables,
       pg_temp.pick(array['1 week', '2 weeks', '1 month', '2 months', '3+ months'], 'timeline' || d.n),
       d.pro_only, d.status, d.payout_format, d.is_campaign,
       case when d.is_campaign then 2 + d.n % 4 end,
       case when d.is_campaign and d.payout_format = 'performance' then 0.05 end,
       case d.status when 'in_progress' then 'pending'
                     when 'completed' then case when pg_temp.rnd('escrow' || d.n) < 0.2 then 'pending' else 'released' end
                     else 'none' end,
       -- Open deals are recent (a fifth under a week old), the others older.
       now() - case when d.status = 'open' then make_interval(hours => (d.age * 45 * 24)::int + 2)
                    else make_interval(hours => ((30 + d.age * 60) * 24)::int) end,
       now() - case when d.status = 'open' then make_interval(hours => (d.age * 45 * 24)::int + 2)
                    else make_interval(hours => ((30 + d.age * 60) * 24)::int) end
from seed_deals d;

-- ---------------------------------------------------------------------------------------------
-- Applications: 0–8 niche-matched creators per deal (Pro-only deals: Pro creators only); the demo
-- creator applies first to the demo brand's early deals, so it is accepted on the in-progress ones and
-- wins the completed ones.
-- ---------------------------------------------------------------------------------------------

create temp table seed_applications on commit drop as
select pg_temp.uid('application', d.n * 100 + r.rk::int) as id, d.id as deal_id, c.id as creator_id, d.n as deal_n, r.rk, d.status as deal_status,
       d.is_campaign, dl.created_at as deal_created_at
from seed_deals d
join public.deals dl on dl.id = d.id
cross join lateral (
  select c.id, row_number() over (order by (c.n = 1 and d.brand_n = 1 and d.n <= 200) desc, md5(d.id::text || c.id::text)) as rk
  from seed_users c
  where c.role = 'creator' and c.niches && d.niches and (not d.pro_only or c.pro)
    and c.created_at < dl.created_at + interval '20 days'
) as r
join seed_users c on c.id = r.id
where r.rk <= case when d.status in ('in_progress', 'completed') then 2 else 0 end + floor(pg_temp.rnd('apps' || d.n) * 7)::int;

insert into public.applications (id, deal_id, creator_id, status, pitch, created_at, updated_at)
select a.id, a.deal_id, a.creator_id,
       case
         when a.deal_status in ('in_progress', 'completed') and (a.rk = 1 or (a.rk = 2 and a.is_campaign)) then 'accepted'
         when a.deal_status = 'completed' then 'rejected'
         when pg_temp.rnd('app-status' || a.id) < 0.12 and a.rk > 1 then 'rejected'
         when pg_temp.rnd('app-status' || a.id) > 0.95 and a.rk > 1 then 'withdrawn'
         else 'pending' end,
       pg_temp.pick(array[
         'I''ve been using products like this for years and my audience trusts my recommendations.',
         'My followers ask for exactly this kind of content. I can deliver a first draft within a week.',
         'Happy to film a full review plus stories. My last sponsored post reached 3x my average.',
         'This fits my content perfectly; I can share examples of similar campaigns.',
         ''], 'pitch' || a.id),
       least(a.deal_created_at + make_interval(hours => (1 + a.rk * 7 + pg_temp.rnd('app-age' || a.id) * 48)::int), now()),
       least(a.deal_created_at + make_interval(hours => (1 + a.rk * 7 + pg_temp.rnd('app-age' || a.id) * 48)::int), now())
from seed_applications a;

-- A deal in progress or completed needs a selected creator; where nobody matched, it stays open.
update public.deals d set status = 'open', escrow_status = 'none'
where d.status in ('in_progress', 'completed')
  and not exists (select 1 from public.applications a where a.deal_id = d.id and a.status = 'accepted');

-- The server-owned deal fields, as the application triggers would have kept them.
update public.deals d set
  selected_creator_ids = s.selected,
  winner_id = case when d.status = 'completed' then s.selected[1] end,
  completed_at = case when d.status = 'completed' then d.created_at + interval '21 days' end,
  updated_at = case when d.status = 'completed' then d.created_at + interval '21 days' else d.updated_at end
from (select a.deal_id, array_agg(a.creator_id order by a.created_at, a.id) as selected
      from public.applications a where a.status = 'accepted' group by a.deal_id) as s
where s.deal_id = d.id;

update public.deals d set applications_count = c.n
from (select deal_id, count(*) as n from public.applications where status <> 'withdrawn' group by deal_id) as c
where c.deal_id = d.id;

-- Each application's copy of its deal's status (20261124000200_application_deal_status.sql).
update public.applications a set deal_status = d.status
from public.deals d
where d.id = a.deal_id and a.deal_status <> d.status;

-- ---------------------------------------------------------------------------------------------
-- The deal's work in the middle, so a newcomer sees it after `npm start`: the demo creator applied to
-- one of the demo brand's deals at $450, the brand countered with $425 and a due date, the creator
-- accepted; both accepted the terms sheet (version 1, written from the brief); the deal waits for the
-- brand to fund it, since no draft is submitted before the escrow is funded (decision 044). A funded
-- escrow needs a charge the local Stripe knows, and it starts empty on every run: the brand funds it in
-- the demo, then the creator submits the first draft. Written as the rules of public.deal_events would
-- have left it (docs/decisions/030-the-deals-work-is-a-log.md), since triggers are off here.
-- ---------------------------------------------------------------------------------------------

create temp table seed_work on commit drop as
select pg_temp.uid('work-deal', 1) as deal_id, pg_temp.uid('work-application', 1) as app_id,
       pg_temp.uid('brand', 1) as brand_id, pg_temp.uid('creator', 1) as creator_id,
       date_trunc('hour', now()) - interval '6 days' as t0, current_date + 10 as due;

insert into public.deals (id, brand_id, title, description, amount_cents, requirements, deadline, category, niches,
                          platforms, deliverables, timeline, status, payout_format, max_creators, selected_creator_ids,
                          applications_count, escrow_status, created_at, updated_at)
select w.deal_id, w.brand_id, 'Northwind Ridge 28 Pack: Trail Test',
       'Northwind Ridge 28 Pack: a 28-litre daypack with a ventilated back panel and a rain cover in the lid. Take it on '
       || 'two real hikes and show what fits, how it carries and what you would change. The work: an Instagram post. '
       || 'Made for creators who cover outdoors and travel. A flat fee, held in escrow from acceptance and released '
       || 'when we approve the work.',
       45000, array['Tag the brand in every post', 'Share post insights after 7 days'], 'Within 2 weeks', 'Product Review',
       array['Outdoors', 'Travel'], array['Instagram'], array['Instagram Post'], '2 weeks', 'in_progress', 'fixed', 1,
       array[w.creator_id], 1, 'none', w.t0, w.t0 + interval '1 day 3 hours'
from seed_work w;

insert into public.applications (id, deal_id, creator_id, status, pitch, proposed_price_cents, agreed_price_cents,
                                 agreed_due_date, terms_version, terms_accepted_by, terms_agreed_version, work,
                                 deal_status, created_at, updated_at)
select w.app_id, w.deal_id, w.creator_id, 'accepted',
       'I hike most weekends and my followers ask what I carry. Two trail days, honest notes on fit and the rain cover.',
       45000, 42500, w.due, 1, array['creator', 'brand'], 1,
       jsonb_build_object('d1', jsonb_build_object('status', 'not_started', 'rounds_used', 0,
         'rounds_included', (pacta_private.deal_work_defaults() ->> 'revision_rounds')::int,
         'draft_id', null, 'live_id', null, 'live_url', null, 'confirm_due_at', null)),
       'in_progress', w.t0 + interval '2 hours', w.t0 + interval '2 days 2 hours'
from seed_work w;

-- The log, oldest first: the brand's counter-offer, its acceptance, the server's terms sheet, both
-- acceptances.
insert into public.deal_events (id, application_id, deal_id, author_id, kind, price_cents, due_date, terms,
                                terms_version, deliverable_id, ref_id, note, links, created_at, updated_at)
select pg_temp.uid('work-event', e.n), w.app_id, w.deal_id, e.author, e.kind, e.price, e.due, e.terms, e.version,
       e.deliverable, e.ref, e.note, e.links, e.at, e.at
from seed_work w
cross join lateral (values
  (1, w.brand_id, 'offer', 42500, w.due, null::jsonb, null::int, null, null::uuid, '', '{}'::text[], w.t0 + interval '1 day'),
  (2, w.creator_id, 'offer_accepted', null, null, null, null, null, pg_temp.uid('work-event', 1), '', '{}',
   w.t0 + interval '1 day 3 hours'),
  (3, null, 'terms', null, null,
   jsonb_build_object('deliverables', jsonb_build_array(jsonb_build_object('id', 'd1', 'title', 'Instagram Post', 'due_date', w.due)),
                      'usage_rights', 'organic_only', 'usage_days', null, 'exclusivity_days', 0)
     || pacta_private.deal_work_defaults(),
   1, null, null, '', '{}', w.t0 + interval '1 day 3 hours 1 second'),
  (4, w.creator_id, 'terms_accepted', null, null, null, 1, null, null, '', '{}', w.t0 + interval '2 days'),
  (5, w.brand_id, 'terms_accepted', null, null, null, 1, null, null, '', '{}', w.t0 + interval '2 days 2 hours')
) as e(n, author, kind, price, due, terms, version, deliverable, ref, note, links, at);

insert into public.notifications (id, user_id, type, title, message, data, read_at, created_at, updated_at)
select md5('notification:work:' || x.n)::uuid, x.who, x.type, x.title, x.message,
       jsonb_build_object('deal_id', w.deal_id, 'application_id', w.app_id, 'link', '/deals/' || w.deal_id),
       x.read_at, x.at, x.at
from seed_work w
cross join lateral (values
  (1, w.creator_id, 'offer_received', 'New offer',
   'The brand made an offer on "Northwind Ridge 28 Pack: Trail Test": $425.00.', w.t0 + interval '1 day',
   w.t0 + interval '1 day 3 hours'),
  (2, w.brand_id, 'offer_accepted', 'Offer accepted',
   'The offer of $425.00 on "Northwind Ridge 28 Pack: Trail Test" was accepted. Next: accept the terms.',
   w.t0 + interval '1 day 3 hours', w.t0 + interval '2 days 2 hours'),
  (3, w.creator_id, 'terms_accepted', 'Terms accepted',
   'Both sides accepted the terms of "Northwind Ridge 28 Pack: Trail Test".', w.t0 + interval '2 days 2 hours',
   w.t0 + interval '3 days')
) as x(n, who, type, title, message, at, read_at);

-- ---------------------------------------------------------------------------------------------
-- Reviews: both sides of most completed deals.
-- ---------------------------------------------------------------------------------------------

insert into public.reviews (id, deal_id, reviewer_id, reviewee_id, rating, content, created_at, updated_at)
select md5('review:' || d.id || ':' || r.side)::uuid, d.id,
       case when r.side = 'brand' then d.brand_id else d.winner_id end,
       case when r.side = 'brand' then d.winner_id else d.brand_id end,
       r.rating,
       -- What people write: the brand about the creator, the creator about the brand, in the tone of the rating.
       case when r.side = 'brand' then pg_temp.pick(case r.rating
         when 5 then array[
           'Honestly one of the easiest collaborations we have had. The first draft needed no changes and the comments were full of real questions about the product.',
           'Understood the brief better than we did. Delivered two days early, and the story drove more sign-ups than our paid ads that week.',
           'Thoughtful, funny and clear about what did not work for them, which made the good parts more believable. Booking again for the next launch.',
           'Great instincts for what their audience cares about. Suggested a different angle from ours, and was right.',
           'Fast replies, clean edits, and the post insights arrived without us asking. Exactly how we hope every partnership goes.',
           'The video felt like them, not like an ad. Our team shared it internally as the example to follow.']
         when 4 then array[
           'Good content and on time. We went back and forth once on the caption, but the final post was strong.',
           'Lovely to work with and the audience response was warm. The second clip was a little long; the first one was spot on.',
           'Solid work. Numbers were in line with what we expected, and open to feedback on the draft.',
           'Professional and friendly. A slight delay on the story, flagged early, so no harm done.',
           'Really nice photos and an honest write-up. We would have liked one more mention of the discount code.']
         else array[
           'The content was fine but arrived a week late, and we had to chase for the insights.',
           'Nice person, but the post missed two points from the brief, so it took three rounds to get right.',
           'Reach was lower than the profile suggested. Communication was polite throughout.',
           'Usable content in the end; the first draft felt rushed.'] end, 'rc' || d.id)
       else pg_temp.pick(case r.rating
         when 5 then array[
           'Clear brief, product arrived on day one and the payout was released the same afternoon I posted. More brands should work like this.',
           'They let me say what I actually thought, including the one thing I did not love. Rare, and appreciated.',
           'Friendly team, quick approvals and no surprise extra asks. I would happily work with them again.',
           'The brief had everything: key points, dos and don''ts, even example shots. Made my job easy.',
           'Paid on time through escrow and they reshared my post on their own account. Great experience.',
           'Kind, organised and genuinely interested in my audience. Already talking about the next one.']
         when 4 then array[
           'Good brief and fair pay. Approvals took a few days longer than promised, but they kept me posted.',
           'Nice product and a relaxed team. The shipping took a while, so I had less time to test it than I wanted.',
           'Smooth overall. One late change to the caption, handled politely.',
           'Fair deal, clear feedback, payment released right after approval.',
           'Happy with it. The brief was a bit vague on hashtags, but they answered my questions quickly.']
         else array[
           'The product was good but the brief changed twice after I had started filming.',
           'Payment came through in the end, but replies were slow and I had to ask twice for approval.',
           'Okay experience. Three rounds of edits for a single story felt like a lot.',
           'Friendly, but the deadline was tighter than the listing said.'] end, 'rc2' || d.id) end,
       d.completed_at + interval '2 days', d.completed_at + interval '2 days'
from public.deals d
cross join (values ('brand'), ('creator')) as sides(side)
cross join lateral (
  select sides.side, case when pg_temp.rnd('rating' || d.id || sides.side) < 0.55 then 5
                          when pg_temp.rnd('rating' || d.id || sides.side) < 0.9 then 4 else 3 end as rating) as r
where d.status = 'completed' and d.winner_id is not null and pg_temp.rnd('reviewed' || d.id || r.side) < 0.85;

-- ---------------------------------------------------------------------------------------------
-- Referrals: some users came through another's link; referred users with a deal are qualified.
-- ---------------------------------------------------------------------------------------------

insert into public.referrals (id, referrer_id, referred_user_id, qualified, qualified_at, earnings_cents, created_at, updated_at)
select md5('referral:' || u.id)::uuid, r.id, u.id, q.qualified,
       case when q.qualified then u.created_at + interval '10 days' end,
       case when q.qualified then 1000 else 0 end,
       u.created_at, u.created_at
from seed_users u
join seed_users r on r.role = u.role and r.n = case when u.n % 5 = 0 then 1 else 2 + (u.n * 7) % 12 end and r.n < u.n
cross join lateral (select exists (select 1 from public.applications a where a.creator_id = u.id)
                        or exists (select 1 from public.deals d where d.brand_id = u.id) as qualified) as q
where u.role in ('creator', 'brand') and u.n > 1 and pg_temp.rnd('referred' || u.id) < 0.35;

insert into public.referral_badges (id, user_id, badge_type, earned_at, created_at, updated_at)
select md5('badge:' || q.referrer_id || b.badge)::uuid, q.referrer_id, b.badge, now() - interval '5 days', now() - interval '5 days', now() - interval '5 days'
from (select referrer_id, count(*) as n from public.referrals where qualified group by referrer_id) as q
join (values ('bronze', 3), ('silver', 5), ('gold', 10), ('pro_booster', 10)) as b(badge, threshold) on q.n >= b.threshold;

insert into public.referral_rewards (id, referrer_id, referral_id, reward_type, amount_cents, status, issued_at, paid_at, created_at, updated_at)
select md5('reward:' || r.id)::uuid, r.referrer_id, r.id,
       case when pg_temp.rnd('reward-type' || r.id) < 0.6 then 'pro_subscription' else 'deal_earnings_share' end,
       case when pg_temp.rnd('reward-type' || r.id) < 0.6 then 1000 else (500 + floor(pg_temp.rnd('reward' || r.id) * 4000))::bigint end,
       case when r.qualified_at < now() - interval '30 days' then 'paid' else 'pending' end,
       r.qualified_at,
       case when r.qualified_at < now() - interval '30 days' then r.qualified_at + interval '20 days' end,
       r.qualified_at, r.qualified_at
from public.referrals r where r.qualified;

-- ---------------------------------------------------------------------------------------------
-- XP (DEAL_APPLY 25 per application, REFERRAL_QUALIFIED 75) with running totals, then the profiles'
-- server-owned fields: xp, level, rating, deal counters, referral count.
-- ---------------------------------------------------------------------------------------------

insert into public.xp_logs (id, user_id, action, xp_gained, total_xp, metadata, created_at, updated_at)
select md5('xp:' || e.key)::uuid, e.user_id, e.action, e.xp,
       sum(e.xp) over (partition by e.user_id order by e.at, e.key rows unbounded preceding),
       e.metadata, e.at, e.at
from (
  select a.id::text as key, a.creator_id as user_id, 'DEAL_APPLY' as action, 25 as xp,
         jsonb_build_object('deal_id', a.deal_id, 'application_id', a.id) as metadata, a.created_at as at
  from public.applications a
  union all
  select 'ref:' || r.id, r.referrer_id, 'REFERRAL_QUALIFIED', 75, jsonb_build_object('referral_id', r.id), r.qualified_at
  from public.referrals r where r.qualified
) as e;

update public.profiles p set xp = x.total, level = public.level_for_xp(x.total)
from (select user_id, sum(xp_gained)::int as total from public.xp_logs group by user_id) as x
where x.user_id = p.id;

update public.profiles p set rating = r.avg
from (select reviewee_id, round(avg(rating), 2) as avg from public.reviews group by reviewee_id) as r
where r.reviewee_id = p.id;

update public.profiles p set total_deals = c.n
from (select brand_id, count(*) as n from public.deals group by brand_id) as c where c.brand_id = p.id;

update public.profiles p set completed_deals = c.n
from (select brand_id as id, count(*) as n from public.deals where status = 'completed' group by brand_id
      union all
      select unnest(selected_creator_ids), count(*) from public.deals where status = 'completed' group by 1) as c
where c.id = p.id;

update public.profiles p set total_deals = c.n
from (select unnest(selected_creator_ids) as id, count(*) as n from public.deals where status = 'completed' group by 1) as c
where c.id = p.id and p.role = 'creator';

update public.profiles p set referrals_count = c.n
from (select referrer_id, count(*) as n from public.referrals group by referrer_id) as c where c.referrer_id = p.id;

-- ---------------------------------------------------------------------------------------------
-- Inbox: a conversation per accepted pairing on the demo brand's deals and on some others.
-- ---------------------------------------------------------------------------------------------

create temp table seed_conversations on commit drop as
select md5('conversation:' || d.id || a.creator_id)::uuid as id, d.brand_id, a.creator_id, d.id as deal_id, d.title,
       a.created_at + interval '3 hours' as started_at
from public.deals d join public.applications a on a.deal_id = d.id and a.status = 'accepted'
where d.brand_id = pg_temp.uid('brand', 1) or pg_temp.rnd('conversation' || d.id) < 0.2;

insert into public.conversations (id, user1_id, user2_id, deal_id, title, last_message, last_message_at, created_at, updated_at)
select c.id, c.brand_id, c.creator_id, c.deal_id, c.title, 'Got it, looking forward to it!',
       c.started_at + interval '20 hours', c.started_at, c.started_at + interval '20 hours'
from seed_conversations c;

insert into public.messages (id, conversation_id, sender_id, recipient_id, body, read_at, created_at, updated_at)
select md5('message:' || c.id || m.k)::uuid, c.id,
       case when m.k % 2 = 1 then c.brand_id else c.creator_id end,
       case when m.k % 2 = 1 then c.creator_id else c.brand_id end,
       m.body,
       case when m.k < 4 then c.started_at + make_interval(hours => m.k * 5 + 1) end,
       c.started_at + make_interval(hours => m.k * 5), c.started_at + make_interval(hours => m.k * 5)
from seed_conversations c
cross join (values
  (1, 'Hi! Thanks for applying, we loved your pitch. Could you share your availability for the shoot?'),
  (2, 'Thank you! I''m free next week and can send a content plan by Friday.'),
  (3, 'Perfect. The product ships tomorrow; drafts go through the deal page as usual.'),
  (4, 'Got it, looking forward to it!')) as m(k, body);


-- ---------------------------------------------------------------------------------------------
-- Support: tickets from a few users (Pro ones high priority), staff replies, some closed.
-- ---------------------------------------------------------------------------------------------

create temp table seed_tickets on commit drop as
select md5('ticket:' || u.id)::uuid as id, u.id as user_id, u.pro, u.n, u.role,
       now() - make_interval(hours => (pg_temp.rnd('ticket-age' || u.id) * 20 * 24)::int + 3) as opened_at,
       (u.n = 1 and u.role = 'creator') or pg_temp.rnd('answered' || u.id) < 0.7 as answered,
       not (u.n = 1 and u.role = 'creator') and pg_temp.rnd('closed' || u.id) < 0.4 as closed,
       pg_temp.pick(array['Payout not received yet', 'How do I change my niches?', 'Brand stopped responding',
         'Question about the service fee', 'Cannot upload my avatar', 'Deal was cancelled after I started'], 'subject' || u.id) as subject
from seed_users u
where u.role in ('creator', 'brand') and ((u.n = 1 and u.role = 'creator') or pg_temp.rnd('ticket' || u.id) < 0.12);

insert into public.support_tickets (id, user_id, subject, message, priority, status, is_pro, first_response_at, created_at, updated_at)
select t.id, t.user_id, t.subject,
       -- Each subject its own words (a lower-cased subject read "how do i change my niches?.").
       case t.subject
         when 'Payout not received yet' then 'Hi team, the payout for my last completed deal has not arrived yet. Could you take a look? Thanks!'
         when 'How do I change my niches?' then 'Hi, how do I change my niches? I cover more topics now than when I signed up.'
         when 'Brand stopped responding' then 'Hi team, the brand stopped responding after I sent my draft. Could you take a look? Thanks!'
         when 'Question about the service fee' then 'Hello, is the 12% service fee added on top of the deal amount, or taken out of it?'
         when 'Cannot upload my avatar' then 'Hi, my new profile picture never shows up on my profile. Could you take a look?'
         else 'Hi team, a deal was cancelled after I had started the work. What happens now?'
       end,
       case when t.pro then 'high' else 'normal' end,
       case when t.closed then 'closed' else 'open' end,
       t.pro,
       case when t.answered then t.opened_at + make_interval(mins => 20 + t.n % 200) end,
       t.opened_at, t.opened_at
from seed_tickets t;

insert into public.support_messages (id, ticket_id, user_id, message, created_at, updated_at)
select md5('ticket-reply:' || t.id)::uuid, t.id, pg_temp.uid('admin', 1),
       'Thanks for reaching out! We''re looking into it and will update this ticket within 24 hours.',
       t.opened_at + make_interval(mins => 20 + t.n % 200), t.opened_at + make_interval(mins => 20 + t.n % 200)
from seed_tickets t where t.answered;

-- ---------------------------------------------------------------------------------------------
-- Notifications, saved lists and the contact inbox, for the demo accounts mostly.
-- ---------------------------------------------------------------------------------------------

insert into public.notifications (id, user_id, type, title, message, data, read_at, created_at, updated_at)
select md5('notification:new:' || a.id)::uuid, d.brand_id, 'new_application', 'New application',
       format('%s applied to "%s".', p.full_name, d.title), jsonb_build_object('deal_id', d.id, 'application_id', a.id),
       case when a.created_at < now() - interval '3 days' then a.created_at + interval '1 hour' end, a.created_at, a.created_at
from public.applications a join public.deals d on d.id = a.deal_id join public.profiles p on p.id = a.creator_id
where d.brand_id = pg_temp.uid('brand', 1)
union all
select md5('notification:status:' || a.id)::uuid, a.creator_id, 'application_' || a.status,
       case when a.status = 'accepted' then 'Application accepted' else 'Application not selected' end,
       format('Your application to "%s" was %s.', d.title, case when a.status = 'accepted' then 'accepted' else 'not selected' end),
       jsonb_build_object('deal_id', d.id, 'application_id', a.id), null, a.created_at + interval '1 day', a.created_at + interval '1 day'
from public.applications a join public.deals d on d.id = a.deal_id
where a.creator_id = pg_temp.uid('creator', 1) and a.status in ('accepted', 'rejected')
union all
select md5('notification:level:' || p.id)::uuid, p.id, 'level_up', 'Level Up!', format('You reached level %s.', p.level),
       jsonb_build_object('level', p.level, 'xp', p.xp), null, now() - interval '2 days', now() - interval '2 days'
from public.profiles p where p.id = pg_temp.uid('creator', 1) and p.level > 1;

insert into public.saved_lists (id, user_id, kind, items, created_at, updated_at)
select md5('saved:shortlist:' || pg_temp.uid('brand', 1))::uuid, pg_temp.uid('brand', 1), 'shortlist',
       array(select c.id::text from seed_users c where c.role = 'creator' and c.niches && array['Outdoors', 'Travel', 'Sports']
             order by md5('short' || c.id) limit 6), now() - interval '3 days', now() - interval '3 days'
union all
select md5('saved:saved_campaigns:' || pg_temp.uid('creator', 1))::uuid, pg_temp.uid('creator', 1), 'saved_campaigns',
       array(select d.id::text from public.deals d where d.status = 'open' and not d.pro_only and d.brand_id <> pg_temp.uid('brand', 1)
               and d.niches && (select niches from seed_users where id = pg_temp.uid('creator', 1))
             order by d.created_at desc limit 4), now() - interval '1 day', now() - interval '1 day';

insert into public.contact_messages (name, email, subject, message, created_at) values
  ('Jordan Blake', 'jordan@example.com', 'partnership', 'We run a creator agency with 40 talents and would love to onboard them.', now() - interval '4 days'),
  ('Priya Raman', 'priya@example.com', 'billing', 'Can brands pay by bank transfer instead of card?', now() - interval '1 day');

-- The operator's step: the demo admin is an admin.
update public.profiles set role = 'admin' where id = pg_temp.uid('admin', 1);

-- Guard the generated data against the invariants the rules keep.
do $$
begin
  if (select count(distinct referral_code) from public.profiles) <> (select count(*) from public.profiles) then
    raise exception 'seed: duplicate referral codes';
  end if;
  if exists (select 1 from public.deals where status = 'completed' and (winner_id is null or cardinality(selected_creator_ids) = 0)) then
    raise exception 'seed: a completed deal without a winner';
  end if;
  if (select count(distinct n) from (select unnest(niches) as n from public.profiles where role = 'creator') x) <> 26 then
    raise exception 'seed: creators do not cover the 26 niches';
  end if;
end $$;

set local session_replication_role = origin;

-- ---------------------------------------------------------------------------------------------
-- Support desk: the fields its rules keep, derived for the history above (written trigger-free),
-- and the contact inbox as tickets of kind 'contact' in the staff queue.
-- ---------------------------------------------------------------------------------------------

set local session_replication_role = replica;

update public.support_messages m set is_staff = true
from public.support_tickets t
where t.id = m.ticket_id and m.user_id is distinct from t.user_id
  and m.user_id in (select p.id from public.profiles p where p.role = 'admin');

update public.support_tickets t
set last_activity_at = greatest(t.created_at, (select max(m.created_at) from public.support_messages m where m.ticket_id = t.id)),
    closed_at = case when t.status = 'closed' then least(now(), greatest(t.created_at,
      (select max(m.created_at) from public.support_messages m where m.ticket_id = t.id)) + interval '1 hour') end;

insert into public.support_tickets (id, user_id, subject, message, kind, contact_message_id, contact_name, contact_email,
                                    created_at, updated_at, last_activity_at)
select md5('contact-ticket:' || c.id)::uuid, c.user_id, pacta_private.contact_ticket_subject(c.subject), c.message, 'contact',
       c.id, c.name, c.email, c.created_at, c.created_at, c.created_at
from public.contact_messages c
where not exists (select 1 from public.support_tickets t where t.contact_message_id = c.id);

set local session_replication_role = origin;

-- ---------------------------------------------------------------------------------------------
-- Briefs, portfolios and reviews (20261123000400_briefs_reviews.sql): reviews are blind until both
-- sides have written or the 14-day window closed, so each seeded review gets the moment it became
-- visible, and ratings count visible reviews only.
-- ---------------------------------------------------------------------------------------------

set local session_replication_role = replica;

update public.reviews r set published_at = coalesce(
    (select greatest(r.created_at, o.created_at) from public.reviews o
      where o.deal_id = r.deal_id and o.reviewer_id = r.reviewee_id and o.reviewee_id = r.reviewer_id),
    d.completed_at + interval '14 days')
from public.deals d where d.id = r.deal_id;

update public.profiles p set rating = coalesce((
    select round(avg(r.rating), 2) from public.reviews r
    where r.reviewee_id = p.id and not r.deleted and r.published_at <= now()), 0);

set local session_replication_role = origin;

-- ---------------------------------------------------------------------------------------------
-- Conversations: sequences and read state. The messages above were written trigger-free, so they are
-- numbered here as the server numbers arrivals (by time), and each member's read position is the
-- newest message they sent or had read.
-- ---------------------------------------------------------------------------------------------

set local session_replication_role = replica;

update public.messages m set seq = n.seq
from (select id, row_number() over (partition by conversation_id order by created_at, id) as seq from public.messages) as n
where n.id = m.id;

update public.conversations c set
  last_seq = coalesce((select max(m.seq) from public.messages m where m.conversation_id = c.id), 0),
  user1_read_seq = coalesce((select max(m.seq) from public.messages m where m.conversation_id = c.id
                              and (m.sender_id = c.user1_id or m.read_at is not null)), 0),
  user2_read_seq = coalesce((select max(m.seq) from public.messages m where m.conversation_id = c.id
                              and (m.sender_id = c.user2_id or m.read_at is not null)), 0);

set local session_replication_role = origin;

-- ---------------------------------------------------------------------------------------------
-- Money demo data. The deals above carry escrow states with no money behind them. A funded deal
-- needs a real charge the payment provider knows (the local Stripe starts empty on every run), so
-- deals "funded and held" go back to not funded (the brand can fund them in the demo); released deals
-- get the escrow and ledger rows their history implies (demo references, never sent to Stripe), so
-- every seeded deal's ledger balances.
-- ---------------------------------------------------------------------------------------------
update public.deals d set escrow_status = 'none'
where d.escrow_status = 'pending' and not exists (select 1 from public.deal_escrows e where e.deal_id = d.id);

with released as (
  select d.id, d.brand_id, d.amount_cents, coalesce(d.winner_id, d.selected_creator_ids[1]) as creator_id,
         coalesce(d.completed_at, d.updated_at) as released_at, d.created_at,
         (d.amount_cents * 1200 * 2 + 10000) / 20000 as fee,
         (d.amount_cents * (case when public.is_pro_user(coalesce(d.winner_id, d.selected_creator_ids[1])) then 250 else 500 end) * 2 + 10000) / 20000 as commission
  from public.deals d
  where d.escrow_status = 'released' and not exists (select 1 from public.deal_escrows e where e.deal_id = d.id)
), escrows as (
  insert into public.deal_escrows (deal_id, brand_id, amount_cents, service_fee_cents, payment_intent_id, charge_id, funded_at,
                                   creator_id, transfer_id, released_at, transferred_cents, commission_cents)
  select id, brand_id, amount_cents, fee, 'demo_pi_' || id, 'demo_ch_' || id, created_at,
         creator_id, 'demo_tr_' || id, released_at, amount_cents - commission, commission
  from released
  returning deal_id
)
insert into public.ledger_entries (deal_id, user_id, kind, amount_cents, stripe_ref, memo, created_at)
select r.id, m.user_id, m.kind, m.amount, m.ref, m.memo, m.at
from released r
cross join lateral (values
  (r.brand_id, 'charge', r.amount_cents + r.fee, 'demo_ch_' || r.id, 'Brand funded the deal (demo)', r.created_at),
  (null::uuid, 'fee', r.fee, 'demo_ch_' || r.id, 'Service fee (12%) (demo)', r.created_at),
  (r.creator_id, 'transfer', r.amount_cents - r.commission, 'demo_tr_' || r.id, 'Payout to the creator (demo)', r.released_at),
  (null::uuid, 'commission', r.commission, 'demo_tr_' || r.id, 'Commission (demo)', r.released_at)
) as m(user_id, kind, amount, ref, memo, at);

-- The released deals' accepted creators had their prices funded by that charge (decision 048); a
-- server-kept field, written with the triggers off as above.
set local session_replication_role = replica;
update public.applications a set price_funded_at = e.funded_at
from public.deal_escrows e
where e.deal_id = a.deal_id and a.status = 'accepted' and a.price_funded_at is null;

-- ---------------------------------------------------------------------------------------------
-- Growth (XP award subjects, the referral Pro grant, rewards for the demo brand's payout history).
-- Same conventions as above: triggers off, server-owned fields derived as the growth rules keep them.
-- ---------------------------------------------------------------------------------------------

set local session_replication_role = replica;

-- Each award is about a subject (one award per user, action and subject): the subject the rules give.
update public.xp_logs set subject = case when action = 'REFERRAL_QUALIFIED' then metadata ->> 'referral_id' else metadata::text end
where subject is null;

-- 10 qualified referrals (the pro_booster badge) bring Pro for 1 year from the badge.
insert into public.user_pro_features (user_id, feature_id, expires_at, created_at)
select b.user_id, f.id, b.earned_at + interval '1 year', b.earned_at
from public.referral_badges b
join public.pro_features f on f.name in ('pro_deals', 'priority_matching', 'priority_support', 'lower_commission')
where b.badge_type = 'pro_booster'
on conflict (user_id, feature_id) do nothing;

-- The demo brand's latest referred creator earned it 5% of a payout this week: pending until the next run.
insert into public.referral_rewards (id, referrer_id, referral_id, reward_type, amount_cents, status, issued_at, deal_id, created_at, updated_at)
select md5('reward:demo-brand-share:' || r.id)::uuid, r.referrer_id, r.id, 'deal_earnings_share', 2250, 'pending',
       now() - interval '3 days', null, now() - interval '3 days', now() - interval '3 days'
from public.referrals r
where r.referrer_id = pg_temp.uid('brand', 1) and r.qualified
order by r.qualified_at desc limit 1;

update public.referrals r set earnings_cents = w.total
from (select referral_id, sum(amount_cents) as total from public.referral_rewards group by referral_id) as w
where w.referral_id = r.id;

-- The mirror of the grants on the profile (its trigger is off here too).
update public.profiles p set granted_pro_features = pacta_private.granted_pro_features_of(p.id)
where exists (select 1 from public.user_pro_features u where u.user_id = p.id);

set local session_replication_role = origin;
