/**
 * One sync server instance for `npm run bench:stream`, in its own process so its memory is its own:
 * DATABASE_URL, PORT and PUBLIC_URL (the same for every instance: the token issuer) from the
 * environment. Tells the parent `{ ready: true }` over IPC, answers `'memory'` with its memory usage
 * (after a full GC when Node runs with --expose-gc), and closes on `'stop'`.
 */
import { buildServer } from '../../sync-server/app.ts';
import { loadConfig } from '../../sync-server/config.ts';
import { createDatabase } from '../../sync-server/db/database.ts';

const db = createDatabase(process.env.DATABASE_URL!);
const config = {
  ...loadConfig({ ...process.env, LOG_LEVEL: 'silent', EMAIL_CONFIRMATION: 'off', HOST: '127.0.0.1' }),
  mode: 'development' as const,
  staticDir: undefined,
};
const app = await buildServer(config, db);
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
process.send!({ ready: true });
process.on('message', (message) => {
  if (message === 'memory') {
    (globalThis as { gc?: () => void }).gc?.();
    const { rss, heapUsed } = process.memoryUsage();
    process.send!({ rss, heapUsed });
  } else if (message === 'stop') {
    void app
      .close()
      .then(() => db.close())
      .finally(() => process.exit(0));
  }
});
