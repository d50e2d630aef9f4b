import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { postContact } from '../../src/domain/contracts/contact.ts';
import type { AppContext } from '../app.ts';
import { HttpError } from '../http/errors.ts';
import { createRateLimiter } from '../auth/rate-limit.ts';

/**
 * POST /api/contact: the contact form, stored for staff (the spec's form sent nothing; docs/design.md makes it real).
 * Open to signed-out visitors; a valid bearer token links the message to the signed-in user.
 * Each message becomes a ticket in the staff queue, so one IP address may send only a few per hour
 * (CONTACT_RATE_LIMIT_*; a sliding window in Postgres, shared by every server instance): past it,
 * 429 `contact_rate_limited`. Invalid bodies are refused first and do not count.
 */
export async function contactRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  const { perIp, windowSeconds } = ctx.config.contactRateLimit;
  const limiter = createRateLimiter(ctx.db, windowSeconds);
  const api = app.withTypeProvider<ZodTypeProvider>();
  const config = { invalid: { code: 'validation_failed', what: 'contact message' } } as const;
  api.post('/contact', { schema: postContact, config }, async (request, reply) => {
    const userId = request.headers.authorization ? (await ctx.authenticate(request)).sub : null;
    try {
      await limiter.consume('contact_ip', request.ip, perIp);
    } catch (err) {
      if (!(err instanceof HttpError && err.status === 429)) throw err;
      throw new HttpError(429, 'contact_rate_limited');
    }
    const { name, email, subject, message } = request.body;
    const { rows } = await ctx.db.asService((tx) =>
      tx.query<{ id: string }>(
        `insert into public.contact_messages (name, email, subject, message, user_id)
         values ($1, $2, $3, $4, $5) returning id`,
        [name, email, subject, message, userId],
      ),
    );
    return reply.status(201).send({ id: rows[0]!.id });
  });
}
