import { afterAll, beforeAll, expect, test } from 'vitest';
import { startTestServer, type TestServer } from '../support/test-server.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

test('health reports a reachable database and whether payments run, and no version of anything', async () => {
  const res = await fetch(`${server.url}/api/health`);
  expect(res.status).toBe(200);
  // Exactly these fields: a version (Postgres', Node's, Pacta's) only tells an attacker what to try.
  expect(await res.json()).toEqual({ status: 'ok', database: { reachable: true }, payments: 'unavailable' });
});

test('the migration history is recorded as the Supabase CLI records it', async () => {
  const { rows } = await server.db.pool.query(
    'select version, name from supabase_migrations.schema_migrations order by version',
  );
  expect(rows[0]).toEqual({ version: '20261122000100', name: 'core_tables' });
});

test('an unknown API path answers 404 JSON', async () => {
  const res = await fetch(`${server.url}/api/nope`);
  expect(res.status).toBe(404);
  expect(await res.json()).toMatchObject({ code: 'not_found' });
});
