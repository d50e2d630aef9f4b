import fs from 'node:fs/promises';
import path from 'node:path';
import pino, { type DestinationStream } from 'pino';
import { buildServer } from './app.ts';
import { loadConfig, type ServerConfig } from './config.ts';
import { createDatabase } from './db/database.ts';
import { DEMO_LOGINS, DEMO_PASSWORD } from './db/demo-logins.ts';
import type { EmbeddedDatabase } from './db/embedded.ts';
import { migrate } from './db/migrate.ts';
import { withLocalStripe } from './payments/local-stripe/start-local-stripe.ts';
import { storeDemoFiles } from './storage/demo-files.ts';
import { createDiskStore } from './storage/object-store.ts';
import { checkDataDir, checkDeploymentSettings, checkPortFree, portProblem, StartupProblem } from './startup-checks.ts';

/** Longer than any request takes (a snapshot stream stops itself after 20 s). */
const DRAIN_DEADLINE_MS = 25_000;

let embedded: EmbeddedDatabase | undefined;
let localStripe: Awaited<ReturnType<typeof withLocalStripe>>['localStripe'];
try {
  await start();
} catch (err) {
  await embedded?.stop().catch(() => undefined);
  await localStripe?.close().catch(() => undefined);
  if (!(err instanceof StartupProblem)) throw err;
  console.error(`\nPacta cannot start: ${err.message}\n`);
  process.exit(1);
}

async function start(): Promise<void> {
  let config: ServerConfig;
  try {
    config = loadConfig();
  } catch (err) {
    throw new StartupProblem((err as Error).message);
  }
  // Everything the person starting Pacta can fix is checked before anything starts.
  checkDeploymentSettings(config);
  await checkPortFree({ port: config.port, host: config.host, what: 'the Pacta server', setting: 'PORT' });
  if (config.metrics) {
    await checkPortFree({ ...config.metrics, what: 'the metrics endpoint', setting: 'METRICS_PORT' });
  }
  if (!config.databaseUrl) {
    await checkDataDir(config.dataDir);
    await checkPortFree({
      port: config.embeddedPgPort,
      host: '127.0.0.1',
      what: 'the embedded Postgres',
      setting: 'EMBEDDED_PG_PORT',
    });
  }
  const logStream = await openLog(config);
  // Development without STRIPE_SECRET_KEY: a local stand-in speaking Stripe's API serves checkout,
  // payouts and webhooks.
  ({ config, localStripe } = await withLocalStripe(config));

  let databaseUrl = config.databaseUrl;
  if (!databaseUrl) {
    console.log(`Starting the embedded Postgres (data in ${config.dataDir}/pg)…`);
    const pgLog: string[] = [];
    try {
      const { startEmbeddedPostgres } = await importEmbeddedPostgres();
      embedded = await startEmbeddedPostgres({
        dataDir: config.dataDir,
        port: config.embeddedPgPort,
        onLog: (line) => pgLog.push(line),
      });
    } catch (err) {
      const lastLines = pgLog.filter(Boolean).slice(-8).join('\n  ');
      throw new StartupProblem(
        `the embedded Postgres did not start (data in ${config.dataDir}/pg${err instanceof Error ? `: ${err.message}` : ''}).\n` +
          (lastLines ? `Its last words:\n  ${lastLines}\n` : '') +
          'If another Postgres uses that folder or port, stop it, or set DATA_DIR or EMBEDDED_PG_PORT.',
      );
    }
    databaseUrl = embedded.url;
  }
  // Migrations hold a session advisory lock (one instance migrates, the others wait): never through a pooler.
  const report = await migrate(config.databaseDirectUrl ?? databaseUrl, {
    // A hosted Supabase project already has the auth schema and roles.
    localBootstrap: config.auth.mode === 'local',
    // The demo data carries demo logins whose password is printed below: a developer's machine only.
    seed: config.mode === 'development',
    log: (line) => console.log(`  applied ${line}`),
  });
  const db = createDatabase(databaseUrl, { directUrl: config.databaseDirectUrl });
  // The demo's pictures go with the demo data, into Pacta's own file store (a hosted project has its own).
  if (report.seeded && config.storage.mode === 'disk') {
    await storeDemoFiles(db, await createDiskStore(config.storage.dir), config.storage.quotaBytesPerUser);
  }
  const app = await buildServer(config, db, { logStream });
  try {
    await app.listen({ port: config.port, host: config.host });
  } catch (err) {
    // Taken between the check and now (another process was quicker).
    throw portProblem(err as NodeJS.ErrnoException, {
      port: config.port,
      host: config.host,
      what: 'the Pacta server',
      setting: 'PORT',
    });
  }

  console.log(`\nPacta is running at ${config.publicUrl} (Node ${process.version})`);
  const metricsUrl = app.pactaMetricsUrl();
  if (metricsUrl) console.log(`Metrics (Prometheus): ${metricsUrl}`);
  if (localStripe)
    console.log(`Local Stripe (no STRIPE_SECRET_KEY): ${localStripe.url} — test card 4242 4242 4242 4242`);
  if (config.payments === 'off') console.log('Payments are off (PAYMENTS=off): the money routes answer 503.');
  console.log(report.seeded ? 'Demo data seeded (first start).' : 'Reusing the existing data.');
  if (config.mode === 'development') {
    console.log(`Demo logins (password "${DEMO_PASSWORD}"):`);
    for (const login of DEMO_LOGINS) console.log(`  ${login.role.padEnd(8)} ${login.email}`);
    if (config.auth.mode === 'local' && !config.smtp)
      console.log(`Dev mailbox: ${config.publicUrl}/auth/v1/dev/mailbox`);
  }
  if (config.logFile && config.logFile !== '-') {
    console.log(`Server log (LOG_LEVEL=${config.logLevel}): ${config.logFile} — warnings and errors show here too.`);
  }

  let stopping = false;
  /**
   * Drains, so an instance can leave while others keep serving: no new connection is accepted,
   * requests under way finish (a push answered is a push written), and open change streams are told
   * to reconnect (to another instance, behind the load balancer) before they close. Whatever is still
   * running after DRAIN_DEADLINE_MS is cut: the process must end for the platform to replace it.
   */
  async function shutdown(signal: string): Promise<void> {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'shutting down');
    setTimeout(() => {
      app.log.warn('drain deadline passed; stopping with requests still open');
      process.exit(1);
    }, DRAIN_DEADLINE_MS).unref();
    // A connection whose request finishes during the drain would otherwise stay open as keep-alive
    // (72 s with Fastify's default) and hold the close: each is closed as soon as it is idle.
    setInterval(() => app.server.closeIdleConnections(), 50).unref();
    await app.close();
    await localStripe?.close();
    await db.close();
    await embedded?.stop();
    process.exit(0);
  }
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
}

/**
 * The embedded Postgres, loaded only when it runs: the package ends the process as soon as SIGINT or
 * SIGTERM arrives (its exit hook, registered when it loads), which would cut the requests a leaving
 * instance is still answering. Its hook is taken off those signals; the shutdown below drains, then
 * stops the embedded Postgres itself.
 */
async function importEmbeddedPostgres(): Promise<typeof import('./db/embedded.ts')> {
  const signals = ['SIGINT', 'SIGTERM'] as const;
  const before = new Map(signals.map((signal) => [signal, new Set(process.listeners(signal))]));
  const loaded = await import('./db/embedded.ts');
  for (const signal of signals) {
    for (const listener of process.listeners(signal)) {
      if (!before.get(signal)!.has(listener)) process.removeListener(signal, listener);
    }
  }
  return loaded;
}

/**
 * The log file gets every line at LOG_LEVEL; the console only warnings and errors, so the banner
 * (URL, demo logins, mailbox) is not pushed away by two JSON lines per request.
 */
async function openLog(config: ServerConfig): Promise<DestinationStream | undefined> {
  if (!config.logFile || config.logFile === '-' || config.logLevel === 'silent') return undefined;
  try {
    await fs.mkdir(path.dirname(config.logFile), { recursive: true });
    await fs.appendFile(config.logFile, '');
  } catch (err) {
    throw new StartupProblem(
      `the log file ${config.logFile} cannot be written (${(err as NodeJS.ErrnoException).code ?? String(err)}).\n` +
        'Set LOG_FILE to a writable path, or LOG_FILE=- to log to the console.',
    );
  }
  const file = pino.destination({ dest: config.logFile, append: true, sync: false });
  return pino.multistream([
    { level: config.logLevel, stream: file },
    { level: 'warn', stream: process.stderr },
  ]);
}
