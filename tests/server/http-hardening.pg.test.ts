import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startTestServer, type TestServer } from '../support/test-server.ts';
import { eventually, openTestStream } from '../sync/sync-harness.ts';

// What every answer tells the browser (sessions live in localStorage: one injected script would carry
// them away), how long a request may take to arrive, and whose address the per-IP limits count.

let server: TestServer;
let appDir: string;
const others: TestServer[] = [];
const streams: { close(): void }[] = [];
beforeAll(async () => {
  appDir = await fs.mkdtemp(path.join(os.tmpdir(), 'pacta-shell-'));
  await fs.writeFile(path.join(appDir, 'index.html'), '<!doctype html><title>Pacta</title><div id="root"></div>');
  server = await startTestServer({
    staticDir: appDir,
    env: { REQUEST_TIMEOUT_SECONDS: '1', HEADERS_TIMEOUT_SECONDS: '1' },
  });
});
afterAll(async () => {
  streams.forEach((s) => s.close());
  for (const other of others) await other.close();
  await server?.close();
  await fs.rm(appDir, { recursive: true, force: true });
});

const ANSWERS = [
  ['the app shell', '/'],
  ['a page of the app', '/deals/123'],
  ['/api', '/api/health'],
  ['an unknown /api path', '/api/nope'],
  ['/auth/v1', '/auth/v1/settings'],
  ['an /auth/v1 refusal', '/auth/v1/user'],
] as const;

test.each(ANSWERS)('%s carries the security headers', async (_what, route) => {
  const res = await fetch(`${server.url}${route}`);
  const csp = res.headers.get('content-security-policy') ?? '';
  const directives = new Map(csp.split(/;\s*/).map((d) => [d.split(' ')[0], d.split(' ').slice(1).join(' ')]));
  expect(directives.get('default-src')).toBe("'self'");
  expect(directives.get('script-src')).toBe("'self'");
  expect(directives.get('style-src')).toBe("'self'");
  expect(directives.get('img-src')).toBe("'self' data: blob:");
  expect(directives.get('connect-src')).toBe("'self'");
  expect(directives.get('frame-ancestors')).toBe("'none'");
  expect(directives.get('object-src')).toBe("'none'");
  expect(csp).not.toContain('unsafe-inline');
  expect(csp).not.toContain('unsafe-eval');
  expect(res.headers.get('x-frame-options')).toBe('DENY');
  expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  expect(res.headers.get('referrer-policy')).toBe('no-referrer');
  expect(res.headers.get('permissions-policy')).toContain('camera=()');
  expect(res.headers.get('x-powered-by')).toBeNull();
  // Plain http (a developer's machine): HSTS would lock the browser out of that host's http servers.
  expect(res.headers.get('strict-transport-security')).toBeNull();
});

test('HSTS only when PUBLIC_URL is https, and then on every answer', async () => {
  const https = await startTestServer({ staticDir: appDir, env: { PUBLIC_URL: 'https://pacta.example.test' } });
  others.push(https);
  for (const [, route] of ANSWERS) {
    const res = await fetch(`${https.url}${route}`);
    expect(res.headers.get('strict-transport-security'), route).toBe('max-age=31536000');
    expect(res.headers.get('content-security-policy'), route).toContain('upgrade-insecure-requests');
  }
});

test('health answers without any version', async () => {
  const res = await fetch(`${server.url}/api/health`);
  expect(await res.json()).toEqual({ status: 'ok', database: { reachable: true }, payments: 'unavailable' });
});

test('a request whose body trickles in is cut off at the request timeout; an open change stream lives on', async () => {
  const user = await server.createUser({ role: 'creator' });
  const stream = await openTestStream(server.url, user.accessToken);
  streams.push(stream);
  expect(stream.status).toBe(200);

  const { port } = new URL(server.url);
  const socket = net.connect(Number(port), '127.0.0.1');
  await new Promise((resolve) => socket.once('connect', resolve));
  let answer = '';
  let closed = false;
  socket.on('data', (chunk: Buffer) => (answer += chunk.toString()));
  socket.on('error', () => {}); // a write racing the server's close
  socket.on('close', () => (closed = true));
  const length = 2_000;
  socket.write(
    `POST /api/contact HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n\r\n`,
  );
  // One byte every 100 ms would take 200 s to arrive whole; the server's own timeout is 1 s.
  let sent = 0;
  while (!closed && sent < length) {
    socket.write(' ');
    sent += 1;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  expect(closed).toBe(true);
  expect(sent).toBeLessThan(length);
  expect(answer).toMatch(/^HTTP\/1\.1 408 /);
  expect(answer).toContain('"code":"request_timeout"');

  // The stream was opened before the cut-off and outlived the timeout: it still brings notices.
  await server.db.asService((tx) =>
    tx.query(`insert into public.drafts (id, user_id, kind) values ($1, $2, 'deal')`, [randomUUID(), user.id]),
  );
  await eventually(() => stream.changes().includes('drafts'));
});

test('TRUST_PROXY: per-IP limits count the address the proxy forwards, and only the proxy is believed', async () => {
  const signIn = (target: TestServer, forwardedFor: string) =>
    fetch(`${target.url}/auth/v1/token?grant_type=password`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', apikey: 'anon', 'x-forwarded-for': forwardedFor },
      body: JSON.stringify({ email: `${randomUUID()}@example.test`, password: 'not the password' }),
    });
  const limits = { AUTH_RATE_LIMIT_SIGN_IN_PER_IP: '1' };

  const behindProxy = await startTestServer({ env: { ...limits, TRUST_PROXY: '127.0.0.1' } });
  others.push(behindProxy);
  expect((await signIn(behindProxy, '203.0.113.1')).status).toBe(400);
  expect((await signIn(behindProxy, '203.0.113.1')).status).toBe(429);
  // Another client behind the same proxy has its own allowance.
  expect((await signIn(behindProxy, '203.0.113.2')).status).toBe(400);

  // Without TRUST_PROXY the header is anyone's to write: the socket's address is what counts.
  const direct = await startTestServer({ env: limits });
  others.push(direct);
  expect((await signIn(direct, '203.0.113.1')).status).toBe(400);
  expect((await signIn(direct, '203.0.113.2')).status).toBe(429);
});
