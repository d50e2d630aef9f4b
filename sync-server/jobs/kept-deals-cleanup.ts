import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db/database.ts';
import { createPeriodicJob } from './periodic-job.ts';

/**
 * How often each instance removes the keeps of deals that closed. A keep left a while longer costs a
 * row and a deal on one device; the cap counts only the live ones (it cleans a user's before counting).
 */
const SCHEDULE_MS = 60 * 60 * 1000;

/**
 * "An opened keep lasts while its deal is offered": deals a user opened from search stay in their
 * devices' working set while they are open and not past their deadline, then leave. Every instance
 * runs it; `pacta_private.forget_ended_keeps()` is one delete, so two instances at once remove each
 * row once.
 */
export function createKeptDealsCleanup(deps: { db: Database; log: FastifyBaseLogger }) {
  return createPeriodicJob({
    everyMs: SCHEDULE_MS,
    log: deps.log,
    failure: 'removing ended keeps failed',
    async runOnce(): Promise<{ removed: number }> {
      const { rows } = await deps.db.pool.query<{ removed: number }>(
        'select pacta_private.forget_ended_keeps() as removed',
      );
      return { removed: rows[0]?.removed ?? 0 };
    },
  });
}

export type KeptDealsCleanup = ReturnType<typeof createKeptDealsCleanup>;
