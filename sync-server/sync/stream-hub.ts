import type { ServerResponse } from 'node:http';
import type { ChangeNotice } from './change-listener.ts';

const NOTICE_WINDOW_MS = 10;

/** One open `GET /sync/v1/stream` response. */
type StreamClient = {
  userId: string;
  isAdmin: boolean;
  res: ServerResponse;
  pending: Set<string>;
  flushScheduled: boolean;
  expiry: NodeJS.Timeout | undefined;
};

/**
 * The server instance's open change streams. Notices are filtered per user (admins get all) and
 * coalesced per connection within a few milliseconds, so a burst of commits sends one notice per
 * collection. Comments (`: heartbeat`) keep proxies from closing idle streams.
 */
export function createStreamHub(opts: { heartbeatMs?: number; knownCollections: readonly string[] }) {
  const clients = new Set<StreamClient>();
  const heartbeat = setInterval(() => {
    for (const c of clients) c.res.write(': heartbeat\n\n');
  }, opts.heartbeatMs ?? 15_000);
  heartbeat.unref();

  function send(c: StreamClient, event: string, data: unknown) {
    c.res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  }

  function queue(c: StreamClient, collection: string) {
    c.pending.add(collection);
    if (c.flushScheduled) return;
    c.flushScheduled = true;
    // A short window: coalesces bursts, and lets a commit that was just announced become visible to
    // new snapshots (Postgres may deliver a NOTIFY a moment before the commit is visible to all).
    setTimeout(() => {
      c.flushScheduled = false;
      const names = [...c.pending];
      c.pending.clear();
      if (!clients.has(c)) return;
      for (const collection of names) send(c, 'change', { collection });
    }, NOTICE_WINDOW_MS);
  }

  function remove(c: StreamClient) {
    if (!clients.delete(c)) return;
    if (c.expiry) clearTimeout(c.expiry);
  }

  return {
    /** Registers an open response; `expiresAt` (seconds) ends the stream when the token expires. */
    add(res: ServerResponse, user: { id: string; isAdmin: boolean; expiresAt?: number; protocol: number }) {
      const c: StreamClient = { userId: user.id, isAdmin: user.isAdmin, res, pending: new Set(), flushScheduled: false, expiry: undefined };
      clients.add(c);
      if (user.expiresAt) {
        // The client reconnects with a fresh token; the stream never outlives its authorization.
        const ms = Math.max(0, user.expiresAt * 1000 - Date.now());
        c.expiry = setTimeout(() => res.end(), Math.min(ms, 2 ** 31 - 1));
        c.expiry.unref();
      }
      res.on('close', () => remove(c));
      // Tells the client to pull everything once: notices sent while it was away are lost.
      send(c, 'hello', { protocol: user.protocol });
      return () => remove(c);
    },
    notify(notice: ChangeNotice) {
      for (const c of clients) {
        if (notice.audience === null || c.isAdmin || notice.audience.includes(c.userId)) queue(c, notice.collection);
      }
    },
    /** After the LISTEN connection was lost: every client re-pulls every collection. */
    resyncAll() {
      for (const c of clients) for (const name of opts.knownCollections) queue(c, name);
    },
    get size() {
      return clients.size;
    },
    closeAll() {
      clearInterval(heartbeat);
      for (const c of [...clients]) {
        remove(c);
        c.res.end();
      }
    },
  };
}
