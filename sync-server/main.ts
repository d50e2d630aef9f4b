import { buildServer } from './app.ts';
import { loadConfig } from './config.ts';
import { createDatabase } from './db/database.ts';
import { DEMO_LOGINS, DEMO_PASSWORD } from './db/demo-logins.ts';
import { startEmbeddedPostgres, type EmbeddedDatabase } from './db/embedded.ts';
import { migrate } from './db/migrate.ts';

const config = loadConfig();
let embedded: EmbeddedDatabase | undefined;
let databaseUrl = config.databaseUrl;
if (!databaseUrl) {
  console.log(`Starting the embedded Postgres (data in ${config.dataDir}/pg)…`);
  embedded = await startEmbeddedPostgres({ dataDir: config.dataDir, port: config.embeddedPgPort });
  databaseUrl = embedded.url;
}
const report = await migrate(databaseUrl, {
  // A hosted Supabase project already has the auth schema and roles.
  localBootstrap: config.auth.mode === 'local',
  seed: Boolean(embedded) || process.env.SEED === '1',
  log: (line) => console.log(`  applied ${line}`),
});
const db = createDatabase(databaseUrl);
const app = await buildServer(config, db);
await app.listen({ port: config.port, host: config.host });

console.log(`\nPacta is running at ${config.publicUrl} (Node ${process.version})`);
console.log(report.seeded ? 'Demo data seeded (first start).' : 'Reusing the existing data.');
if (embedded) {
  console.log(`Demo logins (password "${DEMO_PASSWORD}"):`);
  for (const login of DEMO_LOGINS) console.log(`  ${login.role.padEnd(8)} ${login.email}`);
  if (config.auth.mode === 'local') console.log(`Dev mailbox: ${config.publicUrl}/auth/v1/dev/mailbox`);
}

let stopping = false;
async function shutdown(signal: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  app.log.info({ signal }, 'shutting down');
  await app.close();
  await db.close();
  await embedded?.stop();
  process.exit(0);
}
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));
