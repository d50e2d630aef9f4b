import type pg from 'pg';
import type { Escrow } from './escrow.ts';
import type { PaymentsDeps } from './payments-deps.ts';

const SCHEDULE_MS = 10 * 60_000;

/**
 * The server's money jobs: automatic release of completed deals after 14 days and full refunds of
 * funded deals that were cancelled. They run on a schedule and when Postgres announces a cancelled
 * funded deal (NOTIFY pacta_money). Every instance may run them: the row locks and the per-deal
 * idempotency keys make a second run find nothing left to do.
 */
export function createMoneyJobs(deps: PaymentsDeps, escrow: Escrow) {
  let timer: NodeJS.Timeout | undefined;
  let listener: pg.PoolClient | undefined;
  let running: Promise<unknown> = Promise.resolve();
  let stopped = false;

  async function runOnce(): Promise<{
    released: string[];
    refunded: string[];
    failed: { dealId: string; reason: string }[];
  }> {
    const released: string[] = [];
    const refunded: string[] = [];
    const failed: { dealId: string; reason: string }[] = [];
    for (const dealId of await escrow.dueForRefund()) {
      try {
        if (await escrow.refundCancelledDeal(dealId)) refunded.push(dealId);
      } catch (err) {
        failed.push({ dealId, reason: err instanceof Error ? err.message : String(err) });
      }
    }
    for (const dealId of await escrow.dueForAutoRelease()) {
      try {
        const result = await escrow.releaseEscrow({ kind: 'system' }, dealId);
        if (!result.alreadyReleased) released.push(dealId);
      } catch (err) {
        // e.g. the creator has not set up payouts yet: tried again on the next run.
        failed.push({ dealId, reason: err instanceof Error ? err.message : String(err) });
      }
    }
    if (failed.length) deps.log.warn({ failed }, 'money jobs: some deals could not be settled yet');
    return { released, refunded, failed };
  }

  /** Runs the jobs after any run in progress (never two at once in one process). */
  function run() {
    const next = running.then(runOnce, runOnce);
    running = next.catch(() => {});
    return next;
  }

  return {
    run,
    async start() {
      timer = setInterval(
        () => void run().catch((err: unknown) => deps.log.error({ err }, 'money jobs failed')),
        SCHEDULE_MS,
      );
      timer.unref();
      // One session connection stays checked out to LISTEN (the scheduled runs cover a lost one).
      listener = await deps.db.session.connect();
      listener.on('error', (err: Error & { code?: string }) => {
        // 57P01: the database is shutting down (a normal stop); the scheduled runs cover anything else.
        if (err.code === '57P01' || stopped) return;
        deps.log.warn({ err }, 'money job listener lost its connection');
      });
      listener.on('notification', () => {
        if (!stopped) void run().catch((err: unknown) => deps.log.error({ err }, 'money jobs failed'));
      });
      await listener.query('listen pacta_money');
      void run().catch((err: unknown) => deps.log.error({ err }, 'money jobs failed'));
    },
    async stop() {
      stopped = true;
      if (timer) clearInterval(timer);
      await running;
      if (listener) {
        await listener.query('unlisten pacta_money').catch(() => {});
        // Destroyed rather than pooled: after a lost connection it is no use to anyone.
        listener.release(true);
      }
    },
  };
}
