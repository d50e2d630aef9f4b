import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext } from '../app.ts';
import { claimsOf, signedIn } from '../auth/signed-in.ts';
import { createRateLimiter } from '../auth/rate-limit.ts';
import { HttpError } from '../http/errors.ts';
import { postReport, REPORT_REASON_TEXT } from '../../src/domain/contracts/account.ts';

/** Reports one account may send per hour: each lands in the staff queue. */
const REPORTS_PER_HOUR = 10;

/**
 * `POST /api/reports`: a person or a deal reported to staff, as a ticket of kind `report` in the
 * support queue (the reporter sees it among their tickets, and staff's replies).
 * - Counted before anything is looked up (10 an hour per account, 429 `report_rate_limited`).
 * - No existence oracle: the answer is 202 whether the target exists, is hidden from the reporter
 *   (another brand's unpublished deal, a deleted account) or is the reporter; only a target the
 *   reporter can see becomes a ticket, read as the reporter under row-level security, so the ticket
 *   tells them nothing they could not see.
 */
export async function reportRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  const limiter = createRateLimiter(ctx.db, 3600);
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.post('/reports', { schema: postReport, preValidation: signedIn(ctx) }, async (request, reply) => {
    const claims = claimsOf(request);
    try {
      await limiter.consume('report_user', claims.sub, REPORTS_PER_HOUR);
    } catch (err) {
      if (!(err instanceof HttpError && err.status === 429)) throw err;
      throw new HttpError(429, 'report_rate_limited');
    }
    const { target, target_id: targetId, reason, details } = request.body;
    const seen = await ctx.db.asUser(claims, async (tx) => {
      const { rows } =
        target === 'deal'
          ? await tx.query<{ name: string }>(`select title as name from public.deals where id = $1 and not deleted`, [
              targetId,
            ])
          : await tx.query<{ name: string }>(
              `select coalesce(nullif(full_name, ''), '@' || username, 'a Pacta member') as name
                 from public.profiles where id = $1 and id <> $2 and not deleted`,
              [targetId, claims.sub],
            );
      return rows[0];
    });
    if (seen) {
      const what = target === 'deal' ? `deal "${seen.name}"` : seen.name;
      const subject = `Report: ${REPORT_REASON_TEXT[reason]} (${what})`.slice(0, 200);
      const link = target === 'deal' ? `/deals/${targetId}` : `/profile/${targetId}`;
      const message = `${REPORT_REASON_TEXT[reason]}: ${target === 'deal' ? 'the deal' : 'the person'} at ${link}\n\n${details || '(no details given)'}`;
      await ctx.db.asService((tx) =>
        tx.query(
          `insert into public.support_tickets (id, user_id, subject, message, kind, deal_id)
           values (gen_random_uuid(), $1, $2, $3, 'report', $4)`,
          [claims.sub, subject, message, target === 'deal' ? targetId : null],
        ),
      );
    }
    request.log.info({ event: 'report', target, stored: Boolean(seen) }, 'report received');
    return reply.status(202).send({ received: true as const });
  });
}
