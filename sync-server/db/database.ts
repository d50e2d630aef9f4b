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
  /**
   * Request transactions. It may be a transaction pooler (PgBouncer, Supavisor in transaction mode),
   * which hands each transaction whichever server connection is free: nothing run on it may outlive
   * its transaction (no named prepared statement, session `set`, session advisory lock or LISTEN).
   */
  pool: pg.Pool;
  /**
   * Connections that keep their server session (`DATABASE_DIRECT_URL`, or the same database as
   * `pool` when unset): LISTEN, and anything else that needs a session. A few at most.
   */
  session: pg.Pool;
  /** The connection string of `session`, for a part that keeps session connections of its own (upload locks). */
  sessionUrl: string;
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

/**
 * A client for a transaction pooler: every query goes out unnamed. A named prepared statement lives
 * on the server connection that prepared it, and a pooler lends each transaction whichever
 * connection is free, so the next one finds it missing ("does not exist") or, where it prepared it
 * before, present ("already exists"). Named here, on a connection with its own session, a statement
 * is parsed and planned once per connection.
 */
class UnnamedStatementsClient extends pg.Client {
  override query(...args: unknown[]): never {
    const [config] = args;
    if (config && typeof config === 'object' && 'name' in config && !('submit' in config)) {
      const { name: _unnamed, ...rest } = config as pg.QueryConfig;
      args[0] = rest;
    }
    return (super.query as (...a: unknown[]) => never)(...args);
  }
}

function openPool(connectionString: string, max: number, keepsSession: boolean): pg.Pool {
  const pool = new pg.Pool({ connectionString, max, ...(keepsSession ? {} : { Client: UnnamedStatementsClient }) });
  // An idle client can lose its connection (database restart); without a listener that would crash the process.
  pool.on('error', () => {});
  pool.on('connect', (client) => {
    // A client in use can lose it too (a pull's commit still under way when Postgres stops): its query
    // fails and answers 503, but the client's own 'error' event, unheard, would crash the process.
    client.on('error', () => {});
  });
  return pool;
}

/**
 * The server's connections to Postgres. `databaseUrl` carries every request transaction and may
 * point at a transaction pooler when `directUrl` (a session connection to Postgres itself) is given;
 * without `directUrl` the one URL serves both and must keep sessions (a direct connection, or a
 * pooler in session mode).
 */
export function createDatabase(
  databaseUrl: string,
  opts: { max?: number; directUrl?: string | undefined } = {},
): Database {
  const pooled = Boolean(opts.directUrl);
  const pool = openPool(databaseUrl, opts.max ?? 20, !pooled);
  // The change listener, the push sender and the money jobs each hold one LISTEN connection.
  const session = opts.directUrl ? openPool(opts.directUrl, 5, true) : pool;

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
    session,
    sessionUrl: opts.directUrl ?? databaseUrl,
    asUser: (claims, work) => inTransaction((tx) => becomeUser(tx, claims), work),
    asService: (work) => inTransaction(async () => {}, work),
    async close() {
      await pool.end();
      if (session !== pool) await session.end();
    },
  };
}
