/**
 * `npm run schemas:dump`: rewrites `supabase/schemas/*.sql` from a fresh database migrated with every
 * migration (the local bootstrap first, as the tests do). Uses a throw-away embedded Postgres, or a
 * scratch database on `DATABASE_URL`'s server when that is set; either is dropped at the end.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { startEmbeddedPostgres } from '../sync-server/db/embedded.ts';
import { migrate } from '../sync-server/db/migrate.ts';
import { freePort } from '../tests/support/free-port.ts';
import { readSchemaFiles, renderSchemaFile } from './sql-definitions.ts';

const schemasDir = path.resolve(import.meta.dirname, '../supabase/schemas');

async function main(): Promise<void> {
  const server = await startServer();
  const name = `pacta_schemas_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: server.adminUrl });
  await admin.connect();
  try {
    await admin.query(`create database ${name}`);
    const url = new URL(server.adminUrl);
    url.pathname = `/${name}`;
    await migrate(url.toString(), { localBootstrap: true, seed: false });
    const client = new pg.Client({ connectionString: url.toString() });
    await client.connect();
    const files = await readSchemaFiles(client).finally(() => client.end());
    await fs.mkdir(schemasDir, { recursive: true });
    for (const old of await fs.readdir(schemasDir)) {
      if (old.endsWith('.sql') && !files.has(old)) await fs.rm(path.join(schemasDir, old));
    }
    for (const [file, objects] of files) {
      await fs.writeFile(path.join(schemasDir, file), renderSchemaFile(file, objects));
    }
    const count = [...files.values()].reduce((n, list) => n + list.length, 0);
    console.log(`supabase/schemas: ${count} objects in ${files.size} files`);
  } finally {
    await admin.query(`drop database if exists ${name} with (force)`).catch(() => {});
    await admin.end();
    await server.stop();
  }
}

async function startServer(): Promise<{ adminUrl: string; stop: () => Promise<void> }> {
  if (process.env.DATABASE_URL) {
    const url = new URL(process.env.DATABASE_URL);
    url.pathname = '/postgres';
    return { adminUrl: url.toString(), stop: async () => {} };
  }
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'pacta-schemas-pg-'));
  const embedded = await startEmbeddedPostgres({ dataDir, port: await freePort() });
  return {
    adminUrl: embedded.url.replace(/\/pacta$/, '/postgres'),
    stop: async () => {
      await embedded.stop();
      await fs.rm(dataDir, { recursive: true, force: true });
    },
  };
}

await main();
