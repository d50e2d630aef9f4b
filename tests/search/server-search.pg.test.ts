import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startTestServer, type TestServer, type TestUser } from '../support/test-server.ts';
import { creatorSearchResponse, dealSearchResponse, searchQueryString } from '../../src/domain/search.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ env: { SEARCH_RATE_LIMIT_PER_MINUTE: '40' } });
});
afterAll(() => server?.close());

const get = (path: string, user?: TestUser) =>
  fetch(`${server.url}${path}`, { headers: user ? { authorization: `Bearer ${user.accessToken}` } : {} });

async function searchDeals(user: TestUser, request: Record<string, string | number | string[] | undefined>) {
  const res = await get(`/api/search/deals?${searchQueryString(request)}`, user);
  expect(res.status).toBe(200);
  return dealSearchResponse.parse(await res.json());
}

type DealRow = {
  title: string;
  description?: string;
  amount_cents?: number;
  niches?: string[];
  deliverables?: string[];
  category?: string | null;
  pro_only?: boolean;
  status?: string;
  created_at?: string;
};

async function insertDeal(brandId: string, row: DealRow): Promise<string> {
  const id = randomUUID();
  await server.db.asService((tx) =>
    tx.query(
      `insert into public.deals (id, brand_id, title, description, amount_cents, niches, deliverables, category, pro_only, status)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
      [
        id,
        brandId,
        row.title,
        row.description ?? 'A sponsorship deal.',
        row.amount_cents ?? 50_000,
        row.niches ?? ['Fitness'],
        row.deliverables ?? [],
        row.category ?? null,
        row.pro_only ?? false,
        row.status ?? 'open',
      ],
    ),
  );
  return id;
}

describe('GET /api/search/deals', () => {
  let brand: TestUser;
  let creator: TestUser;
  const ids: Record<string, string> = {};
  beforeAll(async () => {
    brand = await server.createUser({ role: 'brand', fullName: 'Zephyrine Outdoors' });
    creator = await server.createUser({ role: 'creator' });
    ids.title = await insertDeal(brand.id, {
      title: 'Kayak gear review',
      amount_cents: 30_000,
      niches: ['Travel'],
      category: 'Product Review',
    });
    ids.description = await insertDeal(brand.id, {
      title: 'Summer feature',
      description: 'Show our kayak on a lake trip.',
      amount_cents: 90_000,
      niches: ['Fitness'],
    });
    ids.deliverable = await insertDeal(brand.id, {
      title: 'Paddle story',
      deliverables: ['Three kayaking reels'],
      amount_cents: 60_000,
      niches: ['Travel'],
    });
    ids.other = await insertDeal(brand.id, { title: 'Protein shake launch', niches: ['Fitness'] });
    ids.proOnly = await insertDeal(brand.id, { title: 'Kayak expedition (Pro)', pro_only: true });
    ids.cancelled = await insertDeal(brand.id, { title: 'Kayak giveaway', status: 'cancelled' });
  });

  test('finds deals by title, description and deliverables, the title match first (ranking)', async () => {
    const found = await searchDeals(creator, { q: 'kayak' });
    expect(found.deals.map((d) => d.id)).toEqual([ids.title, ids.deliverable, ids.description]);
    expect(found.next_offset).toBeNull();
    // A whole deal, as the device holds it.
    expect(found.deals[0]).toMatchObject({ title: 'Kayak gear review', brand_id: brand.id, status: 'open' });
  });

  test("finds a brand's deals by the brand's name, not by the rest of the brand's profile", async () => {
    const found = await searchDeals(creator, { q: 'zephyrine', sort: 'newest' });
    expect(new Set(found.deals.map((d) => d.id))).toEqual(
      new Set([ids.title, ids.description, ids.deliverable, ids.other]),
    );
    await server.db.asService((tx) =>
      tx.query(`update public.profiles set bio = 'We love woodworking', niches = '{Woodworking}' where id = $1`, [
        brand.id,
      ]),
    );
    expect((await searchDeals(creator, { q: 'woodworking' })).deals).toEqual([]);
  });

  test('combines the text with the filters and the sort, and pages', async () => {
    const travel = await searchDeals(creator, { q: 'kayak', niches: ['Travel'], sort: 'amount' });
    expect(travel.deals.map((d) => d.id)).toEqual([ids.deliverable, ids.title]);
    const inRange = await searchDeals(creator, { q: 'kayak', min_cents: 50_000, max_cents: 95_000, sort: 'amount' });
    expect(inRange.deals.map((d) => d.id)).toEqual([ids.description, ids.deliverable]);
    const category = await searchDeals(creator, { q: 'kayak', category: 'Product Review' });
    expect(category.deals.map((d) => d.id)).toEqual([ids.title]);
    const first = await searchDeals(creator, { q: 'kayak', limit: 2 });
    expect(first.next_offset).toBe(2);
    const second = await searchDeals(creator, { q: 'kayak', limit: 2, offset: 2 });
    expect([...first.deals, ...second.deals].map((d) => d.id)).toEqual([ids.title, ids.deliverable, ids.description]);
    expect(second.next_offset).toBeNull();
  });

  test('runs as the user: what row-level security hides is never found', async () => {
    const free = await searchDeals(creator, { q: 'kayak' });
    expect(free.deals.map((d) => d.id)).not.toContain(ids.proOnly);
    const pro = await server.createUser({ role: 'creator' });
    await server.db.asService((tx) =>
      tx.query(`select public.grant_pro_features($1, array['pro_deals'], interval '30 days')`, [pro.id]),
    );
    expect((await searchDeals(pro, { q: 'kayak' })).deals.map((d) => d.id)).toContain(ids.proOnly);
    // Another brand's deal that is not published (here cancelled) is found by no one else, not even
    // with every filter off; the brand's own list shows it where it belongs (My Deals), not in search.
    const otherBrand = await server.createUser({ role: 'brand' });
    const hidden = await insertDeal(brand.id, { title: 'Unlisted kayak tour', status: 'in_progress' });
    for (const who of [creator, otherBrand, pro])
      expect((await searchDeals(who, { q: 'unlisted' })).deals.map((d) => d.id)).not.toContain(hidden);
    expect((await searchDeals(creator, { q: 'giveaway' })).deals).toEqual([]);
  });

  test('a deal past its deadline is not found: it no longer takes applications', async () => {
    const past = await insertDeal(brand.id, { title: 'Canoe race sponsorship' });
    const dated = await insertDeal(brand.id, { title: 'Canoe camp sponsorship' });
    await server.db.asService(async (tx) => {
      // Published before the rule existed: the deadline check refuses such a day today.
      await tx.query(`alter table public.deals disable trigger b_deadline`);
      await tx.query(`update public.deals set deadline = '2020-05-01' where id = $1`, [past]);
      await tx.query(`update public.deals set deadline = '2099-05-01' where id = $1`, [dated]);
      await tx.query(`alter table public.deals enable trigger b_deadline`);
    });
    expect((await searchDeals(creator, { q: 'canoe' })).deals.map((d) => d.id)).toEqual([dated]);
  });

  test('refuses bad input with 400 { code, message }, a missing token with 401', async () => {
    for (const query of [
      `q=${'a'.repeat(201)}`,
      'sort=cheapest',
      'limit=51',
      'offset=1001',
      'min_cents=-1',
      'unknown=1',
    ]) {
      const res = await get(`/api/search/deals?${query}`, creator);
      expect(res.status, query).toBe(400);
      expect(await res.json()).toMatchObject({ code: 'invalid_search', message: expect.any(String) });
    }
    // The sentence names what is wrong, in the search's words.
    const sort = await (await get('/api/search/deals?sort=cheapest', creator)).json();
    expect(sort.message).toMatch(/^This search cannot be run \(sort: .+\)\.$/);
    // A control character is refused by the limits every request meets first.
    const control = await get(`/api/search/deals?q=${encodeURIComponent('kayak\u0000')}`, creator);
    expect(control.status).toBe(400);
    expect(await control.json()).toMatchObject({ code: 'invalid_input', message: expect.any(String) });
    const anonymous = await get('/api/search/deals?q=kayak');
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toMatchObject({ code: 'no_authorization' });
  });
});

describe('GET /api/search/creators', () => {
  test('finds creators by name and niche with the filters; never brands', async () => {
    const brand = await server.createUser({ role: 'brand', fullName: 'Marisol Foods' });
    const marisol = await server.createUser({ role: 'creator', fullName: 'Marisol Quintero' });
    const other = await server.createUser({ role: 'creator', fullName: 'Theo Brandt' });
    await server.db.asService(async (tx) => {
      await tx.query(
        `update public.profiles set niches = '{Cooking,Travel}', followers = 52000, region = 'Spain', rating = 4.6 where id = $1`,
        [marisol.id],
      );
      await tx.query(
        `update public.profiles set niches = '{Cooking}', followers = 9000, region = 'Germany', rating = 3.9 where id = $1`,
        [other.id],
      );
    });
    const search = async (request: Record<string, string | number | string[] | undefined>) => {
      const res = await get(`/api/search/creators?${searchQueryString(request)}`, brand);
      expect(res.status).toBe(200);
      return creatorSearchResponse.parse(await res.json()).creators.map((c) => c.id);
    };
    expect(await search({ q: 'marisol' })).toEqual([marisol.id]);
    expect(await search({ q: 'cooking', sort: 'followers' })).toEqual([marisol.id, other.id]);
    expect(await search({ niches: ['Cooking'], region: 'germany' })).toEqual([other.id]);
    expect(await search({ q: 'cooking', min_followers: 10_000 })).toEqual([marisol.id]);
    expect(await search({ q: 'cooking', min_rating: 4.5 })).toEqual([marisol.id]);
    expect(await search({ q: 'foods' })).toEqual([]);
    const bad = await get('/api/search/creators?min_rating=6', brand);
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ code: 'invalid_search' });
  });
});

test('each account may search a limited number of times a minute: then 429 search_rate_limited', async () => {
  const user = await server.createUser({ role: 'creator' });
  for (let i = 0; i < 40; i++) expect((await get('/api/search/deals?q=x', user)).status).toBe(200);
  const refused = await get('/api/search/deals?q=x', user);
  expect(refused.status).toBe(429);
  expect(await refused.json()).toMatchObject({ code: 'search_rate_limited', message: expect.any(String) });
  // Another account is not slowed by it.
  expect((await get('/api/search/deals?q=x', await server.createUser({ role: 'creator' }))).status).toBe(200);
});
