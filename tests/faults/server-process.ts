/**
 * The real sync server as its own process for fault tests (it can be killed outright): the same
 * buildServer as `npm start`, on a database the test already migrated (no migration step, so a
 * restart is quick). Env: DATABASE_URL, PORT.
 */
import { buildServer } from '../../sync-server/app.ts';
import { loadConfig } from '../../sync-server/config.ts';
import { createDatabase } from '../../sync-server/db/database.ts';

const config = loadConfig({ ...process.env, HOST: '127.0.0.1', LOG_LEVEL: 'silent', EMAIL_CONFIRMATION: 'off' });
const app = await buildServer({ ...config, staticDir: undefined }, createDatabase(config.databaseUrl!));
await app.listen({ port: config.port, host: config.host });
