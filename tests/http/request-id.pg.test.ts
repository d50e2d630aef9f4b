import net from 'node:net';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startAuthTestServer, type AuthTestServer } from '../auth/auth-test-server.ts';

// Every answer names its request (X-Request-Id), every JSON error body carries the same id as
// `request_id`, and every log line of the request carries it: what a user quotes, the operator finds.

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const lines: Record<string, unknown>[] = [];
let server: AuthTestServer;
let behindProxy: AuthTestServer;

beforeAll(async () => {
  const logStream = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  server = await startAuthTestServer({
    env: { LOG_LEVEL: 'info' },
    logStream,
    beforeListen: (app) => {
      app.get('/api/test-probe/broken', async () => {
        throw new Error('something broke inside');
      });
    },
  });
  behindProxy = await startAuthTestServer({ databaseUrl: server.databaseUrl, env: { TRUST_REQUEST_ID: 'on' } });
});
afterAll(async () => {
  await behindProxy?.close();
  await server?.close();
});

const get = (base: string, path: string, headers: Record<string, string> = {}) => fetch(`${base}${path}`, { headers });

test('an error answer names its request in X-Request-Id and in its body; a client cannot choose the id', async () => {
  const missing = await get(server.url, '/api/no-such-thing', { 'x-request-id': 'chosen-by-the-client' });
  const id = missing.headers.get('x-request-id');
  expect(id).toMatch(UUID);
  expect(missing.status).toBe(404);
  expect(await missing.json()).toEqual({
    code: 'not_found',
    message: 'No route for GET /api/no-such-thing',
    request_id: id,
  });

  const tooOld = await get(server.url, '/sync/v1/deals/pull');
  expect(tooOld.status).toBe(426);
  expect(await tooOld.json()).toMatchObject({
    code: 'client_too_old',
    minimum: expect.any(Number),
    request_id: tooOld.headers.get('x-request-id'),
  });

  const badJson = await fetch(`${server.url}/api/contact`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{"oops',
  });
  expect(badJson.status).toBe(400);
  expect(await badJson.json()).toMatchObject({ code: 'bad_request', request_id: badJson.headers.get('x-request-id') });
});

test('a successful answer carries the id too; two requests never share one', async () => {
  const [a, b] = await Promise.all([get(server.url, '/api/health'), get(server.url, '/api/health')]);
  expect(a.status).toBe(200);
  expect(a.headers.get('x-request-id')).toMatch(UUID);
  expect(b.headers.get('x-request-id')).toMatch(UUID);
  expect(a.headers.get('x-request-id')).not.toBe(b.headers.get('x-request-id'));
  expect(await a.json()).not.toHaveProperty('request_id');
});

test('a server error: the answer says only that it failed, with the id under which its log line has the details', async () => {
  const broken = await get(server.url, '/api/test-probe/broken');
  expect(broken.status).toBe(500);
  const id = broken.headers.get('x-request-id');
  expect(await broken.json()).toEqual({
    code: 'internal_error',
    message: 'Server error. Please try again later.',
    request_id: id,
  });
  const ofRequest = lines.filter((l) => l.request_id === id);
  expect(ofRequest.map((l) => l.msg)).toEqual(['incoming request', 'unhandled error', 'request completed']);
  expect(ofRequest[1]).toMatchObject({ err: { message: 'something broke inside' } });
  // Every line a request writes names it.
  expect(lines.filter((l) => l.req || l.res).every((l) => typeof l.request_id === 'string')).toBe(true);
});

test("auth errors keep GoTrue's body and carry the id in the header", async () => {
  const refused = await fetch(`${server.url}/auth/v1/token?grant_type=password`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'nobody@example.test', password: 'not-the-password' }),
  });
  expect(refused.status).toBe(400);
  expect(refused.headers.get('x-request-id')).toMatch(UUID);
  const body = (await refused.json()) as Record<string, unknown>;
  expect(body).toMatchObject({ code: 'invalid_credentials' });
  expect(body).not.toHaveProperty('request_id');
});

test("behind a trusted proxy (TRUST_REQUEST_ID=on) the proxy's id is kept, unless it is malformed", async () => {
  const kept = await get(behindProxy.url, '/api/no-such-thing', { 'x-request-id': 'lb-7f3a:2026-11-27' });
  expect(kept.headers.get('x-request-id')).toBe('lb-7f3a:2026-11-27');
  expect(await kept.json()).toMatchObject({ request_id: 'lb-7f3a:2026-11-27' });
  for (const malformed of ['two words', 'x'.repeat(129), '<script>']) {
    const replaced = await get(behindProxy.url, '/api/health', { 'x-request-id': malformed });
    expect(replaced.headers.get('x-request-id')).toMatch(UUID);
  }
});

test('a request Node refuses before Fastify sees it (headers too large) gets an id of its own', async () => {
  const answer = await new Promise<string>((resolve, reject) => {
    const socket = net.connect(Number(new URL(server.url).port), '127.0.0.1', () => {
      socket.write(`GET /api/health HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    });
    let text = '';
    socket.on('data', (d) => (text += String(d)));
    socket.on('end', () => resolve(text));
    socket.on('error', reject);
  });
  const id = /\r\nX-Request-Id: ([^\r]+)\r\n/.exec(answer)?.[1];
  expect(id).toMatch(UUID);
  expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4))).toMatchObject({
    code: 'headers_too_large',
    request_id: id,
  });
});
