import { afterAll, beforeAll, expect, test } from 'vitest';
import { startTestServer, type TestServer, type TestUser } from '../support/test-server.ts';
import { dealSearchResponse, searchQueryString, SEARCH_OFFSET_MAX, SEARCH_PAGE_MAX } from '../../src/domain/search.ts';

// A catalogue large enough that a common word is found by reading deals in the sort's order and a
// rare one through the text index (pacta_private.deal_search_matches): both must answer the same
// deals, in the same order, under the same row-level security.

let server: TestServer;
let brand: TestUser;
let creator: TestUser;
let pro: TestUser;
const lantern: { id: string; amount_cents: number; pro_only: boolean }[] = []; // newest first
let quokkas: string[] = [];
let oldTitleMatch: string;

/** The ids of the window a ranked sort weighs, plus one: every page a search can reach. */
const RANK_WINDOW = SEARCH_OFFSET_MAX + SEARCH_PAGE_MAX + 1;

beforeAll(async () => {
  server = await startTestServer({ env: { SEARCH_RATE_LIMIT_PER_MINUTE: '1000' } });
  brand = await server.createUser({ role: 'brand', fullName: 'Harbour Goods' });
  creator = await server.createUser({ role: 'creator' });
  pro = await server.createUser({ role: 'creator' });
  await server.db.asService((tx) =>
    tx.query(`select public.grant_pro_features($1, array['pro_deals'], interval '30 days')`, [pro.id]),
  );
  await server.db.asService(async (tx) => {
    // The oldest deal matches "lantern" in its title, then 1,100 newer ones in their descriptions
    // (one in seven Pro-only), and the two oldest-but-one match "quokka" only. Each a minute apart:
    // the stamp that dates a new deal now is off while they are written.
    await tx.query(`alter table public.deals disable trigger a_sync_stamp`);
    const { rows } = await tx.query<{ id: string; title: string; amount_cents: number; pro_only: boolean }>(
      `insert into public.deals (id, brand_id, title, description, amount_cents, niches, pro_only, created_at)
       select gen_random_uuid(), $1,
              case when i = 0 then 'Lantern festival' when i in (1, 2) then 'Quokka photo walk' else 'Camping trip ' || i end,
              case when i > 2 then 'Bring a lantern and a tent.' else 'An evening outdoors.' end,
              10000 + (i * 7919) % 500000, '{Outdoors}', i % 7 = 3,
              timestamptz '2026-11-01' + i * interval '1 minute'
         from generate_series(0, 1102) as i
       returning id, title, amount_cents, pro_only`,
      [brand.id],
    );
    await tx.query(`alter table public.deals enable trigger a_sync_stamp`);
    oldTitleMatch = rows.find((r) => r.title === 'Lantern festival')!.id;
    quokkas = rows.filter((r) => r.title.startsWith('Quokka')).map((r) => r.id);
    lantern.push(...rows.filter((r) => r.title.startsWith('Camping')).reverse());
  });
});
afterAll(() => server?.close());

async function search(user: TestUser, request: Record<string, string | number | string[] | undefined>) {
  const res = await fetch(`${server.url}/api/search/deals?${searchQueryString(request)}`, {
    headers: { authorization: `Bearer ${user.accessToken}` },
  });
  expect(res.status).toBe(200);
  return dealSearchResponse.parse(await res.json());
}

test('a common word: the newest and the highest matches first, pages that follow on, Pro-only deals for Pro only', async () => {
  const free = lantern.filter((d) => !d.pro_only);
  const newest = await search(creator, { q: 'lantern', sort: 'newest' });
  expect(newest.deals.map((d) => d.id)).toEqual(free.slice(0, 20).map((d) => d.id));
  expect(newest.next_offset).toBe(20);
  const next = await search(creator, { q: 'lantern', sort: 'newest', offset: 20, limit: 50 });
  expect(next.deals.map((d) => d.id)).toEqual(free.slice(20, 70).map((d) => d.id));

  const highest = [...free].sort((a, b) => b.amount_cents - a.amount_cents);
  const byAmount = await search(creator, { q: 'lantern', sort: 'amount', min_cents: 100_000 });
  expect(byAmount.deals.map((d) => d.id)).toEqual(
    highest
      .filter((d) => d.amount_cents >= 100_000)
      .slice(0, 20)
      .map((d) => d.id),
  );

  const phrase = await search(creator, { q: '"a lantern and a tent"', sort: 'newest' });
  expect(phrase.deals.map((d) => d.id)).toEqual(free.slice(0, 20).map((d) => d.id));

  const forPro = await search(pro, { q: 'lantern', sort: 'newest' });
  expect(forPro.deals.map((d) => d.id)).toEqual(lantern.slice(0, 20).map((d) => d.id));
});

test('a rare word among many deals is found all the same', async () => {
  const found = await search(creator, { q: 'quokka', sort: 'newest' });
  expect(found.deals.map((d) => d.id)).toEqual([...quokkas].reverse());
  expect(found.next_offset).toBeNull();
});

test('only common words (nothing to look up) find nothing', async () => {
  expect((await search(creator, { q: 'the and a' })).deals).toEqual([]);
  expect((await search(creator, { q: 'the and a', sort: 'amount' })).deals).toEqual([]);
});

test(`best match weighs the newest ${RANK_WINDOW.toLocaleString('en-US')} matches of a word, so every page comes from the same ones`, async () => {
  // With fewer matches the old title match would rank first (a title weighs more than a description);
  // here it is older than the newest RANK_WINDOW matches, so it is not among them.
  expect(lantern.length).toBeGreaterThan(RANK_WINDOW);
  const seen = new Set<string>();
  for (let offset = 0; offset <= SEARCH_OFFSET_MAX; offset += SEARCH_PAGE_MAX) {
    const page = await search(pro, { q: 'lantern', limit: SEARCH_PAGE_MAX, offset });
    for (const deal of page.deals) {
      expect(seen.has(deal.id)).toBe(false);
      seen.add(deal.id);
    }
  }
  expect(seen.has(oldTitleMatch)).toBe(false);
  expect([...seen]).toEqual(expect.arrayContaining(lantern.slice(0, RANK_WINDOW - 1).map((d) => d.id)));
});

test('the matching helper answers only deals the caller may read, whoever calls it directly', async () => {
  const matches = async (user: TestUser) =>
    server.db.asUser({ sub: user.id, role: 'authenticated' }, async (tx) => {
      const { rows } = await tx.query<{ id: string }>(
        `select id from pacta_private.deal_search_matches(to_tsquery('english', 'lantern'), null, null, null, null, 'newest', 5000) as m(id)`,
      );
      return new Set(rows.map((r) => r.id));
    });
  const proOnly = lantern.filter((d) => d.pro_only).map((d) => d.id);
  const free = await matches(creator);
  expect(proOnly.some((id) => free.has(id))).toBe(false);
  expect(free.size).toBe(lantern.length - proOnly.length + 1);
  expect((await matches(pro)).size).toBe(lantern.length + 1);
  // The brand reads its own Pro-only deals.
  expect((await matches(brand)).size).toBe(lantern.length + 1);
});
