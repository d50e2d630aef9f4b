import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../app.ts';
import { HttpError } from '../http/errors.ts';
import { createRateLimiter } from '../auth/rate-limit.ts';

// Mirrors the contact_messages table's checks, so a valid body is never refused by the database.
const contactBody = z.object({
  name: z.string().trim().min(1).max(120),
  email: z
    .string()
    .trim()
    .max(320)
    .regex(/^[^@\s]+@[^@\s]+\.[^@\s]+$/, 'must be an e-mail address'),
  subject: z.enum(['general', 'support', 'partnership', 'billing', 'feature', 'other']),
  message: z.string().trim().min(1).max(10_000),
});

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
  app.post('/contact', async (request, reply) => {
    const parsed = contactBody.safeParse(request.body);
    if (!parsed.success) {
      const problems = parsed.error.issues.map((i) => `${i.path.join('.') || 'body'}: ${i.message}`).join('; ');
      throw new HttpError(400, 'validation_failed', `Invalid contact message (${problems})`);
    }
    const userId = request.headers.authorization ? (await ctx.authenticate(request)).sub : null;
    try {
      await limiter.consume('contact_ip', request.ip, perIp);
    } catch (err) {
      if (!(err instanceof HttpError && err.status === 429)) throw err;
      throw new HttpError(
        429,
        'contact_rate_limited',
        'You have sent several messages in a short time. Please wait an hour before sending another.',
      );
    }
    const { name, email, subject, message } = parsed.data;
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
