/**
 * The swipe half of `npm run bench:reco`: the longest main-thread task while a creator swipes through
 * 50 cards of /swipe in Chromium. Everything is the real product: the app built by Vite (vite.config.ts,
 * into a temporary folder), the sync server on a throw-away embedded Postgres with the real
 * migrations, accounts made through the public sign-up API, sign-in through the sign-in screen, and
 * the keyboard (← skip, → apply) on the live deck. Long tasks come from a PerformanceObserver
 * installed before the app loads and checked against a deliberate 80 ms task.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { build } from 'vite';
import { buildServer } from '../../sync-server/app.ts';
import { loadConfig } from '../../sync-server/config.ts';
import { createDatabase } from '../../sync-server/db/database.ts';
import { startEmbeddedPostgres } from '../../sync-server/db/embedded.ts';
import { migrate } from '../../sync-server/db/migrate.ts';
import { freePort } from '../../tests/support/free-port.ts';
import { NICHES } from '../../src/domain/niches.ts';

const repoRoot = path.resolve(fileURLToPath(new URL('../..', import.meta.url)));
const CARD_TITLE = 'main article.swipe-card h2';

export interface SwipeSessionFigures {
  cards: number;
  /** With `profile`: the main thread's heaviest functions during the session (self time). */
  hotspots?: string[];
  observerWorks: boolean;
  longTasks: number[];
  /** Key press to the next card's title, as seen by the driver (includes the DevTools round trip). */
  swipeMs: number[];
}

declare global {
  interface Window {
    __benchLongTasks?: number[];
  }
}

async function signUp(origin: string, role: 'creator' | 'brand', email: string, password: string): Promise<void> {
  const response = await fetch(`${origin}/auth/v1/signup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', apikey: 'pacta-local-anon-key' },
    body: JSON.stringify({
      email,
      password,
      data: {
        full_name: `Bench ${role}`,
        role,
        social_links:
          role === 'brand'
            ? { linkedin: 'https://linkedin.com/company/bench' }
            : { instagram: 'https://instagram.com/bench' },
      },
    }),
  });
  if (!response.ok) throw new Error(`sign-up failed: ${response.status} ${await response.text()}`);
}

interface CpuProfile {
  nodes: Array<{
    id: number;
    callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  }>;
  samples: number[];
  timeDeltas: number[];
}

/** Self time per function, heaviest first: where the main thread spent the session. */
function hotspots(profile: CpuProfile, top: number): string[] {
  const byNode = new Map(profile.nodes.map((node) => [node.id, node.callFrame]));
  const self = new Map<string, number>();
  let total = 0;
  profile.samples.forEach((id, i) => {
    const frame = byNode.get(id)!;
    const delta = profile.timeDeltas[i] ?? 0;
    total += delta;
    const key = `${frame.functionName || '(anonymous)'} ${frame.url.split('/').pop() ?? ''}:${frame.lineNumber + 1}`;
    self.set(key, (self.get(key) ?? 0) + delta);
  });
  return [...self]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([key, micros]) => `${((micros / total) * 100).toFixed(1)}% ${(micros / 1000).toFixed(0)} ms ${key}`);
}

/**
 * `profile: true` builds the app unminified and records a CPU profile of the main thread during the
 * session (diagnosis: which code makes the long tasks).
 */
export async function measureSwipeSession(opts: {
  cards: number;
  profile?: boolean;
  log: (line: string) => void;
}): Promise<SwipeSessionFigures> {
  const work = await fs.mkdtemp(path.join(os.tmpdir(), 'pacta-bench-swipe-'));
  const dist = path.join(work, 'dist');
  const cleanups: Array<() => Promise<unknown>> = [() => fs.rm(work, { recursive: true, force: true })];
  try {
    opts.log('  building the app (vite build)…');
    await build({
      root: repoRoot,
      logLevel: 'error',
      build: { outDir: dist, emptyOutDir: true, ...(opts.profile ? { minify: false } : {}) },
    });

    // Its own temp folder: embedded.ts opens it up for the postgres user, which `work` (0700) is not.
    const pgDir = await fs.mkdtemp(path.join(os.tmpdir(), 'pacta-bench-swipe-pg-'));
    cleanups.unshift(() => fs.rm(pgDir, { recursive: true, force: true }));
    const embedded = await startEmbeddedPostgres({ dataDir: pgDir, port: await freePort() });
    cleanups.unshift(() => embedded.stop());
    await migrate(embedded.url, { localBootstrap: true, seed: false });
    const db = createDatabase(embedded.url);
    cleanups.unshift(() => db.close());
    const port = await freePort();
    const { SUPABASE_URL: _url, SUPABASE_ANON_KEY: _key, ...env } = process.env;
    const config = {
      ...loadConfig({
        ...env,
        PORT: String(port),
        HOST: '127.0.0.1',
        DATABASE_URL: embedded.url,
        EMAIL_CONFIRMATION: 'off',
        LOG_LEVEL: 'warn',
      }),
      mode: 'development' as const,
      staticDir: dist,
    };
    const app = await buildServer(config, db);
    cleanups.unshift(() => app.close());
    await app.listen({ port, host: '127.0.0.1' });
    const origin = `http://127.0.0.1:${port}`;

    const run = Date.now().toString(36);
    const password = 'correct-horse-battery';
    const brandEmail = `bench-brand-${run}@example.test`;
    const creatorEmail = `bench-creator-${run}@example.test`;
    await signUp(origin, 'brand', brandEmail, password);
    await signUp(origin, 'creator', creatorEmail, password);
    // More open deals than the session swipes (so the deck never runs dry), published as the server.
    const dealCount = opts.cards + 10;
    await db.asService(async (tx) => {
      const { rows } = await tx.query<{ id: string }>('select id from auth.users where email = $1', [brandEmail]);
      const brandId = rows[0]!.id;
      await tx.query(
        `insert into public.deals (id, brand_id, title, description, amount_cents, niches, deliverables, category, created_at)
         select gen_random_uuid(), $1, 'Bench deal #' || lpad(n::text, 3, '0'), 'Show the product in real use.',
                10000 + (n % 9) * 7500, array[($2::text[])[1 + n % 26], ($2::text[])[1 + (n + 13) % 26]], '{Instagram Post}', 'Sponsored Post',
                now() - make_interval(days => n % 12)
         from generate_series(1, $3) as n`,
        [brandId, [...NICHES], dealCount],
      );
    });

    const browser = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu'],
    });
    cleanups.unshift(() => browser.close());
    const page = await browser.newPage();
    await page.addInitScript(() => {
      window.__benchLongTasks = [];
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) window.__benchLongTasks!.push(entry.duration);
      }).observe({ type: 'longtask' });
    });
    await page.goto(`${origin}/auth/signin`);
    await page.getByLabel('Email', { exact: true }).fill(creatorEmail);
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.waitForURL((url) => !url.pathname.startsWith('/auth/signin'), { timeout: 30_000 });
    await page.goto(`${origin}/swipe`);
    await page.locator(CARD_TITLE).waitFor({ timeout: 30_000 });
    await page.getByRole('banner').getByText('Synced', { exact: true }).waitFor({ timeout: 30_000 });
    await page.waitForTimeout(500);

    // The instrument must see a deliberate 80 ms task before its "none" is believed.
    const observerWorks = await page.evaluate(async () => {
      window.__benchLongTasks = [];
      await new Promise<void>((done) =>
        setTimeout(() => {
          const until = performance.now() + 80;
          while (performance.now() < until) {
            // busy on purpose
          }
          done();
        }, 0),
      );
      await new Promise((done) => setTimeout(done, 100));
      const seen = window.__benchLongTasks!.some((duration) => duration >= 80);
      window.__benchLongTasks = [];
      return seen;
    });

    const cdp = opts.profile ? await page.context().newCDPSession(page) : null;
    if (cdp) {
      await cdp.send('Profiler.enable');
      await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
      await cdp.send('Profiler.start');
    }
    opts.log(`  swiping ${opts.cards} cards (← skip, → apply every 5th)…`);
    const swipeMs: number[] = [];
    for (let i = 0; i < opts.cards; i++) {
      const before = await page.locator(CARD_TITLE).textContent();
      const started = performance.now();
      await page.keyboard.press(i % 5 === 4 ? 'ArrowRight' : 'ArrowLeft');
      await page.waitForFunction(({ selector, before }) => document.querySelector(selector)?.textContent !== before, {
        selector: CARD_TITLE,
        before,
      });
      swipeMs.push(performance.now() - started);
    }
    await page.waitForTimeout(300);
    const longTasks = await page.evaluate(() => window.__benchLongTasks ?? []);
    const profile = cdp ? ((await cdp.send('Profiler.stop')) as { profile: CpuProfile }).profile : null;
    return {
      cards: opts.cards,
      observerWorks,
      longTasks,
      swipeMs,
      ...(profile ? { hotspots: hotspots(profile, 25) } : {}),
    };
  } finally {
    for (const cleanup of cleanups) await cleanup().catch(() => undefined);
  }
}
