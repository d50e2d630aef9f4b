import {
  SYNC_PROTOCOL_HEADER,
  SYNC_PROTOCOL_VERSION,
  type CollectionName,
  type PullResponse,
  type PushResponse,
  type SyncCheckpoint,
} from '../domain/collections/index.ts';
import { storedDeviceDeals } from './device-deals.ts';

export type SyncDoc = Record<string, unknown> & { id: string; _deleted: boolean };
export type PushRow = { newDocumentState: SyncDoc; assumedMasterState?: SyncDoc };

/** An answer from the sync server that is not a success: its status and `{ code, message }`. */
export class SyncHttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'SyncHttpError';
  }
}

export type SyncApiOptions = {
  serverUrl: string;
  /** The bearer token of each request; omitted when `fetch` sets it itself. */
  getAccessToken?: () => Promise<string | null | undefined> | string | null | undefined;
  fetch?: typeof fetch;
};

/** The three sync endpoints over HTTP. No UI concerns: errors are thrown, callers decide. */
export function createSyncApi(opts: SyncApiOptions) {
  const base = `${opts.serverUrl.replace(/\/$/, '')}/sync/v1`;
  const send = opts.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => globalThis.fetch(input, init));
  // A request the browser already knows cannot go out is not sent: it would only fail and log a
  // network error (an offline reload made some thirty). It fails here the same way instead, and
  // replication and the change stream try again on the browser's `online` event.
  const doFetch: typeof send = (input, init) =>
    typeof navigator !== 'undefined' && navigator.onLine === false
      ? Promise.reject(new TypeError('Failed to fetch: the browser is offline'))
      : send(input, init);

  async function headers(extra: Record<string, string> = {}): Promise<Record<string, string>> {
    const token = await opts.getAccessToken?.();
    return {
      [SYNC_PROTOCOL_HEADER]: String(SYNC_PROTOCOL_VERSION),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...extra,
    };
  }

  function feedParams(limit: number): URLSearchParams {
    const params = new URLSearchParams({ limit: String(limit) });
    const set = storedDeviceDeals();
    if (set !== undefined) params.set('set', String(set));
    return params;
  }

  return {
    streamUrl: `${base}/stream`,
    headers,
    fetch: doFetch,
    async pull(
      collection: CollectionName,
      checkpoint: SyncCheckpoint | null,
      limit: number,
    ): Promise<PullResponse<SyncDoc>> {
      const params = feedParams(limit);
      if (checkpoint) params.set('checkpoint', JSON.stringify(checkpoint));
      const res = await doFetch(`${base}/${collection}/pull?${params}`, { headers: await headers() });
      return json(res);
    },
    /**
     * A fresh feed in one request: the server sends newline-delimited pages read from one snapshot;
     * each is yielded as soon as its line is complete. Ends when the server ends the response.
     */
    async *snapshot(
      collection: CollectionName,
      limit: number,
      signal?: AbortSignal,
    ): AsyncGenerator<PullResponse<SyncDoc>> {
      const res = await doFetch(`${base}/${collection}/snapshot?${feedParams(limit)}`, {
        headers: await headers(),
        signal,
      });
      if (!res.ok || !res.body) {
        await json(res);
        return;
      }
      yield* jsonLines<PullResponse<SyncDoc>>(res.body);
    },
    async push(collection: CollectionName, rows: PushRow[]): Promise<PushResponse<SyncDoc>> {
      const res = await doFetch(`${base}/${collection}/push`, {
        method: 'POST',
        headers: await headers({ 'content-type': 'application/json' }),
        body: JSON.stringify({ rows }),
      });
      return json(res);
    },
  };
}

export type SyncApi = ReturnType<typeof createSyncApi>;

/** The answer's JSON body, or the server's refusal thrown as a `SyncHttpError`. */
async function json<T>(res: Response): Promise<T> {
  if (res.ok) return (await res.json()) as T;
  throw await refusalOf(res);
}

/** A response that is not a success, as its status and the server's `{ code, message }`. */
export async function refusalOf(res: Response): Promise<SyncHttpError> {
  let body: { code?: string; message?: string } = {};
  try {
    body = (await res.json()) as typeof body;
  } catch {
    // not JSON (a proxy's error page): keep the status
  }
  return new SyncHttpError(res.status, body.code ?? `http_${res.status}`, body.message ?? res.statusText);
}

/** Newline-delimited JSON, each line yielded as soon as it is complete. */
async function* jsonLines<T>(body: NonNullable<Response['body']>): AsyncGenerator<T> {
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  try {
    // The parts of the line being received (a page is hundreds of kilobytes, in many chunks).
    let parts: string[] = [];
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      let from = 0;
      let end: number;
      while ((end = value.indexOf('\n', from)) >= 0) {
        parts.push(value.slice(from, end));
        const line = parts.join('');
        parts = [];
        from = end + 1;
        if (line) yield JSON.parse(line) as T;
      }
      parts.push(value.slice(from));
    }
  } finally {
    reader.cancel().catch(() => {});
  }
}
