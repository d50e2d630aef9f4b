// The sync server's bearer-token check (ctx.authenticate, exposed as app.pactaAuthenticate): every
// bad token is a 401 `{ code, message }` and the protected route writes nothing.
import * as jose from 'jose';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { postJson, startAuthTestServer, type AuthTestServer } from './auth-test-server.ts';

let server: AuthTestServer;
const PASSWORD = 'probe password 1';

beforeAll(async () => {
  server = await startAuthTestServer({
    beforeListen: async (app) => {
      await app.register(async (probe) => {
        // A stand-in for any sync route: authenticate first, then write as that user.
        probe.post('/test/probe-write', async (request) => {
          const claims = await app.pactaAuthenticate(request);
          await server.db.pool.query('insert into public.auth_probe_writes (sub) values ($1)', [claims.sub]);
          return { sub: claims.sub };
        });
      });
    },
  });
  await server.db.pool.query('create table public.auth_probe_writes (id serial primary key, sub uuid not null)');
});
afterAll(() => server?.close());

async function signUp(label: string) {
  const email = `${label}-${Date.now()}@example.test`;
  const res = await postJson(`${server.url}/auth/v1/signup`, { email, password: PASSWORD, data: { role: 'creator' } });
  expect(res.status).toBe(200);
  return res.body as { access_token: string; user: { id: string } };
}

const writes = async () =>
  (await server.db.pool.query('select count(*)::int as n from public.auth_probe_writes')).rows[0].n as number;

async function probe(token: string | undefined) {
  const res = await fetch(`${server.url}/test/probe-write`, {
    method: 'POST',
    headers: token === undefined ? {} : { authorization: `Bearer ${token}` },
  });
  return { status: res.status, body: await res.json() };
}

/** Signs claims with the server's own private key (so only the claim under test is wrong). */
async function signWithServerKey(claims: jose.JWTPayload, opts: { iat?: number; exp?: number } = {}) {
  const { rows } = await server.db.pool.query('select kid, private_jwk from auth.pacta_signing_keys limit 1');
  const key = await jose.importJWK(rows[0].private_jwk, 'ES256');
  const now = Math.floor(Date.now() / 1000);
  return new jose.SignJWT(claims)
    .setProtectedHeader({ alg: 'ES256', kid: rows[0].kid, typ: 'JWT' })
    .setIssuedAt(opts.iat ?? now)
    .setExpirationTime(opts.exp ?? now + 3600)
    .sign(key);
}

async function validClaims() {
  const session = await signUp('claims');
  return { session, claims: jose.decodeJwt(session.access_token) };
}

test('a valid token passes and the route writes once', async () => {
  const { session } = await validClaims();
  const before = await writes();
  const res = await probe(session.access_token);
  expect(res).toEqual({ status: 200, body: { sub: session.user.id } });
  expect(await writes()).toBe(before + 1);
});

test('rejected tokens: each 401 with { code, message } and nothing written', async () => {
  const { session, claims } = await validClaims();
  const now = Math.floor(Date.now() / 1000);
  const otherKey = await jose.generateKeyPair('ES256');
  const header = jose.decodeProtectedHeader(session.access_token);
  const [h, , s] = session.access_token.split('.');
  const tamperedPayload = Buffer.from(
    JSON.stringify({ ...claims, sub: '00000000-0000-4000-8000-000000000001' }),
  ).toString('base64url');

  const cases: Record<string, { token: string | undefined; code: string }> = {
    missing: { token: undefined, code: 'no_authorization' },
    garbage: { token: 'not-a-jwt', code: 'bad_jwt' },
    expired: { token: await signWithServerKey(claims, { iat: now - 7200, exp: now - 3600 }), code: 'bad_jwt' },
    'wrong aud': { token: await signWithServerKey({ ...claims, aud: 'anon' }), code: 'bad_jwt' },
    'wrong iss': {
      token: await signWithServerKey({ ...claims, iss: 'https://elsewhere.example/auth/v1' }),
      code: 'bad_jwt',
    },
    'wrong key': {
      token: await new jose.SignJWT(claims)
        .setProtectedHeader({ alg: 'ES256', kid: header.kid!, typ: 'JWT' })
        .sign(otherKey.privateKey),
      code: 'bad_jwt',
    },
    tampered: { token: `${h}.${tamperedPayload}.${s}`, code: 'bad_jwt' },
    'alg none': {
      token: `${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}.${tamperedPayload}.`,
      code: 'bad_jwt',
    },
    'no session_id': { token: await signWithServerKey({ ...claims, session_id: undefined }), code: 'bad_jwt' },
    'unknown session': {
      token: await signWithServerKey({ ...claims, session_id: '00000000-0000-4000-8000-000000000002' }),
      code: 'session_not_found',
    },
  };
  const before = await writes();
  for (const [name, { token, code }] of Object.entries(cases)) {
    const res = await probe(token);
    expect({ name, status: res.status, code: res.body.code }).toEqual({ name, status: 401, code });
    expect(res.body.message, name).toEqual(expect.any(String));
  }
  expect(await writes()).toBe(before);
});

test('a signed-out session token is rejected with 401 session_not_found and writes nothing', async () => {
  const { session } = await validClaims();
  expect((await probe(session.access_token)).status).toBe(200);
  const before = await writes();
  const logout = await fetch(`${server.url}/auth/v1/logout?scope=local`, {
    method: 'POST',
    headers: { authorization: `Bearer ${session.access_token}` },
  });
  expect(logout.status).toBe(204);
  expect(await probe(session.access_token)).toEqual({
    status: 401,
    body: {
      code: 'session_not_found',
      message: 'Session from session_id claim in JWT does not exist',
      request_id: expect.any(String),
    },
  });
  expect(await writes()).toBe(before);
});

test('a session ended by refresh-token reuse is rejected with 401 session_not_found', async () => {
  const session = (await signUp('reuse')) as unknown as { access_token: string; refresh_token: string };
  const first = session.refresh_token;
  // The test server's reuse interval is GoTrue's 10 s: wait it out by back-dating the rotation.
  const rotated = await postJson(`${server.url}/auth/v1/token?grant_type=refresh_token`, { refresh_token: first });
  expect(rotated.status).toBe(200);
  await server.db.pool.query(
    `update auth.refresh_tokens set updated_at = now() - interval '1 minute' where token = $1`,
    [first],
  );
  const reuse = await postJson(`${server.url}/auth/v1/token?grant_type=refresh_token`, { refresh_token: first });
  expect(reuse).toMatchObject({ status: 400, body: { code: 'refresh_token_already_used' } });
  expect((await probe(rotated.body.access_token as string)).body.code).toBe('session_not_found');
  expect((await probe(session.access_token)).body.code).toBe('session_not_found');
});

test('within the reuse interval a concurrent refresh gets the current token instead of revoking', async () => {
  const session = (await signUp('concurrent')) as unknown as { refresh_token: string };
  const a = await postJson(`${server.url}/auth/v1/token?grant_type=refresh_token`, {
    refresh_token: session.refresh_token,
  });
  const b = await postJson(`${server.url}/auth/v1/token?grant_type=refresh_token`, {
    refresh_token: session.refresh_token,
  });
  expect(a.status).toBe(200);
  expect(b.status).toBe(200);
  expect(b.body.refresh_token).toBe(a.body.refresh_token);
});
