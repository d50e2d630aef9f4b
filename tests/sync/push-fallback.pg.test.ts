import { Writable } from 'node:stream';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { SYNC_PROTOCOL_VERSION } from '../../src/domain/collections/index.ts';
import { startAuthTestServer, type AuthTestServer } from '../auth/auth-test-server.ts';
import { insertDeals, newId } from './sync-harness.ts';

// One push path: a batch statement Postgres refuses (one new row breaks a rule) is run again row by
// row so only that row is refused — and the log says why the batch fell back (never a silent catch).

const lines: Record<string, unknown>[] = [];
let server: AuthTestServer;
beforeAll(async () => {
  const logStream = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  server = await startAuthTestServer({ env: { LOG_LEVEL: 'info' }, logStream });
});
afterAll(() => server?.close());

test('a batch with one refused new row: the rest lands, the refused row comes back flagged, the fallback is logged with its reason', async () => {
  const { rows: users } = await server.db.pool.query<{ id: string }>(
    `insert into auth.users (instance_id, id, aud, role, email, encrypted_password, email_confirmed_at, raw_app_meta_data, raw_user_meta_data, created_at, updated_at)
     select '00000000-0000-0000-0000-000000000000', gen_random_uuid(), 'authenticated', 'authenticated', r || '-' || gen_random_uuid() || '@example.test', '', now(),
            '{"provider":"email","providers":["email"]}', jsonb_build_object('role', r, 'full_name', 'Fallback ' || r), now(), now()
       from unnest(array['brand', 'creator']) r returning id`,
  );
  const [brandId, creatorId] = users.map((u) => u.id) as [string, string];
  await server.db.pool.query(`update public.profiles set role = 'brand' where id = $1`, [brandId]);
  const [open, closed] = (await insertDeals(server.db, brandId, 2)) as [string, string];
  // A completed deal (still in the creator's sight): applying to it breaks a rule ("no longer open").
  await server.db.pool.query(`update public.deals set selected_creator_ids = array[$2::uuid] where id = $1`, [closed, creatorId]);
  await server.db.pool.query(`update public.deals set status = 'in_progress' where id = $1`, [closed]);
  await server.db.pool.query(`update public.deals set status = 'completed' where id = $1`, [closed]);
  const sessionId = newId();
  await server.db.pool.query(`insert into auth.sessions (id, user_id, created_at, updated_at, aal) values ($1, $2, now(), now(), 'aal1')`, [sessionId, creatorId]);
  const { token } = await server.app.pactaSigner!.sign({ sub: creatorId, role: 'authenticated', session_id: sessionId });

  const good = { id: newId(), deal_id: open, creator_id: creatorId, status: 'pending', pitch: 'Hi', _deleted: false };
  const refused = { id: newId(), deal_id: closed, creator_id: creatorId, status: 'pending', pitch: 'Hi', _deleted: false };
  const res = await fetch(`${server.url}/sync/v1/applications/push`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, 'x-pacta-protocol': String(SYNC_PROTOCOL_VERSION) },
    body: JSON.stringify({ rows: [{ newDocumentState: good }, { newDocumentState: refused }] }),
  });
  expect(res.status).toBe(200);
  const { conflicts } = (await res.json()) as { conflicts: { id: string; sync_rejection?: { code: string } }[] };
  expect(conflicts.map((c) => [c.id, c.sync_rejection?.code])).toEqual([[refused.id, 'deal_not_open']]);
  const { rows } = await server.db.pool.query('select id from public.applications where creator_id = $1', [creatorId]);
  expect(rows.map((r) => r.id)).toEqual([good.id]);

  const fallback = lines.find((l) => String(l.msg).startsWith('push: the batch insert failed'));
  expect(fallback).toMatchObject({ collection: 'applications', rows: 2, reason: 'deal_not_open' });
});
