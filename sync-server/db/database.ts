import pg from 'pg';
import { isDatabaseUnavailable } from './unavailable.ts';

/** Claims of a verified Supabase access token, as RLS reads them through `auth.jwt()`. */
export type JwtClaims = {
  sub: string;
  role: string;
  email?: string;
  session_id?: string;
  app_metadata?: Record<string, unknown>;
  user_metadata?: Record<string, unknown>;
  [claim: string]: unknown;
};

export type Tx = pg.PoolClient;

export type Database = {
  pool: pg.Pool;
  /**
   * Runs `work` in one transaction as the signed-in user: the claims go into `request.jwt.claims`
   * and the role becomes `authenticated` (or `service_role`), so every RLS policy applies exactly as
   * it would through Supabase's own API.
   */
  asUser<T>(claims: JwtClaims, work: (tx: Tx) => Promise<T>): Promise<T>;
  /** Runs `work` in one transaction with the server's own rights (no RLS): server-owned writes only. */
  asService<T>(work: (tx: Tx) => Promise<T>): Promise<T>;
  close(): Promise<void>;
};

// bigint columns (cents, sequence numbers) come back as JS numbers: all our amounts fit in 2^53.
pg.types.setTypeParser(20, (v) => Number(v));

/**
 * Makes the rest of the open transaction run as the signed-in user, exactly as Supabase's API does:
 * the claims go into `request.jwt.claims` and the role becomes `authenticated` (or `service_role`).
 */
export async function becomeUser(tx: Tx, claims: JwtClaims): Promise<void> {
  const role = claims.role === 'service_role' ? 'service_role' : 'authenticated';
  await tx.query(`select set_config('request.jwt.claims', $1, true), set_config('role', $2, true)`, [
    JSON.stringify(claims),
    role,
  ]);
}

export function createDatabase(databaseUrl: string, opts: { max?: number } = {}): Database {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: opts.max ?? 20 });
  // An idle client can lose its connection (database restart); without a listener that would crash the process.
  pool.on('error', () => {});
  // A client in use can lose it too (a pull's commit still under way when Postgres stops): its query
  // fails and answers 503, but the client's own 'error' event, unheard, would crash the process.
  pool.on('connect', (client) => client.on('error', () => {}));

  async function inTransaction<T>(setup: (tx: Tx) => Promise<void>, work: (tx: Tx) => Promise<T>): Promise<T> {
    const tx = await pool.connect();
    let broken = false;
    try {
      await tx.query('begin');
      await setup(tx);
      const result = await work(tx);
      await tx.query('commit');
      return result;
    } catch (err) {
      // A connection Postgres dropped (a restart) is discarded, not handed to the next request.
      broken = isDatabaseUnavailable(err);
      if (!broken) await tx.query('rollback').catch(() => (broken = true));
      throw err;
    } finally {
      tx.release(broken);
    }
  }

  return {
    pool,
    asUser: (claims, work) => inTransaction((tx) => becomeUser(tx, claims), work),
    asService: (work) => inTransaction(async () => {}, work),
    close: () => pool.end(),
  };
}
