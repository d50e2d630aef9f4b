import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, expect, inject, test } from 'vitest';
import { createDatabase, type Database } from '../../sync-server/db/database.ts';
import { DEMO_LOGINS, DEMO_PASSWORD } from '../../sync-server/db/demo-logins.ts';
import { migrate, type MigrationReport } from '../../sync-server/db/migrate.ts';
import { storeDemoFiles } from '../../sync-server/storage/demo-files.ts';
import { createDiskStore } from '../../sync-server/storage/object-store.ts';
import { startTestServer } from '../support/test-server.ts';
import { applicationDocument, dealEventDocument } from '../../src/domain/collections/index.ts';
import { defaultTermsSheet } from '../../src/domain/deal-work.ts';
import { waitingItems, workStatusText, workView } from '../../src/domain/deal-work-view.ts';

// What `npm start` does on a fresh embedded database: bootstrap + migrations + seed.sql.
let db: Database;
let report: MigrationReport;
let dropDatabase: () => Promise<void>;
let databaseUrl: string;

beforeAll(async () => {
  const adminUrl = inject('pgAdminUrl');
  const name = `pacta_seed_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  databaseUrl = url.toString();
  report = await migrate(databaseUrl, { localBootstrap: true, seed: true });
  db = createDatabase(databaseUrl);
  dropDatabase = async () => {
    const c = new pg.Client({ connectionString: adminUrl });
    await c.connect();
    await c.query(`drop database if exists ${name} with (force)`);
    await c.end();
  };
});
afterAll(async () => {
  await db?.close();
  await dropDatabase?.();
});

const one = async (sql: string, params: unknown[] = []) => (await db.pool.query(sql, params)).rows[0];

test('a fresh database is seeded once, and a second migrate does not seed again', async () => {
  expect(report.seeded).toBe(true);
  const again = await migrate(databaseUrl, { localBootstrap: true, seed: true });
  expect(again).toEqual({ bootstrap: [], migrations: [], seeded: false });
});

test('the demo marketplace has the promised size', async () => {
  const counts = await one(`select
    (select count(*) from public.profiles where role = 'brand')::int as brands,
    (select count(*) from public.profiles where role = 'creator')::int as creators,
    (select count(*) from public.deals)::int as deals,
    (select count(*) from public.applications)::int as applications,
    (select count(*) from public.reviews)::int as reviews,
    (select count(distinct n) from (select unnest(niches) as n from public.profiles where role = 'creator') x)::int as niches`);
  expect(counts.brands).toBeGreaterThanOrEqual(20);
  expect(counts.creators).toBeGreaterThanOrEqual(200);
  expect(counts.deals).toBeGreaterThanOrEqual(500);
  expect(counts.applications).toBeGreaterThan(1000);
  expect(counts.reviews).toBeGreaterThan(50);
  expect(counts.niches).toBe(26);
});

test('the demo logins exist with their roles and the demo password (GoTrue bcrypt)', async () => {
  for (const login of DEMO_LOGINS) {
    const row = await one(
      `select p.role, u.encrypted_password, u.email_confirmed_at, u.encrypted_password = crypt($2, u.encrypted_password) as password_ok
       from auth.users u join public.profiles p on p.id = u.id where u.email = $1`,
      [login.email, DEMO_PASSWORD],
    );
    expect(row.role).toBe(login.role);
    expect(row.email_confirmed_at).toBeInstanceOf(Date);
    expect(row.encrypted_password).toMatch(/^\$2[aby]\$10\$/);
    expect(row.password_ok).toBe(true); // pgcrypto's bcrypt check, the same algorithm GoTrue uses
  }
});

test('the demo brand and creator have work in every state', async () => {
  const brand = await one(`select array_agg(distinct d.status order by d.status) as statuses from public.deals d
    join auth.users u on u.id = d.brand_id where u.email = 'brand@pacta.dev'`);
  expect(brand.statuses).toEqual(['cancelled', 'completed', 'in_progress', 'open']);
  const creator =
    await one(`select array_agg(distinct a.status order by a.status) as statuses, count(*)::int as n from public.applications a
    join auth.users u on u.id = a.creator_id where u.email = 'creator@pacta.dev'`);
  expect(creator.n).toBeGreaterThanOrEqual(5);
  expect(creator.statuses).toEqual(expect.arrayContaining(['accepted', 'pending']));
});

test('the demo brand and creator have a deal in the middle of the work: offer countered, terms accepted, funding awaited', async () => {
  const ids = await one(`select (select id from auth.users where email = 'brand@pacta.dev') as brand,
    (select id from auth.users where email = 'creator@pacta.dev') as creator`);
  const row = await one(
    `select a.* from public.applications a join public.deals d on d.id = a.deal_id
      where d.brand_id = $1 and a.creator_id = $2 and a.terms_agreed_version > 0`,
    [ids.brand, ids.creator],
  );
  const log = (
    await db.pool.query(`select * from public.deal_events where application_id = $1 order by created_at, id`, [row.id])
  ).rows;
  expect(log.map((e) => e.kind)).toEqual(['offer', 'offer_accepted', 'terms', 'terms_accepted', 'terms_accepted']);
  expect(log[0]).toMatchObject({ author_id: ids.brand, price_cents: 42_500 });
  expect(log[2].terms).toEqual(defaultTermsSheet(['Instagram Post'], log[2].terms.deliverables[0].due_date));

  // As both devices read it (the rows as they replicate, through the screens' own rules).
  const json = (await db.pool.query(`select to_jsonb(a) as a from public.applications a where id = $1`, [row.id]))
    .rows[0].a;
  const app = applicationDocument.parse(json);
  const events = log.map((e) =>
    dealEventDocument.parse({
      ...e,
      due_date: e.due_date instanceof Date ? e.due_date.toISOString().slice(0, 10) : e.due_date,
      created_at: e.created_at.toISOString(),
      updated_at: e.updated_at.toISOString(),
      version: Number(e.version),
    }),
  );
  const view = workView(app, events);
  expect(view.agreed?.priceCents).toBe(42_500);
  expect(view.offer).toBeNull();
  expect(view.deliverables).toMatchObject([{ title: 'Instagram Post', status: 'not_started', draft: null }]);
  expect(workStatusText(app, view, (d) => d)).toBe('Terms accepted');
  // No draft before the escrow is funded: the deal waits on the brand, and its escrow is not funded.
  const { escrow_status } = await one(`select escrow_status from public.deals where id = $1`, [row.deal_id]);
  expect(escrow_status).toBe('none');
  expect(waitingItems(app, view, escrow_status)).toEqual([{ on: 'brand', kind: 'fund' }]);

  // The seeded state is the rules' own: the creator's draft is refused until the brand funds the deal,
  // then goes through them as on any deal.
  const draft = () =>
    db.asUser({ sub: ids.creator, role: 'authenticated' }, (tx) =>
      tx.query(
        `insert into public.deal_events (id, application_id, deal_id, author_id, kind, deliverable_id, links)
         values (gen_random_uuid(), $1, $2, $3, 'draft', 'd1', array['https://video.example/northwind-ridge-28/cut-1'])`,
        [row.id, row.deal_id, ids.creator],
      ),
    );
  await expect(draft()).rejects.toMatchObject({ message: 'not_funded' });
  await db.pool.query(`update public.deals set escrow_status = 'pending' where id = $1`, [row.deal_id]);
  await draft();
  expect((await one(`select work -> 'd1' as w from public.applications where id = $1`, [row.id])).w).toMatchObject({
    status: 'draft_submitted',
    rounds_used: 0,
    rounds_included: 2,
  });
});

test('the seeded data keeps the invariants the rules keep', async () => {
  const broken = await one(`select
    (select count(*) from public.deals where status = 'completed' and (winner_id is null or winner_id <> selected_creator_ids[1]))::int as no_winner,
    (select count(*) from public.deals where status = 'in_progress' and cardinality(selected_creator_ids) = 0)::int as nobody_selected,
    (select count(*) from public.deals d where applications_count <>
        (select count(*) from public.applications a where a.deal_id = d.id and a.status <> 'withdrawn'))::int as bad_count,
    (select count(*) from public.applications a join public.deals d on d.id = a.deal_id join public.profiles p on p.id = a.creator_id
        where d.pro_only and p.pro_tier = 'free')::int as pro_only_by_free,
    (select count(*) from public.applications a join public.deals d on d.id = a.deal_id where a.deal_status <> d.status)::int as bad_deal_status,
    (select count(*) from public.profiles p where p.xp <> coalesce((select sum(x.xp_gained) from public.xp_logs x where x.user_id = p.id), 0)
        or p.level <> public.level_for_xp(p.xp))::int as bad_xp`);
  expect(broken).toEqual({
    no_winner: 0,
    nobody_selected: 0,
    bad_count: 0,
    pro_only_by_free: 0,
    bad_deal_status: 0,
    bad_xp: 0,
  });
});

test('seeded rows are normal rows: the demo creator can apply to an open deal through the rules', async () => {
  const creator = await one(`select id from auth.users where email = 'creator@pacta.dev'`);
  const deal = await one(
    `select d.id from public.deals d where d.status = 'open' and not d.pro_only
    and not exists (select 1 from public.applications a where a.deal_id = d.id and a.creator_id = $1) limit 1`,
    [creator.id],
  );
  const before = await one(`select xp from public.profiles where id = $1`, [creator.id]);
  await db.asUser({ sub: creator.id, role: 'authenticated' }, (tx) =>
    tx.query(`insert into public.applications (id, deal_id, creator_id) values (gen_random_uuid(), $1, $2)`, [
      deal.id,
      creator.id,
    ]),
  );
  expect((await one(`select xp from public.profiles where id = $1`, [creator.id])).xp).toBe(before.xp + 25);
});

test('every seeded deal has its own title and a description that fits its brand, deliverables and niches', async () => {
  const repeats = await one(`select
    (select count(*) - count(distinct title) from public.deals)::int as titles,
    (select count(*) - count(distinct description) from public.deals)::int as descriptions`);
  expect(repeats).toEqual({ titles: 0, descriptions: 0 });
  const misfits = await db.pool.query(`
    select d.title, d.description from public.deals d
    where d.status = 'open' and (
      -- the title names a product the description introduces
      position(split_part(d.description, ':', 1) in d.title) = 0
      -- a listed deliverable for a platform the deal does not ask for
      or exists (select 1 from unnest(d.deliverables) x where split_part(x, ' ', 1) not in (select unnest(d.platforms)) and x <> 'Blog Post')
      or ('Blog' = any (d.platforms)) <> ('Blog Post' = any (d.deliverables))
      -- the description names every niche
      or exists (select 1 from unnest(d.niches) n where position(lower(n) in d.description) = 0))
    limit 3`);
  expect(misfits.rows).toEqual([]);
});

test('every seeded deal has the category its title says', async () => {
  const { rows } = await db.pool.query(`
    select d.title, d.category from public.deals d
    where not (case
      when d.title like '%Giveaway' then d.category = 'Giveaway'
      when d.title like '%Unboxing' then d.category = 'Unboxing'
      when d.title like 'How I Use the %' then d.category = 'Tutorial'
      when d.title like '%: 30-Day Test' or d.title like '%: Before and After' or d.title like '%: Trail Test'
        then d.category = 'Product Review'
      when d.title like '%Ambassador Season' then d.category = 'Brand Ambassador'
      when d.title like '%Launch' or d.title like 'A Week With the %' then d.category = 'Sponsored Post'
      else false end)
    limit 3`);
  expect(rows).toEqual([]);
});

test('demo pictures are only on Pacta storage, and reviews read like people (not one line for all)', async () => {
  const people = await one(`select count(*) filter (where avatar_url is not null
    and not pacta_private.is_storage_picture(avatar_url, id, array['avatars', 'brand-logos']))::int as elsewhere
    from public.profiles`);
  expect(people.elsewhere).toBe(0);
  const reviews = await one(`select count(*)::int as n, count(distinct content)::int as distinct_texts,
    count(*) filter (where rating = 3 and content ~* '(great|easiest|lovely)')::int as upbeat_three_stars from public.reviews`);
  expect(reviews.distinct_texts).toBeGreaterThanOrEqual(20);
  expect(reviews.upbeat_three_stars).toBe(0);
});

test("the demo creator's and brand's pictures ship with the app and are served from Pacta's storage", async () => {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'pacta-seed-files-'));
  try {
    // What `npm start` does after seeding a fresh database with its own file store (DATA_DIR/storage).
    const stored = await storeDemoFiles(db, await createDiskStore(path.join(dataDir, 'storage')), 100 * 1024 * 1024);
    expect(stored.length).toBeGreaterThanOrEqual(2);
    // Every other demo person and brand gets a picture drawn from their id, stored the same way.
    const pictures = await one(`select count(*)::int as people,
      count(*) filter (where avatar_url is null)::int as without,
      count(*) filter (where not pacta_private.is_storage_picture(avatar_url, id, array['avatars', 'brand-logos']))::int as elsewhere
      from public.profiles where role in ('creator', 'brand')`);
    expect(pictures).toMatchObject({ without: 0, elsewhere: 0 });
    expect(stored.length).toBe(pictures.people);
    const drawn = await one(`select p.avatar_url from public.profiles p join auth.users u on u.id = p.id
      where p.role = 'brand' and u.email <> 'brand@pacta.dev' order by p.id limit 1`);
    const server = await startTestServer({ databaseUrl, env: { DATA_DIR: dataDir } });
    try {
      const logo = await fetch(`${server.url}${drawn.avatar_url}`);
      expect([drawn.avatar_url, logo.status, logo.headers.get('content-type')]).toEqual([
        expect.stringMatching(/^\/storage\/v1\/object\/public\/brand-logos\/[0-9a-f-]{36}\/demo\.webp$/),
        200,
        'image/webp',
      ]);
      for (const email of ['creator@pacta.dev', 'brand@pacta.dev']) {
        const { avatar_url: url } = await one(
          `select p.avatar_url from public.profiles p join auth.users u on u.id = p.id where u.email = $1`,
          [email],
        );
        expect(url).toMatch(/^\/storage\/v1\/object\/public\/(avatars|brand-logos)\//);
        const res = await fetch(`${server.url}${url}`);
        expect([email, res.status, res.headers.get('content-type')]).toEqual([email, 200, 'image/webp']);
        expect((await res.arrayBuffer()).byteLength).toBeGreaterThan(500);
      }
    } finally {
      await server.close();
    }
  } finally {
    await fs.rm(dataDir, { recursive: true, force: true });
  }
});
