import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db/database.ts';
import { createPeriodicJob } from './periodic-job.ts';

/**
 * How often each instance looks for live links whose approval window closed. Windows are hours long,
 * so a few seconds late is on time; polling holds no LISTEN connection (the session pool keeps its
 * few for the change streams, Web Push and the money jobs).
 */
const SCHEDULE_MS = 15_000;

/**
 * "Confirmed automatically when the approval window closes (default 72 hours)": a job of its own, so
 * it runs whether or not payments are configured (the deal still completes and the payout clock still
 * starts; the money jobs release later, when there is money). Every instance runs it;
 * `public.confirm_due_live_links()` claims each application with FOR UPDATE SKIP LOCKED and re-checks
 * it after the claim, so each live link is confirmed exactly once and no instance waits for another.
 */
export function createLiveLinkConfirmations(deps: { db: Database; log: FastifyBaseLogger }) {
  return createPeriodicJob({
    everyMs: SCHEDULE_MS,
    log: deps.log,
    failure: 'confirming live links failed',
    async runOnce(): Promise<{ confirmed: number }> {
      const { rows } = await deps.db.pool.query<{ confirmed: number }>(
        'select public.confirm_due_live_links() as confirmed',
      );
      return { confirmed: rows[0]?.confirmed ?? 0 };
    },
  });
}

export type LiveLinkConfirmations = ReturnType<typeof createLiveLinkConfirmations>;
