import type { Database } from '../db/database.ts';
import { overRequestRateLimit } from './errors.ts';

export type RateLimiter = {
  /** Counts one request of `subject` in `bucket`; throws 429 `over_request_rate_limit` past `limit` per window. */
  consume(bucket: string, subject: string, limit: number): Promise<void>;
};

/**
 * Fixed-window counters in Postgres (`auth.pacta_rate_limits`), so every server instance on the
 * database shares them: a client cannot escape a limit by landing on another instance.
 */
export function createRateLimiter(db: Database, windowSeconds: number): RateLimiter {
  return {
    async consume(bucket, subject, limit) {
      const { rows } = await db.pool.query<{ hits: number }>(
        `insert into auth.pacta_rate_limits (bucket, subject, window_start, hits)
         values ($1, $2, to_timestamp(floor(extract(epoch from now()) / $3) * $3), 1)
         on conflict (bucket, subject, window_start) do update set hits = auth.pacta_rate_limits.hits + 1
         returning hits`,
        [bucket, subject.toLowerCase(), windowSeconds],
      );
      const hits = rows[0]!.hits;
      if (hits === 1) {
        // A new window began: sweep a few long-finished windows so the table stays small.
        await db.pool.query(
          `delete from auth.pacta_rate_limits where ctid in (
             select ctid from auth.pacta_rate_limits where window_start < now() - make_interval(secs => $1 * 2) limit 500)`,
          [windowSeconds],
        );
      }
      if (hits > limit) throw overRequestRateLimit();
    },
  };
}
