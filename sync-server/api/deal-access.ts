import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../app.ts';
import { HttpError } from '../http/errors.ts';
import { serverCollection } from '../sync/collections.ts';

const params = z.object({ id: z.guid() });

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
  app.get('/deals/:id/access', async (request) => {
    // Who asks comes first: an outsider learns nothing, not even which ids are well formed.
    const claims = await ctx.authenticate(request);
    const parsed = params.safeParse(request.params);
    if (!parsed.success) throw new HttpError(400, 'invalid_deal_id', 'The deal id must be a UUID.');
    const { id } = parsed.data;
    const visible = await ctx.db.asUser(
      claims,
      async (tx) =>
        (
          await tx.query<{ doc: unknown }>(`select ${deals.documentSql} as doc from public.deals t where t.id = $1`, [
            id,
          ])
        ).rows[0]?.doc,
    );
    if (visible) return { access: 'visible', deal: visible };
    const proOnly = await ctx.db.asService(
      async (tx) =>
        (
          await tx.query(`select 1 from public.deals where id = $1 and pro_only and status in ('open', 'completed')`, [
            id,
          ])
        ).rowCount === 1,
    );
    if (proOnly) return { access: 'pro_only' };
    return { access: 'not_found' };
  });
}
