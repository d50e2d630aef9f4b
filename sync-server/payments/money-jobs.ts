import type pg from 'pg';
import { claimantName, createJobClaims, type ClaimedJob } from '../jobs/job-claims.ts';
import type { Escrow } from './escrow.ts';
import type { PaymentsDeps } from './payments-deps.ts';

const SCHEDULE_MS = 10 * 60_000;
/**
 * How long a claimed deal is this instance's alone. Longer than the work can take (one Stripe call,
 * which stripe-node gives up on after 80 s): only an instance that died leaves a claim to run out.
 */
const LEASE_MS = 5 * 60_000;

/**
 * The server's money jobs: automatic release of completed deals (after the payout hold, or 14 days for a deal without
 * submissions) and full refunds of funded deals that were cancelled. They run on a schedule and when Postgres announces a cancelled
 * funded deal (NOTIFY pacta_money). Every instance runs them: each due deal is claimed first
 * (pacta_private.job_claims), so exactly one instance works on it and the others pass it by instead of
 * waiting for its lock; a claim left by an instance that died runs out after LEASE_MS. The deal's row
 * lock and the per-deal Stripe idempotency key still make a second attempt pay nothing more.
 */
export function createMoneyJobs(deps: PaymentsDeps, escrow: Escrow) {
  const claims = createJobClaims(deps.db, { claimant: claimantName(), leaseMs: LEASE_MS });
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
    /** Claims the deal, does `work` (true: it moved money), then marks the claim done or lets it go. */
    async function settle(job: ClaimedJob, dealId: string, work: () => Promise<boolean>): Promise<boolean> {
      if (!(await claims.claim(job, dealId))) return false;
      try {
        const moved = await work();
        await (moved ? claims.done(job, dealId) : claims.release(job, dealId));
        return moved;
      } catch (err) {
        // e.g. the creator has not set up payouts yet: let go, so the next run (any instance) tries again.
        await claims.release(job, dealId);
        failed.push({ dealId, reason: err instanceof Error ? err.message : String(err) });
        return false;
      }
    }
    for (const dealId of await escrow.dueForRefund()) {
      if (await settle('cancelled_refund', dealId, () => escrow.refundCancelledDeal(dealId))) refunded.push(dealId);
    }
    for (const dealId of await escrow.dueForAutoRelease()) {
      const paid = await settle('auto_release', dealId, async () => {
        const result = await escrow.releaseEscrow({ kind: 'system' }, dealId);
        return !result.alreadyReleased;
      });
      if (paid) released.push(dealId);
    }
    await claims.forgetOld();
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
