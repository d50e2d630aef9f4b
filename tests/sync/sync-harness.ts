import { randomUUID } from 'node:crypto';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import type { RxStorage } from 'rxdb';
import type { CollectionName } from '../../src/domain/collections/index.ts';
import {
  createPactaDatabase,
  pactaDexieStorage,
  startReplication,
  type PactaDatabase,
  type PactaReplication,
} from '../../src/db/index.ts';
import type { ReplicationOptions } from '../../src/db/replication.ts';
import type { TestUser } from '../support/test-server.ts';
import type { Database } from '../../sync-server/db/database.ts';

/** A fetch the test can cut off, as a device going offline would. */
export function switchableFetch() {
  let online = true;
  const calls: { method: string; url: string }[] = [];
  const control = {
    delayMs: (_url: string): number => 0,
    delayAnswerMs: (_url: string): number => 0,
    cutAfterLines: (_url: string): number | undefined => undefined,
  };
  const fetchFn: typeof fetch = async (input, init) => {
    calls.push({ method: init?.method ?? 'GET', url: String(input) });
    const delay = control.delayMs(String(input));
    if (delay) await new Promise((r) => setTimeout(r, delay));
    if (!online) return Promise.reject(new TypeError('fetch failed: offline'));
    const res = await globalThis.fetch(input, init);
    const answerDelay = control.delayAnswerMs(String(input));
    if (answerDelay) await new Promise((r) => setTimeout(r, answerDelay));
    const cut = control.cutAfterLines(String(input));
    return cut === undefined || !res.body
      ? res
      : new Response(cutAfterLines(res.body, cut), { status: res.status, headers: res.headers });
  };
  return {
    fetch: fetchFn,
    /** Every request the client made, in order. */
    calls,
    /** How long to hold a request to this URL before sending it (a slow route, to force an order). */
    set delayMs(fn: (url: string) => number) {
      control.delayMs = fn;
    },
    /** How long to hold the answer to a request to this URL once the server gave it (a slow link back). */
    set delayAnswerMs(fn: (url: string) => number) {
      control.delayAnswerMs = fn;
    },
    /** Drop the connection of a response to this URL once that many lines of its body arrived. */
    set cutAfterLines(fn: (url: string) => number | undefined) {
      control.cutAfterLines = fn;
    },
    set online(value: boolean) {
      online = value;
    },
    get online() {
      return online;
    },
  };
}

/** A response body that fails like a dropped connection right after its `lines`-th line. */
function cutAfterLines(body: ReadableStream<Uint8Array>, lines: number): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  let seen = 0;
  return new ReadableStream({
    async pull(controller) {
      const { value, done } = await reader.read();
      if (done) return controller.close();
      for (let i = 0; i < value.length; i++) {
        if (value[i] !== 10 || ++seen < lines) continue;
        controller.enqueue(value.subarray(0, i + 1));
        await reader.cancel();
        return controller.error(new TypeError('terminated: the connection dropped'));
      }
      controller.enqueue(value);
    },
  });
}

export type TestClient = {
  db: PactaDatabase;
  replication: PactaReplication;
  network: ReturnType<typeof switchableFetch>;
  /** Stops replicating and closes the local database (keeps its data unless `remove`). */
  close(opts?: { remove?: boolean }): Promise<void>;
  /** Starts replicating again on the same local database. */
  restart(): void;
};

/**
 * A real RxDB client (Dexie storage on fake-indexeddb) replicating with the test server.
 * Each client gets its own IndexedDB factory, like a separate device.
 */
export async function createTestClient(
  server: { url: string },
  user: TestUser,
  collections: readonly CollectionName[],
  opts: {
    pullBatchSize?: number;
    idb?: IDBFactory;
    name?: string;
    storage?: RxStorage<unknown, unknown>;
    rememberReceivedMs?: number;
    snapshot?: boolean;
    network?: ReturnType<typeof switchableFetch>;
    takesEarlyStreams?: boolean;
    refusedStore?: ReplicationOptions['refusedStore'];
    pullOnlyByRole?: boolean;
    roleHint?: ReplicationOptions['roleHint'];
    serverRole?: ReplicationOptions['serverRole'];
    startAfter?: Promise<void>;
    startFirst?: ReplicationOptions['startFirst'];
  } = {},
): Promise<TestClient> {
  const idb = opts.idb ?? new IDBFactory();
  const db = await createPactaDatabase({
    userId: user.id,
    name: opts.name ?? `pacta-${randomUUID()}`,
    storage: opts.storage ?? pactaDexieStorage({ indexedDB: idb, IDBKeyRange }),
    collections,
    multiInstance: false,
  });
  const network = opts.network ?? switchableFetch();
  const start = () =>
    startReplication(db, {
      serverUrl: server.url,
      getAccessToken: () => user.accessToken,
      fetch: network.fetch,
      retryTime: 150,
      pullBatchSize: opts.pullBatchSize,
      rememberReceivedMs: opts.rememberReceivedMs,
      snapshot: opts.snapshot,
      userId: opts.takesEarlyStreams || opts.pullOnlyByRole ? user.id : undefined,
      refusedStore: opts.refusedStore,
      pullOnlyByRole: opts.pullOnlyByRole,
      roleHint: opts.roleHint,
      serverRole: opts.serverRole,
      startAfter: opts.startAfter,
      startFirst: opts.startFirst,
    });
  const client: TestClient = {
    db,
    replication: start(),
    network,
    async close({ remove } = {}) {
      await client.replication.stop();
      if (remove) await db.remove();
      else await db.close();
    },
    restart() {
      client.replication = start();
    },
  };
  return client;
}

/**
 * Dexie storage on a fake IndexedDB whose replication bookkeeping can misbehave like a busy or killed
 * phone: while `metaDelayMs` is set, RxDB's record of a pulled document's master state is written that
 * much later than the document itself; while `dropCheckpoints` is set, the stored pull/push positions
 * are never saved (a tab closed before RxDB's unawaited checkpoint write landed); while
 * `dropPulledMasters` is set, that record is never written (the tab closed between the two writes).
 */
export function storageWithFaultyReplicationMeta(idb: IDBFactory = new IDBFactory()) {
  const control = { metaDelayMs: 0, dropCheckpoints: false, dropPulledMasters: false };
  const base = pactaDexieStorage({ indexedDB: idb, IDBKeyRange }) as RxStorage<unknown, unknown>;
  const storage: RxStorage<unknown, unknown> = {
    ...base,
    async createStorageInstance(params) {
      const instance = await base.createStorageInstance(params);
      if (!params.collectionName.startsWith('rx-replication-meta-')) return instance;
      return new Proxy(instance, {
        get(target, prop, receiver) {
          if (prop !== 'bulkWrite') {
            const value = Reflect.get(target, prop, receiver) as unknown;
            return typeof value === 'function' ? value.bind(target) : value;
          }
          return async (rows: Parameters<typeof target.bulkWrite>[0], context: string) => {
            if (control.dropCheckpoints && context === 'replication-set-checkpoint') return { error: [] };
            if (control.dropPulledMasters && context === 'replication-down-write-meta') return { error: [] };
            if (control.metaDelayMs && context === 'replication-down-write-meta')
              await new Promise((r) => setTimeout(r, control.metaDelayMs));
            return target.bulkWrite(rows, context);
          };
        },
      });
    },
  };
  return { storage, control };
}

/** Polls until `check` returns a truthy value (or throws its last error after the timeout). */
export async function eventually<T>(
  check: () => Promise<T> | T,
  timeoutMs = 30_000,
): Promise<Exclude<T, false | null | undefined | 0 | ''>> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value) return value as Exclude<T, false | null | undefined | 0 | ''>;
      lastError = new Error('condition not met');
    } catch (err) {
      lastError = err;
    }
    if (Date.now() > deadline) throw lastError;
    await new Promise((r) => setTimeout(r, 50));
  }
}

export function newId(): string {
  return randomUUID();
}

/**
 * Inserts deals as the server (the way seeds and the bench create them); with `createdMinutesAgo`,
 * created a minute apart in the order of the ids returned, the last that many minutes ago.
 */
export async function insertDeals(
  db: Database,
  brandId: string,
  count: number,
  overrides: Record<string, unknown> = {},
): Promise<string[]> {
  const ids = Array.from({ length: count }, () => randomUUID());
  await db.asService(async (tx) => {
    await tx.query(
      `insert into public.deals (id, brand_id, title, description, amount_cents, niches, pro_only, status)
       select id, $2, 'Deal ' || ord, 'A sponsorship deal', 50000 + ord, '{fitness}', $3, 'open'
         from unnest($1::uuid[]) with ordinality as u(id, ord)`,
      [ids, brandId, overrides.pro_only ?? false],
    );
    if (overrides.createdMinutesAgo === undefined) return;
    // The deals' triggers keep `created_at` as the server set it: past them, as a seed would.
    await tx.query('set local session_replication_role = replica');
    await tx.query(
      `update public.deals d set created_at = now() - ($2::int + $3::int - u.ord) * interval '1 minute'
         from unnest($1::uuid[]) with ordinality as u(id, ord) where d.id = u.id`,
      [ids, overrides.createdMinutesAgo, count],
    );
  });
  return ids;
}

/** A fingerprint of every replicated table: row counts and the newest change id. */
export async function databaseFingerprint(db: Database): Promise<string> {
  const tables = [
    'deals',
    'applications',
    'profiles',
    'saved_lists',
    'drafts',
    'conversations',
    'messages',
    'notifications',
    'support_tickets',
    'support_messages',
    'reviews',
    'xp_logs',
    'referrals',
    'referral_badges',
    'referral_rewards',
  ];
  const parts = await Promise.all(
    tables.map(async (t) => {
      const { rows } = await db.pool.query(
        `select count(*)::int as n, coalesce(max(change_xid)::text, '-') as x, coalesce(max(version), 0)::int as v from public.${t}`,
      );
      return `${t}:${rows[0].n}:${rows[0].x}:${rows[0].v}`;
    }),
  );
  return parts.join(' ');
}

export type { TestUser };

/** Reads a `GET /sync/v1/stream` response the way the client does, collecting its events. */
export async function openTestStream(url: string, token: string, protocol = '1') {
  const abort = new AbortController();
  const res = await fetch(`${url}/sync/v1/stream`, {
    headers: { authorization: `Bearer ${token}`, 'x-pacta-protocol': protocol },
    signal: abort.signal,
  });
  const events: { event: string; data: string }[] = [];
  let ended = false;
  if (res.ok && res.body) {
    void (async () => {
      const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
      let buffer = '';
      try {
        for (;;) {
          const { value, done } = await reader.read();
          if (done) return;
          buffer += value;
          let end: number;
          while ((end = buffer.indexOf('\n\n')) >= 0) {
            const block = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            const event = /^event: (.*)$/m.exec(block)?.[1] ?? (block.startsWith(':') ? 'comment' : 'message');
            const data = /^data: (.*)$/m.exec(block)?.[1] ?? block;
            events.push({ event, data });
          }
        }
      } catch {
        // aborted
      } finally {
        ended = true;
      }
    })();
  }
  return {
    status: res.status,
    response: res,
    events,
    changes: () =>
      events.filter((e) => e.event === 'change').map((e) => (JSON.parse(e.data) as { collection: string }).collection),
    /** The server ended the response. */
    get ended() {
      return ended;
    },
    close: () => abort.abort(),
  };
}
