/**
 * One sync server instance for `npm run bench:fanout`, in its own process: DATABASE_URL, PORT and
 * PUBLIC_URL from the environment. Every statement it sends to Postgres is counted where it is sent
 * (`pg.Client#query`, pool and LISTEN connection alike), so the bench reads the server's own queries
 * per notice. Tells the parent `{ ready: true }`; answers `'usage'` with its CPU time and statement
 * count so far, and closes on `'stop'`.
 */
import pg from 'pg';
import { buildServer } from '../../sync-server/app.ts';
import { loadConfig } from '../../sync-server/config.ts';
import { createDatabase } from '../../sync-server/db/database.ts';

let statements = 0;
const query = pg.Client.prototype.query;
pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
  statements++;
  return (query as (...a: unknown[]) => unknown).apply(this, args);
} as typeof pg.Client.prototype.query;

const db = createDatabase(process.env.DATABASE_URL!);
const config = {
  ...loadConfig({ ...process.env, LOG_LEVEL: 'silent', EMAIL_CONFIRMATION: 'off', HOST: '127.0.0.1' }),
  staticDir: undefined,
};
const app = await buildServer(config, db);
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
process.send!({ ready: true });
process.on('message', (message) => {
  if (message === 'usage') {
    const { user, system } = process.cpuUsage();
    process.send!({ cpuMs: (user + system) / 1000, statements });
  } else if (message === 'stop') {
    void app
      .close()
      .then(() => db.close())
      .finally(() => process.exit(0));
  }
});
