import * as jose from 'jose';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { postJson, startAuthTestServer, type AuthTestServer } from '../auth/auth-test-server.ts';
import { eventually, openTestStream } from './sync-harness.ts';

// "Sessions end everywhere at once": sign-out, a password change that ends the other sessions and a
// refresh-token family revoked for reuse close that session's live change streams within 15 s, on
// every server instance, and its next request is refused.

const APIKEY = { apikey: 'pacta-local-anon-key' };
const STREAM_CLOSED_WITHIN_MS = 15_000;

let first: AuthTestServer;
let second: AuthTestServer;
/** An instance in hosted-Supabase mode: the first instance plays the hosted project's Auth (same database). */
let hosted: AuthTestServer;
const streams: { close(): void }[] = [];

beforeAll(async () => {
  first = await startAuthTestServer();
  // A second instance on the same database: the stream it holds must close as well.
  second = await startAuthTestServer({ databaseUrl: first.databaseUrl });
  hosted = await startAuthTestServer({ databaseUrl: first.databaseUrl, env: { SUPABASE_URL: first.url } });
});
afterAll(async () => {
  streams.forEach((s) => s.close());
  // The second instance shares the first one's database: close it without dropping.
  for (const shared of [second, hosted]) {
    await shared?.app.close();
    await shared?.db.close();
  }
  await first?.close();
});

type Session = { access_token: string; refresh_token: string };

async function signUp(): Promise<{ email: string; password: string; session: Session }> {
  const email = `s-${Math.random().toString(36).slice(2, 10)}@example.test`;
  const password = 'correct-horse-battery';
  const res = await postJson(
    `${first.url}/auth/v1/signup`,
    { email, password, data: { role: 'creator', full_name: 'Sam Session' } },
    APIKEY,
  );
  expect(res.status).toBe(200);
  return { email, password, session: res.body as unknown as Session };
}

async function signIn(email: string, password: string): Promise<Session> {
  const res = await postJson(`${first.url}/auth/v1/token?grant_type=password`, { email, password }, APIKEY);
  expect(res.status).toBe(200);
  return res.body as unknown as Session;
}

/** The same session's token as the second instance issues it (the issuer is each instance's own URL). */
async function onSecondInstance(token: string): Promise<string> {
  const { iss: _i, aud: _a, exp: _e, iat: _t, ...claims } = jose.decodeJwt(token);
  return (await second.app.pactaSigner!.sign(claims as { sub: string; role: string })).token;
}

async function openStream(url: string, token: string) {
  const s = await openTestStream(url, url === second.url ? await onSecondInstance(token) : token);
  streams.push(s);
  expect(s.status).toBe(200);
  await eventually(() => s.events.some((e) => e.event === 'hello'));
  return s;
}

async function pullStatus(token: string): Promise<{ status: number; code: unknown }> {
  const res = await fetch(`${first.url}/sync/v1/deals/pull`, {
    headers: { authorization: `Bearer ${token}`, 'x-pacta-protocol': '1' },
  });
  return { status: res.status, code: ((await res.json()) as { code?: unknown }).code };
}

test('sign-out closes the session’s streams on every instance and refuses its next request', async () => {
  const { email, password, session } = await signUp();
  const other = await signIn(email, password);
  const onFirst = await openStream(first.url, session.access_token);
  const onSecond = await openStream(second.url, session.access_token);
  const otherStream = await openStream(first.url, other.access_token);

  const out = await fetch(`${first.url}/auth/v1/logout?scope=local`, {
    method: 'POST',
    headers: { authorization: `Bearer ${session.access_token}`, ...APIKEY },
  });
  expect(out.status).toBe(204);
  await eventually(() => onFirst.ended && onSecond.ended, STREAM_CLOSED_WITHIN_MS);
  expect(onFirst.events.map((e) => e.event)).toContain('session_ended');
  expect(await pullStatus(session.access_token)).toEqual({ status: 401, code: 'session_not_found' });
  // A new stream with the ended session's token is refused too.
  expect((await openTestStream(first.url, session.access_token)).status).toBe(401);
  // The same user's other session (another device) is untouched.
  expect(otherStream.ended).toBe(false);
  expect((await pullStatus(other.access_token)).status).toBe(200);
});

test('a password change ends the other sessions’ streams, not the one that changed it', async () => {
  const { email, password, session } = await signUp();
  const laptop = await signIn(email, password);
  const phoneStream = await openStream(second.url, session.access_token);
  const laptopStream = await openStream(first.url, laptop.access_token);

  const res = await fetch(`${first.url}/auth/v1/user`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${laptop.access_token}`, 'content-type': 'application/json', ...APIKEY },
    body: JSON.stringify({ password: 'another-horse-battery' }),
  });
  expect(res.status).toBe(200);
  await eventually(() => phoneStream.ended, STREAM_CLOSED_WITHIN_MS);
  expect(await pullStatus(session.access_token)).toEqual({ status: 401, code: 'session_not_found' });
  expect(laptopStream.ended).toBe(false);
  expect((await pullStatus(laptop.access_token)).status).toBe(200);
});

test('a refresh token reused after rotation ends its session: its streams close and its tokens are refused', async () => {
  const { session } = await signUp();
  const stream = await openStream(second.url, session.access_token);
  const rotated = await postJson(
    `${first.url}/auth/v1/token?grant_type=refresh_token`,
    { refresh_token: session.refresh_token },
    APIKEY,
  );
  expect(rotated.status).toBe(200);
  // The old token again, after the reuse interval: someone else holds it (a stolen token).
  await first.db.pool.query(`update auth.refresh_tokens set updated_at = now() - interval '1 hour' where token = $1`, [
    session.refresh_token,
  ]);
  const reused = await postJson(
    `${first.url}/auth/v1/token?grant_type=refresh_token`,
    { refresh_token: session.refresh_token },
    APIKEY,
  );
  expect(reused.body.code).toBe('refresh_token_already_used');
  await eventually(() => stream.ended, STREAM_CLOSED_WITHIN_MS);
  expect(await pullStatus(session.access_token)).toEqual({ status: 401, code: 'session_not_found' });
  expect(await pullStatus((rotated.body as unknown as Session).access_token)).toEqual({
    status: 401,
    code: 'session_not_found',
  });
  // As hosted GoTrue does: the session row stays, every token of its family is revoked, and the
  // rotated token is refused as reused too.
  const sessionId = jose.decodeJwt(session.access_token).session_id;
  const family = await first.db.pool.query<{ revoked: boolean }>(
    `select rt.revoked from auth.refresh_tokens rt join auth.sessions s on s.id = rt.session_id where s.id = $1`,
    [sessionId],
  );
  expect(family.rows.map((r) => r.revoked)).toEqual([true, true]);
  const again = await postJson(
    `${first.url}/auth/v1/token?grant_type=refresh_token`,
    { refresh_token: (rotated.body as unknown as Session).refresh_token },
    APIKEY,
  );
  expect(again.body.code).toBe('refresh_token_already_used');
});

test('a session ended without an announcement (another instance’s LISTEN was down) still closes its streams', async () => {
  const { session } = await signUp();
  const stream = await openStream(first.url, session.access_token);
  // Deleted behind the server's back: no NOTIFY, only the periodic check can see it.
  await first.db.pool.query(`delete from auth.sessions where id = $1`, [
    jose.decodeJwt(session.access_token).session_id,
  ]);
  await eventually(() => stream.ended, STREAM_CLOSED_WITHIN_MS);
});

test('hosted Supabase: a session its Auth ended (the auth.sessions row deleted, nothing announced) closes its streams within 15 s and is refused', async () => {
  expect(hosted.config.auth.mode).toBe('hosted');
  const { email, password, session } = await signUp();
  const other = await signIn(email, password);
  const stream = await openStream(hosted.url, session.access_token);
  const otherStream = await openStream(hosted.url, other.access_token);
  const pullOnHosted = (token: string) =>
    fetch(`${hosted.url}/sync/v1/deals/pull`, {
      headers: { authorization: `Bearer ${token}`, 'x-pacta-protocol': '1' },
    });
  expect((await pullOnHosted(session.access_token)).status).toBe(200);

  // What hosted GoTrue does on sign-out: the session's row goes, and no NOTIFY is sent.
  await first.db.pool.query(`delete from auth.sessions where id = $1`, [
    jose.decodeJwt(session.access_token).session_id,
  ]);
  await eventually(() => stream.ended, STREAM_CLOSED_WITHIN_MS);
  expect(stream.events.map((e) => e.event)).toContain('session_ended');
  const refused = await pullOnHosted(session.access_token);
  expect({ status: refused.status, code: ((await refused.json()) as { code?: unknown }).code }).toEqual({
    status: 401,
    code: 'session_not_found',
  });
  expect((await openTestStream(hosted.url, session.access_token)).status).toBe(401);
  // The user's other session is untouched.
  expect(otherStream.ended).toBe(false);
  expect((await pullOnHosted(other.access_token)).status).toBe(200);
});

test('hosted Supabase: a refresh-token family its Auth revoked for reuse (the session row kept) closes the session’s streams within 15 s and is refused', async () => {
  const { email, password, session } = await signUp();
  const other = await signIn(email, password);
  const stream = await openStream(hosted.url, session.access_token);
  const otherStream = await openStream(hosted.url, other.access_token);
  const pullOnHosted = async (token: string) => {
    const res = await fetch(`${hosted.url}/sync/v1/deals/pull`, {
      headers: { authorization: `Bearer ${token}`, 'x-pacta-protocol': '1' },
    });
    return { status: res.status, code: ((await res.json()) as { code?: unknown }).code };
  };
  expect((await pullOnHosted(session.access_token)).status).toBe(200);

  // What hosted GoTrue writes when a refresh token is reused outside its reuse interval (its
  // RevokeTokenFamily): every token of the session revoked, the auth.sessions row kept, nothing announced.
  const sessionId = jose.decodeJwt(session.access_token).session_id;
  const revoked = await first.db.pool.query(
    `update auth.refresh_tokens set revoked = true, updated_at = now() where session_id = $1 and revoked = false`,
    [sessionId],
  );
  expect(revoked.rowCount).toBeGreaterThan(0);
  expect((await first.db.pool.query(`select 1 from auth.sessions where id = $1`, [sessionId])).rowCount).toBe(1);

  await eventually(() => stream.ended, STREAM_CLOSED_WITHIN_MS);
  expect(stream.events.map((e) => e.event)).toContain('session_ended');
  expect(await pullOnHosted(session.access_token)).toEqual({ status: 401, code: 'session_not_found' });
  expect((await openTestStream(hosted.url, session.access_token)).status).toBe(401);
  // The user's other session keeps its own, unrevoked family.
  expect(otherStream.ended).toBe(false);
  expect((await pullOnHosted(other.access_token)).status).toBe(200);
});
