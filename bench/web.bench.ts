/**
 * npm run bench:web — what the browser downloads, measured in Chromium against the built app (dist/)
 * served by the real server (tests/e2e/support/start-e2e-server.ts: embedded Postgres, local auth).
 *
 * 1. Landing page, signed out: gzip size of every script the page loads (until no new script for 1.5 s).
 *    Goal ≤ 150 KB (no RxDB, no supabase-js up front).
 * 2. Signed-in first route (/dashboard) on a cold cache: same measure. Goal ≤ 350 KB.
 * Sizes are the bytes of each script response compressed with gzip -9 (what a gzip-serving CDN sends),
 * summed; the service worker is blocked so every script really crosses the network once.
 * Time to a usable dashboard with 10,000 deals is reported by the dashboard's own bench once it lands.
 */
import { gzipSync } from 'node:zlib';
import { chromium, type Browser } from 'playwright-core';
import { AUTH_HEADERS, createConfirmedBrand } from './support/confirmed-brand.ts';
import { startBenchServer } from './support/e2e-server.ts';

const PORT = Number(process.env.BENCH_PORT ?? 4299);
const ORIGIN = `http://127.0.0.1:${PORT}`;
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const LANDING_GOAL_KB = 150;
const SIGNED_IN_GOAL_KB = 350;

const server = await startBenchServer(PORT);

type ScriptLoad = { url: string; rawBytes: number; gzipBytes: number };

async function scriptsLoadedBy(browser: Browser, path: string, session?: unknown): Promise<ScriptLoad[]> {
  const context = await browser.newContext({ serviceWorkers: 'block' });
  if (session)
    await context.addInitScript((value) => localStorage.setItem('pacta.auth.session', value), JSON.stringify(session));
  const page = await context.newPage();
  const pending: Promise<ScriptLoad | undefined>[] = [];
  page.on('response', (response) => {
    if (response.request().resourceType() !== 'script') return;
    pending.push(
      response.body().then(
        (body) => ({
          url: new URL(response.url()).pathname,
          rawBytes: body.length,
          gzipBytes: gzipSync(body, { level: 9 }).length,
        }),
        () => undefined,
      ),
    );
  });
  // Not 'networkidle': a signed-in page keeps the sync stream (SSE) open. Wait for the scripts to settle.
  await page.goto(`${ORIGIN}${path}`, { waitUntil: 'load' });
  let seen = -1;
  while (seen !== pending.length) {
    seen = pending.length;
    await page.waitForTimeout(1_500);
  }
  const loads = (await Promise.all(pending)).filter((l): l is ScriptLoad => Boolean(l));
  await context.close();
  return loads;
}

/** A confirmed account signed in through the public auth API; returns the session supabase-js stores. */
async function signedInSession(): Promise<unknown> {
  const { email, password } = await createConfirmedBrand(ORIGIN, 'bench');
  const token = await fetch(`${ORIGIN}/auth/v1/token?grant_type=password`, {
    method: 'POST',
    headers: AUTH_HEADERS,
    body: JSON.stringify({ email, password }),
  });
  if (!token.ok) throw new Error(`sign-in failed: ${token.status} ${await token.text()}`);
  const session = (await token.json()) as { expires_in: number; expires_at?: number };
  return { ...session, expires_at: session.expires_at ?? Math.floor(Date.now() / 1000) + session.expires_in };
}

const kb = (bytes: number) => (bytes / 1024).toFixed(1);
function report(label: string, loads: ScriptLoad[], goalKb: number): void {
  const gzip = loads.reduce((sum, l) => sum + l.gzipBytes, 0);
  const raw = loads.reduce((sum, l) => sum + l.rawBytes, 0);
  console.log(
    `\n${label}: ${kb(gzip)} KB gzip JS (${kb(raw)} KB raw, ${loads.length} scripts) — goal ≤ ${goalKb} KB: ${gzip / 1024 <= goalKb ? 'met' : 'NOT met'}`,
  );
  for (const l of loads.sort((a, b) => b.gzipBytes - a.gzipBytes))
    console.log(`  ${kb(l.gzipBytes).padStart(7)} KB  ${l.url}`);
}

const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu'] });
try {
  report('Landing page (/), signed out', await scriptsLoadedBy(browser, '/'), LANDING_GOAL_KB);
  report(
    'Signed-in first route (/dashboard), cold cache',
    await scriptsLoadedBy(browser, '/dashboard', await signedInSession()),
    SIGNED_IN_GOAL_KB,
  );
} finally {
  await browser.close();
  server.stop();
}
