// A local database made before the account-safety changes gets them on its next start: migrate()
// runs each supabase/local file once, by name, so they live in a new file (30_…) rather than in 20.
import pg from 'pg';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { migrate } from '../../sync-server/db/migrate.ts';
import { createTestDatabase } from '../support/test-database.ts';

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let client: pg.Client;
beforeAll(async () => {
  database = await createTestDatabase();
  client = new pg.Client({ connectionString: database.url });
  await client.connect();
});
afterAll(async () => {
  await client?.end();
  await database?.drop();
});

test('an existing local database is brought up to date: token columns, e-mail slots, old links dropped', async () => {
  // The database as it was before: no new columns or table, 30 never run, a pending old-style link.
  await client.query(`
    alter table auth.one_time_tokens drop column code_hash, drop column failed_attempts;
    drop table auth.pacta_email_requests;
    delete from supabase_migrations.local_bootstrap where name = '30_local_auth_account_safety.sql';
    insert into auth.users (instance_id, id, aud, role, email, email_confirmed_at)
      values ('00000000-0000-0000-0000-000000000000', '6f1d1d6e-58c4-4a53-9d3e-0a3b8f7c2a10', 'authenticated',
        'authenticated', 'old@example.test', now());
    insert into auth.one_time_tokens (id, user_id, token_type, token_hash, relates_to)
      values (gen_random_uuid(), '6f1d1d6e-58c4-4a53-9d3e-0a3b8f7c2a10', 'recovery_token',
        encode(sha224('old@example.test123456'), 'hex'), 'old@example.test');`);

  const report = await migrate(database.url, { localBootstrap: true, seed: false });
  expect(report.bootstrap).toEqual(['30_local_auth_account_safety.sql']);
  expect(report.migrations).toEqual([]);

  const columns = await client.query(
    `select column_name from information_schema.columns where table_schema = 'auth' and table_name = 'one_time_tokens'
       and column_name in ('code_hash', 'failed_attempts') order by 1`,
  );
  expect(columns.rows.map((r) => r.column_name)).toEqual(['code_hash', 'failed_attempts']);
  expect((await client.query(`select to_regclass('auth.pacta_email_requests') as t`)).rows[0].t).toBe(
    'auth.pacta_email_requests',
  );
  expect((await client.query(`select count(*)::int as n from auth.one_time_tokens`)).rows[0].n).toBe(0);

  // A second start changes nothing.
  expect((await migrate(database.url, { localBootstrap: true, seed: false })).bootstrap).toEqual([]);
});
