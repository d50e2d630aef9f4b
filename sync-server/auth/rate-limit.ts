import type { Database } from '../db/database.ts';
import { overRequestRateLimit } from './errors.ts';

export type RateLimiter = {
  /** Counts one request of `subject` in `bucket`; throws 429 `over_request_rate_limit` past `limit` per window. */
  consume(bucket: string, subject: string, limit: number): Promise<void>;
};

/**
 * A sliding log of hits in Postgres (`auth.pacta_rate_limits`), so every server instance on the
 * database shares it: a client cannot escape a limit by landing on another instance.
 *
 * A request is judged on the hits of the last `windowSeconds` seconds, whenever they fell: counting
 * clock-aligned windows would let a burst that straddles a window boundary through at twice the
 * limit. Each allowed hit is one row (hits at the same instant share it); a refused one writes
 * nothing. The count and the write run under a lock on the subject, so parallel requests cannot all
 * read "under the limit" before any of them is counted.
 */
export function createRateLimiter(db: Database, windowSeconds: number): RateLimiter {
  return {
    async consume(bucket, subject, limit) {
      const client = await db.pool.connect();
      let recentHits: number;
      try {
        await client.query('begin');
        await client.query(
          `select pg_advisory_xact_lock(hashtextextended('pacta_rate_limit:' || $1 || ':' || $2, 0))`,
          [bucket, subject.toLowerCase()],
        );
        const { rows } = await client.query<{ hits: number }>(
          `select coalesce(sum(hits), 0)::int as hits from auth.pacta_rate_limits
           where bucket = $1 and subject = $2 and window_start > now() - make_interval(secs => $3)`,
          [bucket, subject.toLowerCase(), windowSeconds],
        );
        recentHits = rows[0]!.hits;
        if (recentHits < limit) {
          await client.query(
            `insert into auth.pacta_rate_limits (bucket, subject, window_start, hits) values ($1, $2, clock_timestamp(), 1)
             on conflict (bucket, subject, window_start) do update set hits = auth.pacta_rate_limits.hits + 1`,
            [bucket, subject.toLowerCase()],
          );
        }
        if (recentHits === 0) {
          // A quiet subject starts again: sweep a few long-finished hits so the table stays small.
          await client.query(
            `delete from auth.pacta_rate_limits where ctid in (
               select ctid from auth.pacta_rate_limits where window_start < now() - make_interval(secs => $1 * 2) limit 500)`,
            [windowSeconds],
          );
        }
        await client.query('commit');
      } catch (error) {
        await client.query('rollback').catch(() => {});
        throw error;
      } finally {
        client.release();
      }
      if (recentHits >= limit) throw overRequestRateLimit();
    },
  };
}
