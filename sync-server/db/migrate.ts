import fs from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';

const supabaseDir = path.resolve(import.meta.dirname, '../../supabase');

export type MigrationReport = { bootstrap: string[]; migrations: string[]; seeded: boolean };

/**
 * Brings a database to the current schema.
 * - `localBootstrap`: first creates what hosted Supabase already provides (auth schema, roles), from
 *   `supabase/local/`. Never run against a hosted project.
 * - Applies `supabase/migrations/*.sql` in order, one transaction per file, recording each in
 *   `supabase_migrations.schema_migrations` exactly as the Supabase CLI does, so `supabase db push`
 *   sees the same history.
 * - `seed`: runs `supabase/seed.sql` when this call applied the first migration (a fresh database).
 */
export async function migrate(
  databaseUrl: string,
  opts: { localBootstrap: boolean; seed: boolean; log?: (line: string) => void },
): Promise<MigrationReport> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const report: MigrationReport = { bootstrap: [], migrations: [], seeded: false };
  try {
    // Several server instances may start together: one migrates, the others wait.
    await client.query(`select pg_advisory_lock(hashtext('pacta.migrate'))`);
    await client.query(`create schema if not exists supabase_migrations`);
    await client.query(`create table if not exists supabase_migrations.schema_migrations (
      version text primary key, statements text[], name text)`);
    if (opts.localBootstrap) {
      await client.query(`create table if not exists supabase_migrations.local_bootstrap (
        name text primary key, applied_at timestamptz not null default now())`);
      for (const file of await sqlFiles(path.join(supabaseDir, 'local'))) {
        const done = await client.query('select 1 from supabase_migrations.local_bootstrap where name = $1', [file]);
        if (done.rowCount) continue;
        await runInTransaction(client, await read('local', file), async () => {
          await client.query('insert into supabase_migrations.local_bootstrap (name) values ($1)', [file]);
        });
        report.bootstrap.push(file);
        opts.log?.(`bootstrap ${file}`);
      }
    }
    const applied = new Set(
      (await client.query<{ version: string }>('select version from supabase_migrations.schema_migrations')).rows.map(
        (r) => r.version,
      ),
    );
    const fresh = applied.size === 0;
    for (const file of await sqlFiles(path.join(supabaseDir, 'migrations'))) {
      const match = /^(\d{14})_(.+)\.sql$/.exec(file);
      if (!match) throw new Error(`Migration file name must be <YYYYMMDDHHmmss>_<name>.sql: ${file}`);
      const [, version, name] = match;
      if (applied.has(version!)) continue;
      const sql = await read('migrations', file);
      await runInTransaction(client, sql, async () => {
        await client.query(
          'insert into supabase_migrations.schema_migrations (version, statements, name) values ($1, $2, $3)',
          [version, [sql], name],
        );
      });
      report.migrations.push(file);
      opts.log?.(`migration ${file}`);
    }
    if (opts.seed && fresh) {
      await runInTransaction(client, await read('', 'seed.sql'), async () => {});
      report.seeded = true;
      opts.log?.('seed.sql');
    }
    return report;
  } finally {
    await client.query(`select pg_advisory_unlock(hashtext('pacta.migrate'))`).catch(() => {});
    await client.end();
  }
}

async function sqlFiles(dir: string): Promise<string[]> {
  const names = await fs.readdir(dir).catch(() => [] as string[]);
  return names.filter((n) => n.endsWith('.sql')).sort();
}

function read(sub: string, file: string): Promise<string> {
  return fs.readFile(path.join(supabaseDir, sub, file), 'utf8');
}

async function runInTransaction(client: pg.Client, sql: string, record: () => Promise<void>): Promise<void> {
  await client.query('begin');
  try {
    await client.query(sql);
    await record();
    await client.query('commit');
  } catch (err) {
    await client.query('rollback');
    throw err;
  }
}
