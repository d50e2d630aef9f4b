import { randomBytes } from 'node:crypto';
import os from 'node:os';
import type { Database } from '../db/database.ts';

/** The scheduled jobs whose items are claimed in `pacta_private.job_claims`. */
export type ClaimedJob = 'auto_release' | 'cancelled_refund';

/**
 * A name for one server instance's job runner, as the claims record it: the host and process, and a
 * random tag (several runners may share a process, as the tests' instances do).
 */
export function claimantName(): string {
  return `${os.hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
}

/**
 * Claims of due items, so that with several server instances each item is worked on by one of them.
 * A claim is its own short transaction (nothing held across the work, nothing tied to a session, so
 * it holds through a transaction pooler) and carries a lease: if the instance dies before marking the
 * item done, the item becomes claimable again when the lease runs out.
 */
export function createJobClaims(db: Database, opts: { claimant: string; leaseMs: number }) {
  return {
    /** True when this instance now holds the item: nobody else does and it is not done. */
    async claim(job: ClaimedJob, itemId: string): Promise<boolean> {
      const { rows } = await db.pool.query(
        `insert into pacta_private.job_claims as c (job, item_id, claimed_by, lease_until)
         values ($1, $2, $3, now() + $4 * interval '1 millisecond')
         on conflict (job, item_id) do update
           set claimed_by = excluded.claimed_by, lease_until = excluded.lease_until, attempts = c.attempts + 1
         where c.done_at is null and c.lease_until <= now()
         returning 1`,
        [job, itemId, opts.claimant, opts.leaseMs],
      );
      return rows.length === 1;
    },
    /** The work happened: the item is never claimed again. */
    async done(job: ClaimedJob, itemId: string): Promise<void> {
      await db.pool.query(
        `update pacta_private.job_claims set done_at = now() where job = $1 and item_id = $2 and claimed_by = $3`,
        [job, itemId, opts.claimant],
      );
    },
    /** Nothing was left to do: the claim is dropped, so the item may be claimed at once if it falls due again. */
    async release(job: ClaimedJob, itemId: string): Promise<void> {
      await db.pool.query(
        `delete from pacta_private.job_claims where job = $1 and item_id = $2 and claimed_by = $3 and done_at is null`,
        [job, itemId, opts.claimant],
      );
    },
    /** Done claims only guard against instances that listed the item before it was done: a week is plenty. */
    async forgetOld(): Promise<void> {
      await db.pool.query(`delete from pacta_private.job_claims where done_at < now() - interval '7 days'`);
    },
  };
}
