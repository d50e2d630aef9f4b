import pg from 'pg';
import { ERRORS, type Lock, type Locker, type RequestRelease } from '@tus/server';

/** Asks the instance holding an upload's lock to let it go (the payload is the upload's id). */
const RELEASE_CHANNEL = 'pacta_upload_release';
/** How long one wait for the lock lasts before the holder is asked again (Postgres's `lock_timeout`). */
const ROUND_MS = 1_000;
/** Postgres's "lock not available", what a wait past `lock_timeout` ends with. */
const LOCK_NOT_AVAILABLE = '55P03';

export type UploadLocker = Locker & { close(): Promise<void> };

/**
 * One request at a time per resumable upload, across every instance on the database: a request
 * holds a session advisory lock on the upload's id (key space `hashtext('pacta.upload')`) for as
 * long as it reads or writes the upload. A client retrying a PATCH after a dropped connection may
 * reach another instance while the first request is still writing; the retry asks the holder to let
 * go (NOTIFY on `pacta_upload_release`, heard by every instance), and @tus/server answers the
 * holder's request after a short drain, so the retry waits seconds, not until the first one ends.
 *
 * Session locks need a session: each held lock has its own connection, from a small pool on the
 * session connection string (`DATABASE_DIRECT_URL`), never the request pool, which may be a
 * transaction pooler that lends each transaction whichever server connection is free. A crashed
 * instance's connections close, and Postgres drops their locks with them.
 */
export function createUploadLocker(opts: {
  connectionString: string;
  /** Past this a request that cannot have the lock is refused with `busy`. */
  acquireTimeoutMs?: number;
  /** Locks this instance holds at once (each is a connection). */
  maxHeld?: number;
  /** What a request that waited too long is answered (an @tus/server error: `{ status_code, body }`). */
  busy: { status_code: number; body: string };
  onListenError?: (err: unknown) => void;
}): UploadLocker {
  const acquireTimeoutMs = opts.acquireTimeoutMs ?? 20_000;
  const pool = new pg.Pool({
    connectionString: opts.connectionString,
    max: opts.maxHeld ?? 10,
    application_name: 'pacta upload locks',
    // Each wait is one round: the holder is asked again, and the request's end is noticed, between rounds.
    lock_timeout: ROUND_MS,
    connectionTimeoutMillis: acquireTimeoutMs,
  });
  pool.on('error', () => {});
  pool.on('connect', (client) => client.on('error', () => {}));
  /** Locks held by this instance's requests, by upload id: how to ask each holder to let go. */
  const held = new Map<string, RequestRelease>();
  let closed = false;
  let listener: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;

  async function listen(): Promise<void> {
    if (closed) return;
    const client = new pg.Client({ connectionString: opts.connectionString, application_name: 'pacta upload locks' });
    client.on('notification', (msg) => {
      if (msg.channel === RELEASE_CHANNEL && msg.payload) void held.get(msg.payload)?.();
    });
    let gone = false;
    const again = (err: unknown) => {
      // An error event and the failed connect can both report one loss: one reconnect.
      if (gone) return;
      gone = true;
      if (listener === client) listener = undefined;
      void client.end().catch(() => {});
      if (closed) return;
      opts.onListenError?.(err);
      // Waiters ask again every round, so a request missed while reconnecting is heard next time.
      retry = setTimeout(() => void listen(), 1_000);
      retry.unref();
    };
    client.on('error', again);
    try {
      await client.connect();
      await client.query(`listen ${RELEASE_CHANNEL}`);
      if (closed) await client.end();
      else listener = client;
    } catch (err) {
      again(err);
    }
  }
  void listen();

  const key = `hashtext('pacta.upload'), hashtext($1)`;

  class UploadLock implements Lock {
    private client: pg.PoolClient | undefined;

    constructor(private readonly id: string) {}

    async lock(stopSignal: AbortSignal, requestRelease: RequestRelease): Promise<void> {
      const deadline = Date.now() + acquireTimeoutMs;
      const client = await pool.connect().catch(() => {
        throw opts.busy;
      });
      try {
        const [{ got }] = (
          await client.query<{ got: boolean }>(`select pg_try_advisory_lock(${key}) as got`, [this.id])
        ).rows as [{ got: boolean }];
        if (!got) await this.wait(client, stopSignal, deadline);
      } catch (err) {
        // Ended without the lock, or in a state unknown: the connection goes, and any lock with it.
        client.release(true);
        throw err;
      }
      this.client = client;
      held.set(this.id, requestRelease);
    }

    /** Asks the holder to let go, then waits for it a round at a time until the deadline. */
    private async wait(client: pg.PoolClient, stopSignal: AbortSignal, deadline: number): Promise<void> {
      for (;;) {
        if (stopSignal.aborted) throw ERRORS.ABORTED;
        if (Date.now() >= deadline) throw opts.busy;
        await client.query(`select pg_notify('${RELEASE_CHANNEL}', $1)`, [this.id]);
        try {
          await client.query(`select pg_advisory_lock(${key})`, [this.id]);
          return;
        } catch (err) {
          if ((err as { code?: string }).code !== LOCK_NOT_AVAILABLE) throw err;
        }
      }
    }

    async unlock(): Promise<void> {
      const client = this.client;
      if (!client) throw new Error('Releasing an unlocked lock!');
      this.client = undefined;
      held.delete(this.id);
      const released = await client
        .query<{ done: boolean }>(`select pg_advisory_unlock(${key}) as done`, [this.id])
        .then((r) => r.rows[0]?.done === true)
        .catch(() => false);
      // A connection whose lock could not be released is closed, which releases it.
      client.release(!released);
    }
  }

  return {
    newLock: (id) => new UploadLock(id),
    async close() {
      closed = true;
      if (retry) clearTimeout(retry);
      await listener?.end().catch(() => {});
      await pool.end();
    },
  };
}
