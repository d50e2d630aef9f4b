import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../app.ts';
import type { Database } from '../db/database.ts';

/** How often reviews whose 14-day window closed are published (touched so they replicate). */
const PUBLISH_EVERY_MS = 10 * 60 * 1000;

/**
 * Blind reviews become visible when both sides have written (the database does that at once) or
 * when the window closes. Reading rights follow the clock by themselves, but a device only learns
 * of a row that changed, so the due reviews are touched here. Every instance runs it: each touches
 * the due reviews no other instance is touching (FOR UPDATE SKIP LOCKED) and a touched review is no
 * longer due, so each is touched once and no instance waits for another.
 */
export async function publishDueReviews(db: Database): Promise<number> {
  return db.asService(
    async (tx) => (await tx.query<{ n: number }>('select public.publish_due_reviews() as n')).rows[0]!.n,
  );
}

export async function reviewPublisher(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  const run = () => {
    publishDueReviews(ctx.db).catch((err: unknown) => app.log.error({ err }, 'publishing due reviews failed'));
  };
  const timer = setInterval(run, PUBLISH_EVERY_MS);
  timer.unref();
  app.addHook('onReady', async () => run());
  app.addHook('onClose', async () => clearInterval(timer));
}
