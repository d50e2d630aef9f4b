import type { ServerResponse } from 'node:http';
import {
  streamEvent,
  type ChangeStreamEvent,
  type ChangeStreamEventName,
} from '../../src/domain/contracts/change-stream.ts';
import type { ChangeNotice } from './change-listener.ts';

/**
 * How long a stream's notices wait to be coalesced. Postgres hands a NOTIFY to listeners only once
 * the sending transaction is no longer running, so a pull started after the notice sees its rows;
 * the window only gathers a burst of commits into one write per stream. Every millisecond of it is
 * added to "commit → on screen", so it is short.
 */
const NOTICE_WINDOW_MS = 2;

/** The time over which the streams of a leaving instance spread their reconnects. */
const DEFAULT_RECONNECT_WITHIN_MS = 3_000;

/** One open `GET /sync/v1/stream` response. */
type StreamClient = {
  userId: string;
  /** The session the stream's token belongs to (absent with hosted auth's tokens without one). */
  sessionId: string | undefined;
  isAdmin: boolean;
  /** The client reads `rows` events (protocol 2 and later); an older one gets `change` notices only. */
  readsRows: boolean;
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
export function createStreamHub(opts: {
  heartbeatMs?: number;
  knownCollections: readonly string[];
  /** The last stream of this user on this instance closed. */
  onUserGone?: (userId: string) => void;
}) {
  const clients = new Set<StreamClient>();
  let closed = false;
  // A notice for a few users reaches their streams (and the admins') without walking every stream.
  const byUser = new Map<string, Set<StreamClient>>();
  const admins = new Set<StreamClient>();
  const heartbeat = setInterval(() => {
    for (const c of clients) c.res.write(': heartbeat\n\n');
  }, opts.heartbeatMs ?? 15_000);
  heartbeat.unref();

  function send<E extends ChangeStreamEventName>(c: StreamClient, event: E, data: ChangeStreamEvent<E>) {
    c.res.write(streamEvent(event, data));
  }

  // One timer per notice, not one per stream: with thousands of streams a catalog notice would
  // otherwise schedule thousands of timers. The bytes of a `change` event are encoded once per
  // collection and the same buffer is written to every stream (a catalog notice reaches all of them).
  const timers = new Set<NodeJS.Timeout>();
  const changeEvents = new Map<string, Buffer>();
  const changeEvent = (collection: string) => {
    let bytes = changeEvents.get(collection);
    if (bytes === undefined) changeEvents.set(collection, (bytes = Buffer.from(streamEvent('change', { collection }))));
    return bytes;
  };

  function flush(batch: StreamClient[]) {
    for (const c of batch) {
      c.flushScheduled = false;
      const names = [...c.pending];
      c.pending.clear();
      if (!clients.has(c)) continue;
      c.res.write(names.length === 1 ? changeEvent(names[0]!) : Buffer.concat(names.map(changeEvent)));
    }
  }

  /** Queues a notice for the clients `pick` selects; each is written once its window has passed. */
  function queueAll(targets: Iterable<StreamClient>, names: readonly string[]) {
    const batch: StreamClient[] = [];
    for (const c of targets) {
      for (const name of names) c.pending.add(name);
      if (c.flushScheduled) continue;
      c.flushScheduled = true;
      batch.push(c);
    }
    if (batch.length === 0) return;
    // A short window: coalesces bursts, and lets a commit that was just announced become visible to
    // new snapshots (Postgres may deliver a NOTIFY a moment before the commit is visible to all).
    const timer = setTimeout(() => {
      timers.delete(timer);
      flush(batch);
    }, NOTICE_WINDOW_MS);
    timers.add(timer);
  }

  function remove(c: StreamClient) {
    if (!clients.delete(c)) return;
    admins.delete(c);
    const own = byUser.get(c.userId);
    own?.delete(c);
    if (own?.size === 0) {
      byUser.delete(c.userId);
      opts.onUserGone?.(c.userId);
    }
    if (c.expiry) clearTimeout(c.expiry);
  }

  return {
    /** Registers an open response; `expiresAt` (seconds) ends the stream when the token expires. */
    add(
      res: ServerResponse,
      user: {
        id: string;
        sessionId?: string;
        isAdmin: boolean;
        expiresAt?: number;
        protocol: number;
        readsRows?: boolean;
      },
    ) {
      // Opened while the server shuts down (after closeAll): ended at once, or it would hold the close.
      if (closed) {
        res.end();
        return () => {};
      }
      const c: StreamClient = {
        userId: user.id,
        sessionId: user.sessionId,
        isAdmin: user.isAdmin,
        readsRows: user.readsRows ?? false,
        res,
        pending: new Set(),
        flushScheduled: false,
        expiry: undefined,
      };
      clients.add(c);
      if (c.isAdmin) admins.add(c);
      let own = byUser.get(c.userId);
      if (!own) byUser.set(c.userId, (own = new Set()));
      own.add(c);
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
      if (notice.audience === null) return queueAll(clients, [notice.collection]);
      const targets = new Set(admins);
      for (const userId of notice.audience) byUser.get(userId)?.forEach((c) => targets.add(c));
      queueAll(targets, [notice.collection]);
    },
    /**
     * Catalog rows every reader may see (`rows`, encoded once): written to every stream now — the read
     * that made them already waited past the notice — and announced as a `change` to streams of
     * clients that do not read rows.
     */
    streamRows(collection: string, event: Buffer) {
      const older: StreamClient[] = [];
      for (const c of clients) {
        if (c.readsRows) c.res.write(event);
        else older.push(c);
      }
      queueAll(older, [collection]);
    },
    /**
     * One user's own rows (`rows`, read as that user): written to that user's streams now, and announced
     * as a `change` to those of their clients that do not read rows.
     */
    streamRowsTo(userId: string, collection: string, event: Buffer) {
      const older: StreamClient[] = [];
      for (const c of byUser.get(userId) ?? []) {
        if (c.readsRows) c.res.write(event);
        else older.push(c);
      }
      queueAll(older, [collection]);
    },
    /** A `change` notice for one user's streams only (not the admins'). */
    notifyUser(userId: string, collection: string) {
      queueAll(byUser.get(userId) ?? [], [collection]);
    },
    /** Whether one of this user's streams reads `rows` events. */
    readsRows(userId: string): boolean {
      for (const c of byUser.get(userId) ?? []) if (c.readsRows) return true;
      return false;
    },
    /** After the LISTEN connection was lost: every client re-pulls every collection. */
    resyncAll() {
      queueAll(clients, opts.knownCollections);
    },
    /**
     * Closes every stream of an ended session (sign-out, password change, reused refresh token),
     * telling the client why first; its reconnect is then refused with 401 like any request.
     */
    endSession(sessionId: string) {
      for (const c of [...clients]) {
        if (c.sessionId !== sessionId) continue;
        send(c, 'session_ended', { reason: 'The session ended. Sign in again.' });
        remove(c);
        c.res.end();
      }
    },
    /** Session ids of the open streams (to sweep for sessions that ended unannounced). */
    sessionIds(): string[] {
      return [...new Set([...clients].flatMap((c) => (c.sessionId ? [c.sessionId] : [])))];
    },
    get size() {
      return clients.size;
    },
    /** How many streams this user holds open on this instance. */
    countOf(userId: string): number {
      return byUser.get(userId)?.size ?? 0;
    },
    /**
     * Closes every stream for good (the instance is leaving). Each client is told to reconnect,
     * which behind a load balancer reaches another instance, within `reconnectWithinMs`: the SSE
     * `retry:` field for EventSource's own reconnect, and a `reconnect` event for clients that manage
     * their own. Each waits a random part of that time, so the streams of a leaving instance do not
     * all arrive at the others in the same instant.
     */
    closeAll(opts: { reconnectWithinMs?: number } = {}) {
      closed = true;
      clearInterval(heartbeat);
      timers.forEach((t) => clearTimeout(t));
      const within = opts.reconnectWithinMs ?? DEFAULT_RECONNECT_WITHIN_MS;
      const farewell = Buffer.from(`retry: ${within}\n${streamEvent('reconnect', { within })}`);
      for (const c of [...clients]) {
        remove(c);
        c.res.end(farewell);
      }
    },
  };
}
