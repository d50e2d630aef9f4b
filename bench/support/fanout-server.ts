/**
 * One sync server instance for `npm run bench:fanout`, in its own process: DATABASE_URL, PORT and
 * PUBLIC_URL from the environment. Every statement it sends to Postgres is counted where it is sent
 * (`pg.Client#query`, pool and LISTEN connection alike), so the bench reads the server's own queries
 * per notice. Tells the parent `{ ready: true }`; answers `'usage'` with its CPU time and statement
 * count so far, and closes on `'stop'`.
 */
import fs from 'node:fs/promises';
import { Session } from 'node:inspector/promises';
import path from 'node:path';
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
  ...loadConfig({
    ...process.env,
    LOG_LEVEL: 'silent',
    EMAIL_CONFIRMATION: 'off',
    HOST: '127.0.0.1',
    // The bench's devices share 60 accounts (up to 84 devices each at 5,000): the per-account cap on
    // open streams, which stops one token from holding many, would refuse most of them.
    SYNC_STREAMS_PER_USER: '1000',
  }),
  staticDir: undefined,
};
const app = await buildServer(config, db);
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
process.send!({ ready: true });
// BENCH_PROFILE=<dir>: `{ profile: name }` starts a CPU profile, `{ profileEnd: name }` writes it there.
const inspector = new Session();
inspector.connect();
process.on('message', (message: unknown) => {
  if (typeof message === 'object' && message !== null && 'profile' in message) {
    void inspector.post('Profiler.enable').then(() => inspector.post('Profiler.start'));
  } else if (typeof message === 'object' && message !== null && 'profileEnd' in message) {
    void inspector
      .post('Profiler.stop')
      .then(({ profile }) =>
        fs.writeFile(
          path.join(process.env.BENCH_PROFILE!, `${String(message.profileEnd)}.cpuprofile`),
          JSON.stringify(profile),
        ),
      );
  } else if (message === 'usage') {
    const { user, system } = process.cpuUsage();
    process.send!({ cpuMs: (user + system) / 1000, statements });
  } else if (message === 'stop') {
    void app
      .close()
      .then(() => db.close())
      .finally(() => process.exit(0));
  }
});
