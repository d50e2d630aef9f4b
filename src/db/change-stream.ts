import { EventSource, type ErrorEvent } from 'eventsource';
import { createBackoff } from '../lib/retry.ts';
import { readStreamEvent, type ChangeStreamEvent } from '../domain/contracts/change-stream.ts';
import { refusalOf, type SyncApi, type SyncHttpError } from './sync-api.ts';

export type ChangeStreamHandlers = {
  /** The stream (re)connected: notices may have been missed, pull everything once. */
  onHello(): void;
  onChange(collection: string): void;
  /** A change's rows themselves (protocol 2); without this handler they count as a `change` notice. */
  onRows?(rows: ChangeStreamEvent<'rows'>): void;
  onConnectedChange(connected: boolean): void;
  onError(err: unknown): void;
};

/** A server's reconnect hint is followed up to this long (a larger one is a mistake, not a plan). */
const MAX_RECONNECT_WITHIN_MS = 60_000;

/** The server sends a heartbeat every 15 s; three missed in a row means the connection is dead. */
const DEFAULT_SILENCE_MS = 45_000;

/**
 * `GET /sync/v1/stream` through the `eventsource` package, whose custom `fetch` sends the bearer token
 * (the browser's EventSource cannot) and goes through the session's 401 rule. Each connection is one
 * EventSource; after any drop this module reconnects itself, with backoff, asking for a fresh token
 * each time. A connection that goes silent without closing (a phone changing networks leaves it
 * half-open) is dropped after `silenceMs` with no bytes received — heartbeats included, which are SSE
 * comments the EventSource API never shows, so the watchdog watches the response body itself.
 */
export function openChangeStream(
  api: SyncApi,
  handlers: ChangeStreamHandlers,
  opts: { maxBackoffMs?: number; silenceMs?: number; random?: () => number } = {},
) {
  const backoff = createBackoff({ firstMs: 250, maxMs: opts.maxBackoffMs ?? 10_000 });
  const random = opts.random ?? Math.random;
  /**
   * Half the backoff plus a random part of the other half: the streams an instance drops together
   * (it crashed) do not all arrive at the remaining instances in the same instant, nor again at each
   * doubling.
   */
  const jittered = (ms: number) => Math.round(ms / 2 + (random() * ms) / 2);
  const silenceMs = opts.silenceMs ?? DEFAULT_SILENCE_MS;
  let stopped = false;
  let source: EventSource | undefined;
  let connected = false;
  let reconnectTimer: ReturnType<typeof setTimeout> | undefined;
  let watchdog: ReturnType<typeof setTimeout> | undefined;

  function setConnected(value: boolean) {
    if (connected === value) return;
    connected = value;
    handlers.onConnectedChange(value);
  }

  function connect() {
    reconnectTimer = undefined;
    if (stopped) return;
    const connection: Connection = {
      endedByServer: false,
      alive: () => {
        if (source === current) expectDataSoon();
      },
    };
    const current = new EventSource(api.streamUrl, { fetch: watchedFetch(api, connection) });
    source = current;
    current.addEventListener('open', () => {
      backoff.reset();
      setConnected(true);
      expectDataSoon();
    });
    listenForChanges(current, handlers, connection);
    current.addEventListener('error', (event) => {
      if (source !== current || stopped) return;
      const { message } = event as ErrorEvent;
      const { refusal, reconnectWithinMs } = connection;
      if (!connection.endedByServer)
        handlers.onError(refusal ?? new TypeError(message ?? 'Failed to fetch the change stream.'));
      // A leaving instance's streams spread their reconnects over the time it gave, at random.
      dropAndReconnect(reconnectWithinMs === undefined ? undefined : Math.round(random() * reconnectWithinMs));
    });
  }

  function expectDataSoon() {
    clearTimeout(watchdog);
    // Dropping a silent connection is routine, not a sync failure to report.
    watchdog = setTimeout(dropAndReconnect, silenceMs);
  }

  /** Closes this connection (EventSource's own retry included) and opens the next one after the backoff. */
  function dropAndReconnect(delayMs = jittered(backoff.next())) {
    clearTimeout(watchdog);
    source?.close();
    source = undefined;
    setConnected(false);
    clearTimeout(reconnectTimer);
    if (!stopped) reconnectTimer = setTimeout(connect, delayMs);
  }

  connect();

  return {
    /** Reconnect now (e.g. the browser came back online). */
    reconnect() {
      backoff.reset();
      dropAndReconnect(0);
    },
    stop() {
      stopped = true;
      dropAndReconnect();
    },
  };
}

/** What one connection learnt, read by its error listener. */
type Connection = {
  /** The server's refusal (status and `{ code, message }`), read before EventSource sees the status. */
  refusal?: SyncHttpError;
  /** The server ended the response (a restart, a deploy): routine, reconnect without reporting it. */
  endedByServer: boolean;
  /** The server is leaving and asked for a reconnect within this many milliseconds (its `reconnect` event). */
  reconnectWithinMs?: number;
  /** Bytes arrived: the connection is alive. */
  alive(): void;
};

/**
 * The EventSource's `fetch`: the session's bearer token and 401 rule, a refusal read as `{ code, message }`,
 * and the response body watched, since every chunk, heartbeat or event, proves the connection is alive.
 */
function watchedFetch(api: SyncApi, connection: Connection) {
  return async (input: string | URL, init: RequestInit & { headers?: Record<string, string> }) => {
    const res = await api.fetch(input, {
      ...init,
      headers: { ...init.headers, ...(await api.headers({ accept: 'text/event-stream' })) },
    });
    if (!res.ok || !res.body) {
      connection.refusal = await refusalOf(res);
      return new Response(null, { status: res.status, statusText: res.statusText });
    }
    const watched = res.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          connection.alive();
          controller.enqueue(chunk);
        },
        flush() {
          connection.endedByServer = true;
        },
      }),
    );
    return new Response(watched, { status: res.status, statusText: res.statusText, headers: res.headers });
  };
}

/** The stream's events, read by their contracts, to the handlers. */
function listenForChanges(source: EventSource, handlers: ChangeStreamHandlers, connection: Connection): void {
  source.addEventListener('hello', () => handlers.onHello());
  source.addEventListener('reconnect', (event) => {
    // An unreadable hint: the ordinary backoff applies.
    const hint = readStreamEvent('reconnect', (event as MessageEvent<string>).data);
    if (hint) connection.reconnectWithinMs = Math.min(hint.within, MAX_RECONNECT_WITHIN_MS);
  });
  source.addEventListener('change', (event) => {
    const notice = readStreamEvent('change', (event as MessageEvent<string>).data);
    if (notice) handlers.onChange(notice.collection);
    else handlers.onError(new TypeError('An unreadable change notice arrived on the change stream.'));
  });
  source.addEventListener('rows', (event) => {
    const data = (event as MessageEvent<string>).data;
    const rows = readStreamEvent('rows', data);
    if (rows && handlers.onRows) return handlers.onRows(rows);
    if (rows) return handlers.onChange(rows.collection);
    // Unreadable rows still name their collection as a notice would: pull it.
    const named = readStreamEvent('change', data);
    if (named) handlers.onChange(named.collection);
    handlers.onError(new TypeError('Unreadable rows arrived on the change stream.'));
  });
}
