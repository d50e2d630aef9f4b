import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db/database.ts';

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
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> = Promise.resolve();

  async function runOnce(): Promise<{ removed: number }> {
    const { rows } = await deps.db.pool.query<{ removed: number }>(
      'select pacta_private.forget_ended_keeps() as removed',
    );
    return { removed: rows[0]?.removed ?? 0 };
  }

  /** Runs after any run in progress (never two at once in one process). */
  function run() {
    const next = running.then(runOnce, runOnce);
    running = next.catch(() => {});
    return next;
  }
  const runLogged = () => {
    void run().catch((err: unknown) => deps.log.error({ err }, 'removing ended keeps failed'));
  };

  return {
    run,
    start() {
      timer = setInterval(runLogged, SCHEDULE_MS);
      timer.unref();
      runLogged();
    },
    async stop() {
      if (timer) clearInterval(timer);
      await running;
    },
  };
}

export type KeptDealsCleanup = ReturnType<typeof createKeptDealsCleanup>;
