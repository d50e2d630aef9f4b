/**
 * npm run bench:search (third part) — a creator's first sign-in when the catalogue no longer fits on a
 * device: 100,000 open deals in Postgres (BENCH_WORKING_SET_DEALS), the device's working set limited
 * to 20,000 (the default, DEVICE_DEALS_LIMIT), in Chromium against the built app (dist/) and the real
 * server (tests/e2e/support/start-e2e-server.ts: embedded Postgres, local auth).
 *
 * Prints how many deals the device holds (at most the limit), the first sync from the click on
 * "Sign in" until every collection is synced, and the raw limit of that working set measured in the
 * same run: the same deals read from Postgres in one query, plus one IndexedDB transaction writing the
 * documents RxDB stored into a fresh database with the same stores and indexes. Also what the origin
 * stores (navigator.storage.estimate) and the records of each IndexedDB database.
 */
import { readFileSync } from 'node:fs';
import pg from 'pg';
import { e2eServerInfoFile } from '../tests/e2e/support/e2e-server-info.ts';
import { serverCollection } from '../sync-server/sync/collections.ts';
import { DEFAULT_DEVICE_DEALS } from '../src/domain/collections/protocol.ts';
import { openDevice } from './support/device-browser.ts';
import { startBenchServer } from './support/e2e-server.ts';
import { rawIndexedDbWrite } from './support/first-sync-profile.ts';
import { confirmedAccount, load, storedRecords } from './support/local-data-screens.ts';

const PORT = Number(process.env.BENCH_PORT ?? 4301);
const ORIGIN = `http://127.0.0.1:${PORT}`;
const DEALS = Number(process.env.BENCH_WORKING_SET_DEALS ?? 100_000);
const BATCH = 10_000;
const NICHES = ['Fitness', 'Travel', 'Food', 'Gaming', 'Beauty', 'Tech'];

const server = await startBenchServer(PORT);
const databaseUrl = () =>
  (JSON.parse(readFileSync(e2eServerInfoFile(PORT), 'utf8')) as { databaseUrl: string }).databaseUrl;

async function onServerDatabase<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: databaseUrl() });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** The brand's open deals, spread over six niches (the creator has two of them), in batches. */
async function seedCatalogue(brandEmail: string): Promise<number> {
  const started = Date.now();
  for (let from = 1; from <= DEALS; from += BATCH) {
    await onServerDatabase((client) =>
      client.query(
        `insert into public.deals (id, brand_id, title, description, amount_cents, niches, category, deliverables)
         select gen_random_uuid(), u.id, 'Catalogue deal ' || n, 'A sponsorship brief of the working-set benchmark.',
                100 * (50 + (n * 37) % 5000), array[($4::text[])[1 + n % cardinality($4::text[])]], 'Sponsored Post', '{Instagram Post}'
           from auth.users u, generate_series($2::int, $3::int) n where u.email = $1`,
        [brandEmail, from, Math.min(from + BATCH - 1, DEALS), NICHES],
      ),
    );
    process.stdout.write(`  seeded ${Math.min(from + BATCH - 1, DEALS)} deals (${Date.now() - started} ms)\n`);
  }
  return Date.now() - started;
}

/** The deals the device holds, read from Postgres in one query (the raw limit's read). */
async function rawRead(ids: string[]): Promise<{ rows: number; ms: number }> {
  const deals = serverCollection('deals')!;
  const sql = `select ${deals.documentSql} as doc from ${deals.relation} t where t.id = any($1::uuid[])`;
  return onServerDatabase(async (client) => {
    await client.query(sql, [ids]); // warm, as the server's prepared statements are
    const started = performance.now();
    const { rowCount } = await client.query(sql, [ids]);
    return { rows: rowCount ?? 0, ms: performance.now() - started };
  });
}

const device = await openDevice();
try {
  const brand = await confirmedAccount(ORIGIN, 'brand', 'ws-brand');
  const creator = await confirmedAccount(ORIGIN, 'creator', 'ws-creator');
  console.log(`\nSeeding ${DEALS.toLocaleString('en')} open deals (load ${load()}):`);
  const seedMs = await seedCatalogue(brand.email);

  const { context } = device;
  const page = context.pages()[0] ?? (await context.newPage());
  await page.goto(`${ORIGIN}/auth/signin`);
  await page.getByLabel('Email', { exact: true }).fill(creator.email);
  await page.getByLabel('Password', { exact: true }).fill(creator.password);
  const loadAtSync = load();
  const started = Date.now();
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.waitForURL(/\/dashboard$/);
  await page
    .getByTestId('sync-status-label')
    .filter({ hasText: /^Synced$/ })
    .waitFor({ timeout: 900_000 });
  const syncMs = Date.now() - started;
  // tsx keeps function names with a `__name` helper the page does not have.
  await page.evaluate('globalThis.__name ??= (fn) => fn');

  const held = await page.evaluate(async () => {
    const request = <T>(r: IDBRequest<T>) =>
      new Promise<T>(
        (resolve, reject) => ((r.onsuccess = () => resolve(r.result)), (r.onerror = () => reject(r.error))),
      );
    const name = (await indexedDB.databases()).map((d) => d.name ?? '').find((n) => n.endsWith('--deals'));
    if (!name) return [];
    const db = await request(indexedDB.open(name));
    let best = { store: '', count: -1 };
    for (const store of Array.from(db.objectStoreNames)) {
      const count = await request(db.transaction(store).objectStore(store).count());
      if (count > best.count) best = { store, count };
    }
    const docs = (await request(db.transaction(best.store).objectStore(best.store).getAll())) as {
      id?: string;
      _deleted?: boolean | string;
    }[];
    db.close();
    // RxDB's Dexie storage keeps `_deleted` (an index) as '1' or '0'.
    return docs.filter((d) => d.id && d._deleted !== '1' && d._deleted !== true).map((d) => d.id!);
  });
  const storage = await page.evaluate(async () => (await navigator.storage.estimate()).usage ?? 0);
  const records = await storedRecords(page);
  const read = await rawRead(held);
  const write = await rawIndexedDbWrite(page);
  const rawLimitMs = read.ms + write.writeMs;

  console.log(`\nA creator's first sign-in with ${DEALS.toLocaleString('en')} open deals in Postgres:`);
  console.log(`  load average (1/5/15 min) at the sign-in: ${loadAtSync}; at the end: ${load()} (2 cores)`);
  console.log(`  seeding took ${(seedMs / 1000).toFixed(0)} s`);
  console.log(
    `  deals on the device: ${held.length.toLocaleString('en')} (working-set limit ${DEFAULT_DEVICE_DEALS.toLocaleString('en')}: ${held.length <= DEFAULT_DEVICE_DEALS ? 'within' : 'OVER'})`,
  );
  console.log(`  first sign-in until every collection synced: ${syncMs} ms`);
  console.log(
    `  raw limit of that working set in this run: ${rawLimitMs.toFixed(0)} ms (Postgres read of the same ${read.rows} deals ${read.ms.toFixed(0)} ms + one IndexedDB transaction writing the ${write.documents} stored documents ${write.writeMs.toFixed(0)} ms)`,
  );
  console.log(`    ratio ${(syncMs / rawLimitMs).toFixed(1)}× the raw limit (goal ≤ 1.5×)`);
  console.log(`  origin storage (navigator.storage.estimate): ${(storage / 1024 / 1024).toFixed(1)} MB`);
  console.log(`  IndexedDB records: ${records}`);
} finally {
  await device.close();
  server.stop();
}
