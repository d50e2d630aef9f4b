import { SyncHttpError, type SyncApi } from './sync-api.ts';

export type ChangeStreamHandlers = {
  /** The stream (re)connected: notices may have been missed, pull everything once. */
  onHello(): void;
  onChange(collection: string): void;
  onConnectedChange(connected: boolean): void;
  onError(err: unknown): void;
};

/** The server sends a heartbeat every 15 s; three missed in a row means the connection is dead. */
const DEFAULT_SILENCE_MS = 45_000;

/**
 * `GET /sync/v1/stream` read with fetch streaming (EventSource cannot send the bearer token).
 * Reconnects with backoff after any drop, asking for a fresh token each time. A connection that
 * goes silent without closing (a phone changing networks leaves it half-open) is dropped after
 * `silenceMs` with nothing received, so live notices do not stop unnoticed.
 */
export function openChangeStream(api: SyncApi, handlers: ChangeStreamHandlers, opts: { maxBackoffMs?: number; silenceMs?: number } = {}) {
  let stopped = false;
  let abort: AbortController | undefined;
  let backoff = 250;
  const maxBackoff = opts.maxBackoffMs ?? 10_000;
  const silenceMs = opts.silenceMs ?? DEFAULT_SILENCE_MS;
  let wake: (() => void) | undefined;
  /** The last connection was dropped for silence: routine, not an error to report. */
  let wentSilent = false;

  async function runOnce(): Promise<void> {
    abort = new AbortController();
    wentSilent = false;
    const res = await api.fetch(api.streamUrl, { headers: await api.headers({ accept: 'text/event-stream' }), signal: abort.signal });
    if (!res.ok || !res.body) {
      let body: { code?: string; message?: string } = {};
      try {
        body = await res.json();
      } catch {
        // keep the status
      }
      throw new SyncHttpError(res.status, body.code ?? `http_${res.status}`, body.message ?? res.statusText);
    }
    handlers.onConnectedChange(true);
    const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
    const connection = abort;
    let watchdog: ReturnType<typeof setTimeout> | undefined;
    const expectDataSoon = () => {
      clearTimeout(watchdog);
      watchdog = setTimeout(() => {
        wentSilent = true;
        connection.abort();
      }, silenceMs);
    };
    let buffer = '';
    try {
      expectDataSoon();
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        expectDataSoon();
        backoff = 250;
        buffer += value;
        let end: number;
        while ((end = buffer.search(/\r?\n\r?\n/)) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(buffer[end] === '\r' ? end + 4 : end + 2);
          dispatch(block);
        }
      }
    } finally {
      clearTimeout(watchdog);
      handlers.onConnectedChange(false);
    }
  }

  function dispatch(block: string) {
    let event = 'message';
    let data = '';
    for (const line of block.split(/\r?\n/)) {
      if (line.startsWith(':')) continue; // heartbeat comment
      const colon = line.indexOf(':');
      const field = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (field === 'event') event = value;
      else if (field === 'data') data += data ? `\n${value}` : value;
    }
    if (event === 'hello') handlers.onHello();
    else if (event === 'change') {
      try {
        const notice = JSON.parse(data) as { collection?: unknown };
        if (typeof notice.collection === 'string') handlers.onChange(notice.collection);
      } catch (err) {
        handlers.onError(err);
      }
    }
  }

  async function loop() {
    while (!stopped) {
      try {
        await runOnce();
      } catch (err) {
        if (stopped) return;
        if (!wentSilent) handlers.onError(err);
      }
      if (stopped) return;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, backoff);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      wake = undefined;
      backoff = Math.min(backoff * 2, maxBackoff);
    }
  }
  void loop();

  return {
    /** Reconnect now (e.g. the browser came back online). */
    reconnect() {
      backoff = 250;
      if (wake) wake();
      else abort?.abort();
    },
    stop() {
      stopped = true;
      abort?.abort();
      wake?.();
    },
  };
}
