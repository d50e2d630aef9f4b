import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext } from '../app.ts';
import { claimsOf, signedIn } from '../auth/signed-in.ts';
import { HttpError } from '../http/errors.ts';
import { createRateLimiter } from '../auth/rate-limit.ts';
import { serverCollection } from '../sync/collections.ts';
import { getCreatorSearch, getDealSearch } from '../../src/domain/contracts/search.ts';
import type { DealDocument, ProfileDocument } from '../../src/domain/collections/index.ts';

/**
 * The text search's weight per rank: ts_rank_cd with normalisation 1 (divided by 1 + the log of the
 * document's length), so a long description full of words does not outrank a matching title.
 */
const RANK = `ts_rank_cd(t.search_vector, query.q, 1)`;

const DEAL_ORDER = {
  best: `${RANK} desc, t.created_at desc, t.id desc`,
  // Recommended needs the creator's profile and the scoring in src/domain (the app orders the device's
  // results by it); the server answers its best matches.
  recommended: `${RANK} desc, t.created_at desc, t.id desc`,
  newest: `t.created_at desc, t.id desc`,
  amount: `t.amount_cents desc, t.created_at desc, t.id desc`,
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
 *   list's filters. Creators: creator profiles matching the text in name, username, niches, region or
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
    const { rows } = await ctx.db.asUser(claims, (tx) =>
      tx.query<{ doc: DealDocument }>(
        `with query as (select case when $1 = '' then null else websearch_to_tsquery('english', $1) end as q)
         select ${deals.documentSql} as doc
           from public.deals t, query
          where not t.deleted and t.status = 'open'
            and not pacta_private.deadline_has_passed(t.deadline)
            and (query.q is null
                 or t.search_vector @@ query.q
                 or t.brand_id = any (array(select p.id from public.profiles p
                                             where p.role = 'brand' and p.search_vector @@ query.q
                                               and ts_filter(p.search_vector, '{a}') @@ query.q)))
            and ($2::text is null or t.category = $2)
            and ($3::bigint is null or t.amount_cents >= $3)
            and ($4::bigint is null or t.amount_cents <= $4)
            and ($5::text[] is null or t.niches && $5)
          order by ${DEAL_ORDER[s.sort]}
          limit $6 offset $7`,
        [
          s.q.trim(),
          s.category ?? null,
          s.min_cents ?? null,
          s.max_cents ?? null,
          s.niches?.length ? s.niches : null,
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
