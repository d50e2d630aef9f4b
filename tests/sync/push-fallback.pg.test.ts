import { Writable } from 'node:stream';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { SYNC_PROTOCOL_VERSION } from '../../src/domain/collections/index.ts';
import { startAuthTestServer, type AuthTestServer } from '../auth/auth-test-server.ts';
import { serverCollection } from '../../sync-server/sync/collections.ts';
import { insertDeals, newId } from './sync-harness.ts';

// One push path: a batch statement Postgres refuses (one new row breaks a rule) is run again row by
// row so only that row is refused — and the log says why the batch fell back (never a silent catch).

const lines: Record<string, unknown>[] = [];
let server: AuthTestServer;
beforeAll(async () => {
  const logStream = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n').filter(Boolean))
        lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  server = await startAuthTestServer({ env: { LOG_LEVEL: 'info' }, logStream });
});
afterAll(() => server?.close());

async function signedIn(role: 'brand' | 'creator'): Promise<{ id: string; token: string }> {
  const { rows } = await server.db.pool.query<{ id: string }>(
    `insert into auth.users (instance_id, id, aud, role, email, encrypted_password, email_confirmed_at, raw_app_meta_data, raw_user_meta_data, created_at, updated_at)
     values ('00000000-0000-0000-0000-000000000000', gen_random_uuid(), 'authenticated', 'authenticated', $1 || '-' || gen_random_uuid() || '@example.test', '', now(),
            '{"provider":"email","providers":["email"]}', jsonb_build_object('role', $1::text, 'full_name', 'Batch ' || $1), now(), now()) returning id`,
    [role],
  );
  const id = rows[0]!.id;
  await server.db.pool.query(`update public.profiles set role = $2 where id = $1`, [id, role]);
  const sessionId = newId();
  await server.db.pool.query(
    `insert into auth.sessions (id, user_id, created_at, updated_at, aal) values ($1, $2, now(), now(), 'aal1')`,
    [sessionId, id],
  );
  const { token } = await server.app.pactaSigner!.sign({ sub: id, role: 'authenticated', session_id: sessionId });
  return { id, token };
}

async function push(token: string, collection: string, rows: unknown[]): Promise<Response> {
  return fetch(`${server.url}/sync/v1/${collection}/push`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      authorization: `Bearer ${token}`,
      'x-pacta-protocol': String(SYNC_PROTOCOL_VERSION),
    },
    body: JSON.stringify({ rows }),
  });
}

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
  await server.db.pool.query(`update public.deals set selected_creator_ids = array[$2::uuid] where id = $1`, [
    closed,
    creatorId,
  ]);
  await server.db.pool.query(`update public.deals set status = 'in_progress' where id = $1`, [closed]);
  await server.db.pool.query(`update public.deals set status = 'completed' where id = $1`, [closed]);
  const sessionId = newId();
  await server.db.pool.query(
    `insert into auth.sessions (id, user_id, created_at, updated_at, aal) values ($1, $2, now(), now(), 'aal1')`,
    [sessionId, creatorId],
  );
  const { token } = await server.app.pactaSigner!.sign({
    sub: creatorId,
    role: 'authenticated',
    session_id: sessionId,
  });

  const good = { id: newId(), deal_id: open, creator_id: creatorId, status: 'pending', pitch: 'Hi', _deleted: false };
  const refused = {
    id: newId(),
    deal_id: closed,
    creator_id: creatorId,
    status: 'pending',
    pitch: 'Hi',
    _deleted: false,
  };
  const res = await fetch(`${server.url}/sync/v1/applications/push`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      authorization: `Bearer ${token}`,
      'x-pacta-protocol': String(SYNC_PROTOCOL_VERSION),
    },
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

test('a batch of edits is written set by set: a refused edit comes back flagged, a stale one as its master, the rest lands', async () => {
  const brand = await signedIn('brand');
  const ids = await insertDeals(server.db, brand.id, 5);
  const deals = serverCollection('deals')!;
  const { rows: masters } = await server.db.pool.query<{ doc: Record<string, unknown> & { id: string } }>(
    `select ${deals.documentSql} as doc from public.deals t where t.id = any($1::uuid[])`,
    [ids],
  );
  const byId = new Map(masters.map((m) => [m.doc.id, m.doc]));
  const [raised, refused, stale, retitled, alsoRaised] = ids.map((id) => byId.get(id)!) as [
    (typeof masters)[0]['doc'],
    ...(typeof masters)[0]['doc'][],
  ];
  // Someone else changed this deal after the device read it: its edit is a conflict, the server's copy wins.
  await server.db.pool.query(`update public.deals set amount_cents = 77700 where id = $1`, [stale!.id]);
  const {
    rows: [current],
  } = await server.db.pool.query<{ doc: Record<string, unknown> }>(
    `select ${deals.documentSql} as doc from public.deals t where t.id = $1`,
    [stale!.id],
  );
  lines.length = 0;
  const res = await push(brand.token, 'deals', [
    { newDocumentState: { ...raised, amount_cents: 60000 }, assumedMasterState: raised },
    // Below the smallest amount a deal may have: Postgres refuses this row of the batch statement.
    { newDocumentState: { ...refused, amount_cents: 5 }, assumedMasterState: refused },
    { newDocumentState: { ...stale, amount_cents: 65000 }, assumedMasterState: stale },
    { newDocumentState: { ...retitled, title: 'A new title' }, assumedMasterState: retitled },
    { newDocumentState: { ...alsoRaised, amount_cents: 61000 }, assumedMasterState: alsoRaised },
  ]);
  expect(res.status).toBe(200);
  const { conflicts } = (await res.json()) as {
    conflicts: (Record<string, unknown> & { id: string; sync_rejection?: { code: string } })[];
  };
  expect(conflicts.map((c) => [c.id, c.sync_rejection?.code ?? null]).sort()).toEqual(
    [
      [refused!.id, 'invalid_value'],
      [stale!.id, null],
    ].sort(),
  );
  expect(conflicts.find((c) => c.id === stale!.id)).toEqual(current!.doc);
  expect(conflicts.find((c) => c.id === refused!.id)).toMatchObject({ amount_cents: refused!.amount_cents });
  const { rows } = await server.db.pool.query<{ id: string; amount_cents: number; title: string; version: number }>(
    'select id, amount_cents, title, version from public.deals where id = any($1::uuid[])',
    [ids],
  );
  const after = new Map(rows.map((r) => [r.id, r]));
  expect(after.get(raised!.id)).toMatchObject({ amount_cents: 60000, version: 2 });
  expect(after.get(alsoRaised!.id)).toMatchObject({ amount_cents: 61000, version: 2 });
  expect(after.get(retitled!.id)).toMatchObject({ title: 'A new title', version: 2 });
  expect(after.get(refused!.id)).toMatchObject({ amount_cents: refused!.amount_cents, version: 1 });
  expect(after.get(stale!.id)).toMatchObject({ amount_cents: 77700, version: 2 });
  expect(lines.find((l) => String(l.msg).startsWith('push: the batch update failed'))).toMatchObject({
    collection: 'deals',
    rows: 3,
    pgCode: '23514',
  });

  // The same edits sent again (an answer lost on the way) write nothing more.
  const again = await push(brand.token, 'deals', [
    { newDocumentState: { ...raised, amount_cents: 60000 }, assumedMasterState: raised },
    { newDocumentState: { ...alsoRaised, amount_cents: 61000 }, assumedMasterState: alsoRaised },
  ]);
  expect(((await again.json()) as { conflicts: unknown[] }).conflicts).toEqual([]);
  const { rows: versions } = await server.db.pool.query<{ version: number }>(
    'select version from public.deals where id = any($1::uuid[])',
    [[raised!.id, alsoRaised!.id]],
  );
  expect(versions.map((v) => Number(v.version))).toEqual([2, 2]);
});
