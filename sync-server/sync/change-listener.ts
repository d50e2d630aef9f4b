import type pg from 'pg';

/** A change notice as the triggers publish it: the collection and who it concerns (null = everyone). */
export type ChangeNotice = { collection: string; audience: string[] | null };

export const NOTIFY_CHANNEL = 'pacta_sync';
/** Sessions that ended (see auth/sessions.ts): their streams close on every instance. */
const SESSION_ENDED_CHANNEL = 'pacta_session_ended';

export type ChangeListener = { close(): Promise<void> };

/**
 * LISTENs for change notices on a dedicated connection of this server instance. If the connection
 * drops it reconnects with backoff and then calls `onResync`, since notices sent meanwhile are lost
 * (clients must re-pull). A periodic ping makes a silently dead connection surface as an error.
 */
export function startChangeListener(
  pool: pg.Pool,
  handlers: {
    onNotice(notice: ChangeNotice): void;
    onResync(): void;
    onError(err: unknown): void;
    onSessionEnded?(sessionId: string): void;
  },
  opts: { pingMs?: number } = {},
): ChangeListener {
  let client: pg.PoolClient | undefined;
  let closed = false;
  let connectedBefore = false;
  let backoff = 200;
  let retryTimer: NodeJS.Timeout | undefined;
  const pingMs = opts.pingMs ?? 30_000;

  const onNotification = (msg: pg.Notification) => {
    if (msg.channel === SESSION_ENDED_CHANNEL && msg.payload) {
      handlers.onSessionEnded?.(msg.payload);
      return;
    }
    if (msg.channel !== NOTIFY_CHANNEL || !msg.payload) return;
    try {
      const parsed = JSON.parse(msg.payload) as { c?: unknown; u?: unknown };
      if (typeof parsed.c !== 'string') return;
      const audience = Array.isArray(parsed.u) ? parsed.u.filter((u): u is string => typeof u === 'string') : null;
      handlers.onNotice({ collection: parsed.c, audience });
    } catch (err) {
      handlers.onError(err);
    }
  };

  function drop(c: pg.PoolClient, err?: unknown) {
    if (client !== c) return;
    client = undefined;
    c.removeListener('notification', onNotification);
    c.release(err instanceof Error ? err : true);
    if (err) handlers.onError(err);
    schedule();
  }

  function schedule() {
    if (closed || retryTimer) return;
    retryTimer = setTimeout(() => {
      retryTimer = undefined;
      void connect();
    }, backoff);
    backoff = Math.min(backoff * 2, 5_000);
  }

  async function connect() {
    if (closed) return;
    let c: pg.PoolClient | undefined;
    try {
      c = await pool.connect();
      const current = c;
      current.on('error', (err) => drop(current, err));
      current.on('notification', onNotification);
      await current.query(`listen ${SESSION_ENDED_CHANNEL}`);
      await current.query(`listen ${NOTIFY_CHANNEL}`);
      if (closed) {
        current.release(true);
        return;
      }
      client = current;
      backoff = 200;
      if (connectedBefore) handlers.onResync();
      connectedBefore = true;
    } catch (err) {
      if (c) c.release(true);
      handlers.onError(err);
      schedule();
    }
  }

  const ping = setInterval(() => {
    const c = client;
    if (c) c.query('select 1').catch((err) => drop(c, err));
  }, pingMs);
  ping.unref();

  void connect();

  return {
    async close() {
      closed = true;
      clearInterval(ping);
      if (retryTimer) clearTimeout(retryTimer);
      const c = client;
      client = undefined;
      if (c) {
        c.removeListener('notification', onNotification);
        await c.query(`unlisten *`).catch(() => {});
        c.release(true);
      }
    },
  };
}
