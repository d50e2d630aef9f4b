import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext } from '../app.ts';
import { claimsOf, signedIn } from '../auth/signed-in.ts';
import { HttpError } from '../http/errors.ts';
import { createRateLimiter } from '../auth/rate-limit.ts';
import { serverCollection } from '../sync/collections.ts';
import { getCreatorSearch, getDealSearch } from '../../src/domain/contracts/search.ts';
import type { DealDocument, ProfileDocument } from '../../src/domain/collections/index.ts';
import { SEARCH_OFFSET_MAX, SEARCH_PAGE_MAX } from '../../src/domain/search.ts';

/**
 * The text search's weight per rank: ts_rank_cd with normalisation 1 (divided by 1 + the log of the
 * document's length), so a long description full of words does not outrank a matching title.
 */
const RANK = `ts_rank_cd(t.search_vector, query.q, 1)`;

/** The words `$1` as a tsquery (quotes, `-word` and `or` as search engines take them); none for no words. */
const QUERY = `(case when $1 = '' then null else websearch_to_tsquery('english', $1) end)`;
const DEAL_RANK = `ts_rank_cd(t.search_vector, ${QUERY}, 1)`;

/** The sorts by the match's weight: the others never compute it. */
const RANKED = new Set(['best', 'recommended']);

/**
 * A ranked sort weighs the newest this many matches: every page a search may ask for (offsets up
 * to SEARCH_OFFSET_MAX, pages up to SEARCH_PAGE_MAX, one more to tell whether there is a next),
 * all from the same matches, so paging neither repeats nor skips a deal. Weighing every match of a
 * common word (a third of 100,000 deals) took longer than the whole search may.
 */
const RANK_WINDOW = SEARCH_OFFSET_MAX + SEARCH_PAGE_MAX + 1;

/** A sort's order over the deals (or the page's hits) named `t`, with `rank` the match's weight. */
const DEAL_ORDER = {
  best: (t: string, rank: string) => `${rank} desc, ${t}.created_at desc, ${t}.id desc`,
  // Recommended needs the creator's profile and the scoring in src/domain (the app orders the device's
  // results by it); the server answers its best matches.
  recommended: (t: string, rank: string) => `${rank} desc, ${t}.created_at desc, ${t}.id desc`,
  newest: (t: string) => `${t}.created_at desc, ${t}.id desc`,
  amount: (t: string) => `${t}.amount_cents desc, ${t}.created_at desc, ${t}.id desc`,
} as const;

const CREATOR_ORDER = {
  best: `${RANK} desc, t.followers desc, t.id`,
  recommended: `${RANK} desc, t.followers desc, t.id`,
  followers: `t.followers desc, t.id`,
  rating: `t.rating desc, t.followers desc, t.id`,
} as const;

/** One page and the offset of the next (a page one longer than asked tells whether there is one). */
function page<T>(rows: T[], offset: number, limit: number): { items: T[]; next_offset: number | null } {
  return { items: rows.slice(0, limit), next_offset: rows.length > limit ? offset + limit : null };
}

/**
 * GET /api/search/deals and GET /api/search/creators: the server's half of search, for what the
 * device does not hold.
 * - Signed in only; each account may search SEARCH_RATE_LIMIT_PER_MINUTE times a minute (shared by
 *   every instance), past it 429 `search_rate_limited`.
 * - The query string is parsed with the route's contract (src/domain/contracts/search.ts): text of at most 200
 *   characters, known sorts, pages of at most 50 up to offset 1,000; anything else 400 `invalid_search`.
 * - Runs as the user, so row-level security decides what is found: a deal the user may not read (a
 *   Pro-only deal for a free account, another brand's unpublished deal) is never an answer.
 * - Deals: open ones whose deadline has not passed (they refuse applications), matching the text in their title, category, niches, deliverables, description or
 *   their brand's name (the name only: the weight-A words of the brand's profile), and the deals
 *   list's filters. Best match and recommended weigh the newest RANK_WINDOW matches (every page
 *   a search can reach), newest and highest amount order every match. Creators: creator profiles matching the text in name, username, niches, region or
 *   bio, and the filters. Documents as the device holds them.
 */
export async function searchRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  const limiter = createRateLimiter(ctx.db, 60);
  const perMinute = ctx.config.searchRateLimitPerMinute;
  const deals = serverCollection('deals')!;
  const profiles = serverCollection('profiles')!;

  async function count(userId: string) {
    try {
      await limiter.consume('search_user', userId, perMinute);
    } catch (err) {
      if (!(err instanceof HttpError && err.status === 429)) throw err;
      throw new HttpError(429, 'search_rate_limited', 'Too many searches in a minute. Wait a moment and try again.');
    }
  }

  // Who asks comes first (`signedIn`, before the schema): an outsider learns nothing, not even which
  // queries are well formed. Control characters and malformed text never reach the schema: every
  // request meets INPUT_LIMITS first.
  const api = app.withTypeProvider<ZodTypeProvider>();
  const route = {
    preValidation: signedIn(ctx),
    config: {
      invalid: {
        code: 'invalid_search',
        querystring: (problems: string) => `This search cannot be run (${problems}).`,
      },
    },
  } as const;

  api.get('/search/deals', { schema: getDealSearch, ...route }, async (request) => {
    const claims = claimsOf(request);
    const s = request.query;
    await count(claims.sub);
    const text = s.q.trim();
    const ranked = text !== '' && RANKED.has(s.sort);
    // Two steps. `pacta_private.deal_search_matches` finds the matching deals with the server's
    // rights, because under row-level security the text match may not use its index (its operator
    // is not leakproof), and answers only deals the caller may read: every deal of a page the sort
    // can reach, or for a ranked sort the newest RANK_WINDOW matches. Then, read as the user under
    // row-level security, those deals are ranked, paged, and only the page's deals built as
    // documents (a document for every match cost more than the search).
    const { rows } = await ctx.db.asUser(claims, (tx) =>
      tx.query<{ doc: DealDocument }>(
        `with hits as (
           select t.id, t.created_at, t.amount_cents, ${ranked ? DEAL_RANK : 'null::real'} as rank
             from pacta_private.deal_search_matches(${QUERY}, $2, $3, $4, $5, $6, $7) m(id)
             join public.deals t on t.id = m.id
            order by ${DEAL_ORDER[s.sort]('t', 'rank')}
            limit $8 offset $9)
         select ${deals.documentSql} as doc
           from hits h join public.deals t on t.id = h.id
          order by ${DEAL_ORDER[s.sort]('h', 'h.rank')}`,
        [
          text,
          s.category ?? null,
          s.min_cents ?? null,
          s.max_cents ?? null,
          s.niches?.length ? s.niches : null,
          s.sort === 'amount' ? 'amount' : 'newest',
          ranked ? RANK_WINDOW : s.offset + s.limit + 1,
          s.limit + 1,
          s.offset,
        ],
      ),
    );
    const { items, next_offset } = page(rows, s.offset, s.limit);
    return { deals: items.map((r) => r.doc), next_offset };
  });

  api.get('/search/creators', { schema: getCreatorSearch, ...route }, async (request) => {
    const claims = claimsOf(request);
    const s = request.query;
    await count(claims.sub);
    const { rows } = await ctx.db.asUser(claims, (tx) =>
      tx.query<{ doc: ProfileDocument }>(
        `with query as (select case when $1 = '' then null else websearch_to_tsquery('english', $1) end as q)
         select ${profiles.documentSql} as doc
           from public.profiles t, query
          where not t.deleted and t.role = 'creator'
            and (query.q is null or t.search_vector @@ query.q)
            and ($2::text[] is null or t.niches && $2)
            and ($3::integer is null or t.followers >= $3)
            and ($4::text is null or lower(t.region) = lower($4))
            and ($5::numeric is null or t.rating >= $5)
          order by ${CREATOR_ORDER[s.sort]}
          limit $6 offset $7`,
        [
          s.q.trim(),
          s.niches?.length ? s.niches : null,
          s.min_followers ?? null,
          s.region?.trim() || null,
          s.min_rating ?? null,
          s.limit + 1,
          s.offset,
        ],
      ),
    );
    const { items, next_offset } = page(rows, s.offset, s.limit);
    return { creators: items.map((r) => r.doc), next_offset };
  });
}
