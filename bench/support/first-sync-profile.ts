/**
 * Where a first sync's time goes in Chromium, and the raw limit it is compared with (the dashboard
 * bench runs both in one run):
 *   - pull requests from the Resource Timing API: count, bytes on the wire and decoded, the time at
 *     least one pull was in flight, and the server's own time from `Server-Timing` (query, JSON, gzip);
 *   - a CPU profile of the tab (Chrome DevTools Protocol), self time split into V8's categories
 *     (garbage collection, idle, program) and by script chunk (db = RxDB + Dexie + replication,
 *     index = React + the app shell, route chunks = screens);
 *   - JSON.parse of the same documents in the same tab;
 *   - the raw limit: the same rows read from Postgres in one query, and one IndexedDB transaction
 *     writing the documents RxDB stored (read back from its own Dexie database) into a fresh database
 *     with the same object stores and indexes.
 */
import pg from 'pg';
import type { Page } from 'playwright-core';
import { serverCollection } from '../../sync-server/sync/collections.ts';

export type CpuProfile = {
  nodes: { id: number; callFrame: { functionName: string; url: string } }[];
  samples: number[];
  timeDeltas: number[];
};

type PullTiming = {
  url: string;
  start: number;
  end: number;
  transfer: number;
  decoded: number;
  server: Record<string, number>;
};

export async function firstSyncProfile(page: Page, profile: CpuProfile, clickedAt: number) {
  const pulls = await page.evaluate(() =>
    (performance.getEntriesByType('resource') as PerformanceResourceTiming[])
      .filter((e) => e.name.includes('/sync/v1/') && (e.name.includes('/pull') || e.name.includes('/snapshot')))
      .map((e) => ({
        url: new URL(e.name).pathname,
        start: e.startTime,
        end: e.responseEnd,
        transfer: e.transferSize,
        decoded: e.decodedBodySize,
        server: Object.fromEntries(e.serverTiming.map((t) => [t.name, t.duration])),
      })),
  );
  // The sign-in request, and the app's own scripts loaded after it (the route and the database code).
  const signIn = await page.evaluate((after) => {
    const entries = (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).filter(
      (e) => e.startTime >= after,
    );
    const token = entries.find((e) => e.name.includes('/auth/v1/token'));
    const scripts = entries.filter((e) => e.initiatorType === 'script' || e.name.endsWith('.js'));
    return {
      answeredAt: token ? token.responseEnd - after : Number.NaN,
      scriptsEndAt: scripts.length ? Math.max(...scripts.map((e) => e.responseEnd)) - after : Number.NaN,
    };
  }, clickedAt);
  const cpu = cpuByCategory(profile);
  return {
    pulls,
    report(firstSyncMs: number, raw: { parseMs: number; documents: number; readMs: number }) {
      const dealPulls = pulls.filter((p) => p.url.includes('/deals/'));
      const sum = (list: PullTiming[], f: (p: PullTiming) => number) => list.reduce((n, p) => n + f(p), 0);
      const server = (key: string) => sum(pulls, (p) => p.server[key] ?? 0);
      const lines = [
        `  where the first sync's time went (${pulls.length} pull requests, ${dealPulls.length} of them deals):`,
        `    pulls in flight (union of request intervals): ${inFlight(pulls).toFixed(0)} ms of ${firstSyncMs} ms; ` +
          `${(sum(pulls, (p) => p.transfer) / 1024).toFixed(0)} KB on the wire, ${(sum(pulls, (p) => p.decoded) / 1024).toFixed(0)} KB of JSON`,
        `    timeline from the click: sign-in answered at ${signIn.answeredAt.toFixed(0)} ms, last script loaded at ${signIn.scriptsEndAt.toFixed(0)} ms, first pull sent at ${(Math.min(...pulls.map((p) => p.start)) - clickedAt).toFixed(0)} ms, ` +
          `first deal page sent at ${(Math.min(...dealPulls.map((p) => p.start)) - clickedAt).toFixed(0)} ms, last deal page received at ${(Math.max(...dealPulls.map((p) => p.end)) - clickedAt).toFixed(0)} ms, ` +
          `last pull received at ${(Math.max(...pulls.map((p) => p.end)) - clickedAt).toFixed(0)} ms`,
        `    server (Server-Timing, summed): query ${server('db').toFixed(0)} ms, JSON ${server('json').toFixed(0)} ms, gzip ${server('gzip').toFixed(0)} ms`,
        `    deal pages (sent at, from the click: time in flight): ${dealPulls.map((p) => `${(p.start - clickedAt).toFixed(0)}: ${(p.end - p.start).toFixed(0)} ms (server ${((p.server.db ?? 0) + (p.server.json ?? 0) + (p.server.gzip ?? 0)).toFixed(0)})`).join(', ')}`,
        `    JSON.parse of the ${raw.documents} stored deal documents in this tab: ${raw.parseMs.toFixed(0)} ms; reading them back from IndexedDB: ${raw.readMs.toFixed(0)} ms`,
        `    tab CPU profile, self time: ${cpu.categories.map(([k, v]) => `${k} ${v.toFixed(0)} ms`).join(', ')}`,
        `    top functions: ${cpu.functions.map(([k, v]) => `${k} ${v.toFixed(0)} ms`).join('; ')}`,
      ];
      return lines.join('\n');
    },
  };
}

/** Milliseconds during which at least one pull was in flight. */
function inFlight(pulls: PullTiming[]): number {
  const sorted = [...pulls].sort((a, b) => a.start - b.start);
  let total = 0;
  let [from, to] = [-1, -1];
  for (const p of sorted) {
    if (p.start > to) {
      if (to > from) total += to - from;
      [from, to] = [p.start, p.end];
    } else to = Math.max(to, p.end);
  }
  if (to > from) total += to - from;
  return total;
}

function cpuByCategory(profile: CpuProfile) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n.callFrame]));
  const categories = new Map<string, number>();
  const functions = new Map<string, number>();
  profile.samples.forEach((id, i) => {
    const frame = byId.get(id);
    const ms = (profile.timeDeltas[i] ?? 0) / 1000;
    if (!frame) return;
    const chunk = frame.url
      ? (new URL(frame.url).pathname.split('/').pop() ?? '').replace(/-[\w-]{8}\.js$/, '')
      : frame.functionName || '(native)';
    categories.set(chunk, (categories.get(chunk) ?? 0) + ms);
    if (frame.url) {
      const fn = `${frame.functionName || '(anonymous)'}@${chunk}`;
      functions.set(fn, (functions.get(fn) ?? 0) + ms);
    }
  });
  const top = (m: Map<string, number>, n: number) => [...m.entries()].sort((a, b) => b[1] - a[1]).slice(0, n);
  return { categories: top(categories, 10), functions: top(functions, 8) };
}

/**
 * The rows a first sync brings, as the pull builds them, read in one query (the server's part of the
 * raw limit): a brand's own deals; for a creator (`creator: true`) the deals a free creator sees
 * (open and completed, not Pro-only) and the creator's own applications.
 */
export async function rawPostgresRead(
  databaseUrl: string,
  email: string,
  { creator = false } = {},
): Promise<{ rows: number; ms: number }> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const deals = serverCollection('deals')!;
    const applications = serverCollection('applications')!;
    const user = '(select id from auth.users where email = $1)';
    const sql = creator
      ? `select ${deals.documentSql} as doc from ${deals.relation} t
           where t.status in ('open', 'completed') and not t.pro_only and not t.deleted
         union all
         select ${applications.documentSql} as doc from ${applications.relation} t
           where t.creator_id = ${user} and not t.deleted`
      : `select ${deals.documentSql} as doc from ${deals.relation} t
           where t.brand_id = ${user} and not t.deleted order by t.change_xid, t.id`;
    await client.query(sql, [email]); // warm, as the server's prepared statements are
    const started = performance.now();
    const { rowCount } = await client.query(sql, [email]);
    return { rows: rowCount ?? 0, ms: performance.now() - started };
  } finally {
    await client.end();
  }
}

/**
 * Reads every document RxDB stored in the deals database (its Dexie storage), then writes them in
 * one readwrite transaction into a fresh database with the same object stores and indexes; deletes it.
 */
export async function rawIndexedDbWrite(
  page: Page,
  collection = 'deals',
): Promise<{ documents: number; readMs: number; writeMs: number; parseMs: number }> {
  // tsx keeps function names with a `__name` helper the page does not have (a string is not transformed).
  await page.evaluate('globalThis.__name ??= (fn) => fn');
  return page.evaluate(async (collection) => {
    const request = <T>(r: IDBRequest<T>) =>
      new Promise<T>(
        (resolve, reject) => ((r.onsuccess = () => resolve(r.result)), (r.onerror = () => reject(r.error))),
      );
    const name = (await indexedDB.databases()).map((d) => d.name ?? '').find((n) => n.endsWith(`--${collection}`));
    if (!name) throw new Error(`no ${collection} database in this tab`);
    const source = await request(indexedDB.open(name));
    // The documents' store is the largest one (Dexie also keeps small bookkeeping stores).
    let best = { store: '', count: -1 };
    for (const store of Array.from(source.objectStoreNames)) {
      const count = await request(source.transaction(store).objectStore(store).count());
      if (count > best.count) best = { store, count };
    }
    const readStarted = performance.now();
    const sourceStore = source.transaction(best.store).objectStore(best.store);
    const documents = (await request(sourceStore.getAll())) as unknown[];
    const readMs = performance.now() - readStarted;
    const shape = {
      keyPath: sourceStore.keyPath,
      autoIncrement: sourceStore.autoIncrement,
      indexes: Array.from(sourceStore.indexNames).map((n) => {
        const index = sourceStore.index(n);
        return { name: n, keyPath: index.keyPath, unique: index.unique, multiEntry: index.multiEntry };
      }),
    };
    source.close();
    const json = JSON.stringify(documents);
    const parseStarted = performance.now();
    JSON.parse(json);
    const parseMs = performance.now() - parseStarted;

    const targetName = `raw-limit-${Date.now()}`;
    const open = indexedDB.open(targetName, 1);
    open.onupgradeneeded = () => {
      const store = open.result.createObjectStore(best.store, {
        keyPath: shape.keyPath,
        autoIncrement: shape.autoIncrement,
      });
      for (const i of shape.indexes)
        store.createIndex(i.name, i.keyPath, { unique: i.unique, multiEntry: i.multiEntry });
    };
    const target = await request(open);
    const writeStarted = performance.now();
    const tx = target.transaction(best.store, 'readwrite', { durability: 'default' });
    const store = tx.objectStore(best.store);
    for (const doc of documents) store.put(doc);
    await new Promise<void>(
      (resolve, reject) => ((tx.oncomplete = () => resolve()), (tx.onerror = () => reject(tx.error))),
    );
    const writeMs = performance.now() - writeStarted;
    target.close();
    await request(indexedDB.deleteDatabase(targetName));
    return { documents: documents.length, readMs, writeMs, parseMs };
  }, collection);
}
