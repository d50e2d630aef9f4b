import * as jose from 'jose';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { MAX_PUSH_ROWS, SYNC_PROTOCOL_VERSION } from '../../src/domain/collections/index.ts';
import { startTestServer, type TestServer, type TestUser } from '../support/test-server.ts';
import { databaseFingerprint, insertDeals, newId, openTestStream } from './sync-harness.ts';

let server: TestServer;
let brand: TestUser;
let creator: TestUser;
let dealId: string;
beforeAll(async () => {
  server = await startTestServer();
  brand = await server.createUser({ role: 'brand' });
  creator = await server.createUser({ role: 'creator' });
  [dealId] = (await insertDeals(server.db, brand.id, 1)) as [string];
});
afterAll(() => server?.close());

const protocol = { 'x-pacta-protocol': String(SYNC_PROTOCOL_VERSION) };
const auth = (u: TestUser) => ({ authorization: `Bearer ${u.accessToken}`, ...protocol });

/** A token signed with the server's real key that expired a minute ago. */
async function expiredToken(user: TestUser): Promise<string> {
  const { rows } = await server.db.pool.query(
    'select kid, private_jwk from auth.pacta_signing_keys order by created_at desc limit 1',
  );
  const key = await jose.importJWK(rows[0].private_jwk, 'ES256');
  const now = Math.floor(Date.now() / 1000);
  return new jose.SignJWT({ sub: user.id, role: 'authenticated', session_id: newId() })
    .setProtectedHeader({ alg: 'ES256', kid: rows[0].kid, typ: 'JWT' })
    .setIssuer(server.app.pactaSigner!.issuer)
    .setAudience('authenticated')
    .setIssuedAt(now - 3600)
    .setExpirationTime(now - 60)
    .sign(key);
}

async function expectUnchanged(action: () => Promise<Response>, status: number, code?: string) {
  const before = await databaseFingerprint(server.db);
  const res = await action();
  const body = await res.json();
  expect({ status: res.status, code: body.code }).toEqual({ status, code: code ?? body.code });
  expect(typeof body.message).toBe('string');
  expect(await databaseFingerprint(server.db)).toBe(before);
  return body;
}

const draft = (userId: string, extra: Record<string, unknown> = {}) => ({
  id: newId(),
  user_id: userId,
  kind: 'deal',
  title: 'A draft',
  payload: {},
  _deleted: false,
  ...extra,
});

const push = (collection: string, body: unknown, headers: Record<string, string> = auth(creator)) =>
  fetch(`${server.url}/sync/v1/${collection}/push`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });

test('pull: every bad request answers 4xx JSON and reads nothing', async () => {
  const pull =
    (path: string, headers: Record<string, string> = auth(creator)) =>
    () =>
      fetch(`${server.url}/sync/v1/${path}`, { headers });
  await expectUnchanged(pull('nope/pull'), 404, 'unknown_collection');
  await expectUnchanged(pull('deals/pull?checkpoint=%7Bnot-json'), 400, 'bad_checkpoint');
  await expectUnchanged(
    pull(`deals/pull?checkpoint=${encodeURIComponent(JSON.stringify({ xid: 'x', id: 1 }))}`),
    400,
    'bad_checkpoint',
  );
  await expectUnchanged(pull('deals/pull?limit=0'), 400, 'validation_failed');
  await expectUnchanged(pull('deals/pull?limit=100000'), 400, 'validation_failed');
  await expectUnchanged(pull('deals/pull', protocol), 401);
  await expectUnchanged(pull('deals/pull', { ...protocol, authorization: 'Bearer not-a-jwt' }), 401, 'bad_jwt');
  const expired = await expiredToken(creator);
  await expectUnchanged(pull('deals/pull', { ...protocol, authorization: `Bearer ${expired}` }), 401, 'bad_jwt');
  // Security first: an unknown collection without a token is a 401, not a 404.
  await expectUnchanged(pull('nope/pull', protocol), 401);
});

test('push: malformed, mistyped, oversized or out-of-scope batches are refused whole and write nothing', async () => {
  await expectUnchanged(() => push('drafts', '{"rows": [ {"newDocumentState": '), 400);
  await expectUnchanged(() => push('drafts', { rows: 'all of them' }), 400, 'validation_failed');
  await expectUnchanged(
    () => push('drafts', { rows: [{ newDocumentState: draft(creator.id, { kind: 42 }) }] }),
    400,
    'validation_failed',
  );
  await expectUnchanged(
    () => push('drafts', { rows: [{ newDocumentState: draft(creator.id, { id: 'not-a-uuid' }) }] }),
    400,
    'validation_failed',
  );
  await expectUnchanged(() => push('nope', { rows: [] }), 404, 'unknown_collection');
  await expectUnchanged(() => push('growth', { rows: [] }), 403, 'read_only_collection');
  const tooMany = Array.from({ length: MAX_PUSH_ROWS + 1 }, () => ({ newDocumentState: draft(creator.id) }));
  await expectUnchanged(() => push('drafts', { rows: tooMany }), 413, 'too_many_rows');
  const huge = { rows: [{ newDocumentState: draft(creator.id, { payload: { text: 'x'.repeat(1_100_000) } }) }] };
  await expectUnchanged(() => push('drafts', huge), 413, 'payload_too_large');
  await expectUnchanged(() => push('drafts', { rows: [] }, protocol), 401);
  const expired = await expiredToken(creator);
  await expectUnchanged(
    () => push('drafts', { rows: [] }, { ...protocol, authorization: `Bearer ${expired}` }),
    401,
    'bad_jwt',
  );

  // A valid row and a row written as another user: the whole batch is refused (403), nothing lands.
  const mine = draft(creator.id);
  const body = await expectUnchanged(
    () => push('drafts', { rows: [{ newDocumentState: mine }, { newDocumentState: draft(brand.id) }] }),
    403,
    'out_of_scope',
  );
  expect(body.message).toMatch(/cannot write/);
  // Editing someone else's deal is out of scope too.
  const { rows } = await server.db.pool.query(
    `select jsonb_build_object('id', id, 'brand_id', brand_id, 'title', title, 'description', description,
       'amount_cents', amount_cents, 'niches', niches, 'version', version, 'created_at', created_at, 'updated_at', updated_at) as doc
     from public.deals where id = $1`,
    [dealId],
  );
  const master = { ...rows[0].doc, _deleted: false };
  await expectUnchanged(
    () => push('deals', { rows: [{ newDocumentState: { ...master, title: 'Mine now' }, assumedMasterState: master }] }),
    403,
    'out_of_scope',
  );
});

test('push: changing a business server-owned field refuses the batch with server_owned_field; sync stamps are ignored', async () => {
  const { rows } = await server.db.pool.query(
    `select to_jsonb(p) - 'change_xid' - 'deleted' as doc from public.profiles p where id = $1`,
    [creator.id],
  );
  const master = { ...rows[0].doc, _deleted: false };
  const body = await expectUnchanged(
    () =>
      push('profiles', {
        rows: [{ newDocumentState: { ...master, bio: 'New bio', xp: 99999 }, assumedMasterState: master }],
      }),
    400,
    'server_owned_field',
  );
  expect(body.field).toBe('xp');
  // Sync stamps are the server's to set: a copy carrying other stamps (a later pull already applied on
  // the device) is not an error, and writes nothing by itself.
  const before = await databaseFingerprint(server.db);
  const stamps = await push('profiles', {
    rows: [
      {
        newDocumentState: { ...master, version: master.version + 5, updated_at: new Date().toISOString() },
        assumedMasterState: master,
      },
    ],
  });
  expect(stamps.status).toBe(200);
  expect(await databaseFingerprint(server.db)).toBe(before);

  // A copy that merged a newer master (the server awarded XP meanwhile) while the device's record of
  // its assumed master lagged behind holds the server's current values: not a change, the bio lands.
  await server.db.asService((tx) => tx.query(`select public.award_xp($1, 'review', 30)`, [creator.id]));
  const { rows: current } = await server.db.pool.query(
    `select to_jsonb(p) - 'change_xid' - 'deleted' as doc from public.profiles p where id = $1`,
    [creator.id],
  );
  expect(current[0].doc.xp).not.toBe(master.xp);
  const merged = await push('profiles', {
    rows: [{ newDocumentState: { ...current[0].doc, _deleted: false, bio: 'Merged bio' }, assumedMasterState: master }],
  });
  expect(merged.status).toBe(200);
  const { rows: after } = await server.db.pool.query(`select bio, xp from public.profiles where id = $1`, [creator.id]);
  expect(after[0]).toEqual({ bio: 'Merged bio', xp: current[0].doc.xp });
});

test('stream: no token, a bad token and a too-old client are refused before the stream opens', async () => {
  for (const [headers, status] of [
    [protocol, 401],
    [{ ...protocol, authorization: 'Bearer nope' }, 401],
    [{ authorization: `Bearer ${creator.accessToken}`, 'x-pacta-protocol': '0' }, 426],
    [{ authorization: `Bearer ${creator.accessToken}` }, 426],
  ] as const) {
    const res = await fetch(`${server.url}/sync/v1/stream`, { headers });
    expect(res.status).toBe(status);
    expect(res.headers.get('content-type')).toMatch(/application\/json/);
    expect((await res.json()).code).toBeTypeOf('string');
  }
});

test('a client older than the minimum protocol gets 426 client_too_old on every endpoint', async () => {
  const old = { authorization: `Bearer ${creator.accessToken}`, 'x-pacta-protocol': '0' };
  const pull = await fetch(`${server.url}/sync/v1/deals/pull`, { headers: old });
  expect(pull.status).toBe(426);
  expect(await pull.json()).toMatchObject({ code: 'client_too_old' });
  await expectUnchanged(
    () => push('drafts', { rows: [{ newDocumentState: draft(creator.id) }] }, old),
    426,
    'client_too_old',
  );
  const stream = await openTestStream(server.url, creator.accessToken, '0');
  expect(stream.status).toBe(426);
});
