import { ruleRefusal } from '../db/rule-refusal.ts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { getDealAccess, keepDeal } from '../../src/domain/contracts/deal-access.ts';
import type { AppContext } from '../app.ts';
import { claimsOf, signedIn } from '../auth/signed-in.ts';
import { HttpError } from '../http/errors.ts';
import { serverCollection } from '../sync/collections.ts';

/**
 * GET /api/deals/:id/access — what a signed-in user may know about a deal that is not on their device.
 * Non-Pro creators never receive Pro-only deals through sync, yet a shared link to one must say
 * 'Pro Exclusive Deal' (with Upgrade to Pro) rather than "not found". Only the fact that the deal is
 * Pro-only is revealed, none of its content.
 * - `{ access: 'visible', deal }`: the user can read it, and here it is, as the device would hold it: a
 *   deal found by a search on the server opens before (or without) sync bringing it to the device.
 * - `{ access: 'pro_only' }`: an open or completed Pro-only deal the user cannot read.
 * - `{ access: 'not_found' }` otherwise (no such deal, or a draft/cancelled deal of another brand).
 *   An answer to the question, not a failed request: a 404 here would put an error in the console of
 *   every visitor of a stale link, though nothing went wrong.
 */
export async function dealAccessRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  const deals = serverCollection('deals')!;
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.get(
    '/deals/:id/access',
    {
      schema: getDealAccess,
      config: { invalid: { code: 'invalid_deal_id', params: 'The deal id must be a UUID.' } },
      preValidation: signedIn(ctx),
    },
    async (request) => {
      const claims = claimsOf(request);
      const { id } = request.params;
      const visible = await ctx.db.asUser(
        claims,
        async (tx) =>
          (
            await tx.query<{ doc: Record<string, unknown> }>(
              `select ${deals.documentSql} as doc from public.deals t where t.id = $1`,
              [id],
            )
          ).rows[0]?.doc,
      );
      if (visible) return { access: 'visible' as const, deal: visible };
      const proOnly = await ctx.db.asService(
        async (tx) =>
          (
            await tx.query(
              `select 1 from public.deals where id = $1 and pro_only and status in ('open', 'completed')`,
              [id],
            )
          ).rowCount === 1,
      );
      if (proOnly) return { access: 'pro_only' as const };
      return { access: 'not_found' as const };
    },
  );
  // Row-level security decides: the keep's insert policy asks that the user may read the deal. The
  // database caps a user's opened keeps (a trigger counting them under a lock per user): the keep past
  // the cap is 409 `kept_deals_full`, its message saying what the user can do.
  api.post(
    '/deals/:id/keep',
    {
      schema: keepDeal,
      config: { invalid: { code: 'invalid_deal_id', params: 'The deal id must be a UUID.' } },
      preValidation: signedIn(ctx),
    },
    async (request) => {
      const claims = claimsOf(request);
      const readable = await ctx.db.asUser(claims, async (tx) => {
        const { rowCount } = await tx
          .query(
            `insert into public.kept_deals (user_id, deal_id)
             select $1, d.id from public.deals d where d.id = $2
             on conflict (user_id, deal_id) do nothing`,
            [claims.sub, request.params.id],
          )
          .catch((err: unknown) => {
            const refusal = ruleRefusal(err);
            if (refusal?.code === 'kept_deals_full') throw new HttpError(409, refusal.code, refusal.message);
            throw err;
          });
        if (rowCount) return true;
        return (await tx.query('select 1 from public.deals where id = $1', [request.params.id])).rowCount === 1;
      });
      if (!readable) throw new HttpError(404, 'deal_not_found');
      return { kept: true as const };
    },
  );
}
