/**
 * npm run bench:web (second part) — time from navigation to a usable dashboard with 10,000 deals in the
 * local database, online and offline, in Chromium against the built app (dist/) and the real server.
 *
 * A brand with 10,000 deals (written server-side) signs in; the first sync brings every deal into the
 * browser's RxDB database. Then the dashboard is reloaded several times, online and then with the
 * browser offline (service worker + local data only). "Usable" = the welcome heading and the first deal
 * card are on screen, measured in the page from the navigation start (performance.now()).
 *
 * The first sync is profiled in the same run: the pull requests' network time and the server's own
 * time (Server-Timing: query, JSON, compression), a CPU profile of the tab split by script chunk and
 * V8 category, and the raw limit: the same rows read from Postgres in one query, plus one bulk write
 * of the documents RxDB stored (read back from its own Dexie database) into a fresh IndexedDB database
 * with the same object stores, in one transaction, in the same browser.
 * The machine's load average is printed with the figures: absolute times depend on it, ratios less.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import pg from 'pg';
import { e2eServerInfoFile } from '../tests/e2e/support/e2e-server-info.ts';
import { setDeviceOffline } from '../tests/e2e/support/offline.ts';
import { createConfirmedBrand } from './support/confirmed-brand.ts';
import { openDevice } from './support/device-browser.ts';
import { startBenchServer } from './support/e2e-server.ts';
import { firstSyncProfile, rawIndexedDbWrite, rawPostgresRead, type CpuProfile } from './support/first-sync-profile.ts';
import { liveReport, liveSample, type LiveSample } from './support/live-latency.ts';
import { bootMarks, marksFrom, publishDeal } from './support/local-data-screens.ts';

const PORT = Number(process.env.BENCH_PORT ?? 4297);
const ORIGIN = `http://127.0.0.1:${PORT}`;
const DEALS = Number(process.env.BENCH_DEALS ?? 10_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const LIVE_RUNS = Number(process.env.BENCH_LIVE_RUNS ?? 20);

const server = await startBenchServer(PORT);

function confirmedBrand(): Promise<{ email: string; password: string }> {
  return createConfirmedBrand(ORIGIN, 'bench-dash');
}

const databaseUrl = () =>
  (JSON.parse(readFileSync(e2eServerInfoFile(PORT), 'utf8')) as { databaseUrl: string }).databaseUrl;

/** Runs SQL on the e2e server's database as the server may (no user claims). */
async function onServerDatabase(sql: string, values: unknown[]): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl() });
  await client.connect();
  try {
    await client.query(sql, values);
  } finally {
    await client.end();
  }
}

/** The brand's deals, in one statement. */
function seedDeals(email: string): Promise<void> {
  return onServerDatabase(
    `insert into public.deals (id, brand_id, title, description, amount_cents, niches)
     select gen_random_uuid(), u.id, 'Bench deal ' || n, 'A sponsorship brief used by the dashboard benchmark.', 10000 + n, '{Travel}'
       from auth.users u, generate_series(1, $2) n where u.email = $1`,
    [email, DEALS],
  );
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(' / ');

const device = await openDevice();
try {
  const account = await confirmedBrand();
  await seedDeals(account.email);
  const { context } = device;
  await context.addInitScript(() => performance.setResourceTimingBufferSize(5_000));
  // Records when the dashboard becomes usable, from the navigation start of each page load.
  await context.addInitScript(() => {
    const w = window as unknown as { __usableAt?: number };
    const observer = new MutationObserver(() => {
      const heading = document.querySelector('h1')?.textContent ?? '';
      if (heading.startsWith('Welcome back') && document.querySelector('.item-card')) {
        w.__usableAt = performance.now();
        observer.disconnect();
      }
    });
    observer.observe(document, { childList: true, subtree: true, characterData: true });
  });
  const page = context.pages()[0] ?? (await context.newPage());
  await page.goto(`${ORIGIN}/auth/signin`);
  await page.getByLabel('Email', { exact: true }).fill(account.email);
  await page.getByLabel('Password', { exact: true }).fill(account.password);
  const cdp = await context.newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 500 });
  await cdp.send('Profiler.start');
  const loadAtSync = load();
  const syncStart = Date.now();
  const clickedAt = await page.evaluate(() => performance.now());
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.waitForURL(/\/dashboard$/);
  await page
    .getByTestId('sync-status-label')
    .filter({ hasText: /^Synced$/ })
    .waitFor({ timeout: 300_000 });
  const firstSyncMs = Date.now() - syncStart;
  const firstCardMs =
    (await page.evaluate(() => (window as unknown as { __usableAt?: number }).__usableAt ?? Number.NaN)) - clickedAt;
  const { profile } = (await cdp.send('Profiler.stop')) as { profile: CpuProfile };
  if (process.env.BENCH_PROFILE_OUT) writeFileSync(process.env.BENCH_PROFILE_OUT, JSON.stringify(profile));
  const syncProfile = await firstSyncProfile(page, profile, clickedAt);
  // The app's boot marks of this page load (src/lib/boot-marks.ts), from the click on "Sign in".
  const signInMarks = marksFrom(await bootMarks(page), clickedAt);
  // The raw limit, in the same run: the same rows from Postgres, the same documents into IndexedDB.
  const rawRead = await rawPostgresRead(databaseUrl(), account.email);
  const rawWrite = await rawIndexedDbWrite(page);
  const rawLimitMs = rawRead.ms + rawWrite.writeMs;
  const localDeals = await page.evaluate(async () => {
    const names = (await indexedDB.databases()).map((d) => d.name ?? '').filter((n) => n.endsWith('--deals'));
    return names.length;
  });
  await page.evaluate(() => navigator.serviceWorker.ready);

  // A deal committed on the server while the dashboard is open, until it is on screen (no reload):
  // the first right after the 10,000-deal first sync, then a few more once the app is idle.
  const liveDeal = (title: string) =>
    liveSample(page, 'deals', title, () => publishDeal(databaseUrl(), account.email, title));
  const firstLive = await liveDeal('Live deal right after the first sync');
  const live: LiveSample[] = [];
  for (let i = 0; i < LIVE_RUNS; i++) live.push(await liveDeal(`Live deal ${i + 1}`));

  async function measure(): Promise<number> {
    await page.reload();
    await page.waitForFunction(() => (window as unknown as { __usableAt?: number }).__usableAt !== undefined, null, {
      timeout: 60_000,
    });
    return page.evaluate(() => (window as unknown as { __usableAt: number }).__usableAt);
  }
  await measure(); // warm: the service worker now controls the page
  const online: number[] = [];
  for (let i = 0; i < RUNS; i++) online.push(await measure());
  await setDeviceOffline(context, ORIGIN, true);
  const offline: number[] = [];
  for (let i = 0; i < RUNS; i++) offline.push(await measure());
  await setDeviceOffline(context, ORIGIN, false);
  const shown = await page.locator('.item-card').count();

  // The JS heap of the signed-in tab across five in-app navigations (dashboard → deals → dashboard …),
  // each measured after a full garbage collection.
  const heap: number[] = [];
  for (let i = 0; i < 5; i++) {
    for (const path of ['/deals', '/dashboard']) {
      await page.evaluate((to) => {
        history.pushState({}, '', to);
        dispatchEvent(new PopStateEvent('popstate'));
      }, path);
      await page.waitForFunction((to) => location.pathname === to && document.querySelector('h1') !== null, path);
    }
    await page.locator('.item-card').first().waitFor();
    await cdp.send('HeapProfiler.collectGarbage');
    const { usedSize } = (await cdp.send('Runtime.getHeapUsage')) as { usedSize: number };
    heap.push(usedSize / 1024 / 1024);
  }

  console.log(
    `\nDashboard with ${DEALS} deals in the local database (brand view, ${shown} cards shown, deals store present: ${localDeals > 0}):`,
  );
  console.log(`  load average (1/5/15 min) at the first sync: ${loadAtSync}; at the end: ${load()} (2 cores)`);
  console.log(
    `  first sign-in until every collection synced: ${firstSyncMs} ms — raw limit in this run ${rawLimitMs.toFixed(0)} ms`,
  );
  console.log(
    `    (Postgres read of the same ${rawRead.rows} rows ${rawRead.ms.toFixed(0)} ms + one IndexedDB transaction writing the ${rawWrite.documents} stored documents ${rawWrite.writeMs.toFixed(0)} ms)`,
  );
  console.log(`    ratio ${(firstSyncMs / rawLimitMs).toFixed(1)}× the raw limit (goal ≤ 2.5× for a brand)`);
  console.log(
    `  first deal card on the dashboard after the click on "Sign in": ${firstCardMs.toFixed(0)} ms (goal ≤ 1,000 ms)`,
  );
  console.log(`    the app's marks, ms from the click: ${signInMarks}`);
  console.log(syncProfile.report(firstSyncMs, rawWrite));
  console.log(liveReport(firstLive, live));
  console.log(
    `  navigation → usable dashboard, online:  median ${median(online).toFixed(0)} ms (runs: ${online.map((v) => v.toFixed(0)).join(', ')})`,
  );
  console.log(
    `  navigation → usable dashboard, offline: median ${median(offline).toFixed(0)} ms (runs: ${offline.map((v) => v.toFixed(0)).join(', ')}) — goal ≤ 1,000 ms each`,
  );
  console.log(
    `  JS heap of the tab after each of five navigations (after GC): ${heap.map((h) => h.toFixed(1)).join(', ')} MB`,
  );
} finally {
  await device.close();
  server.stop();
}
