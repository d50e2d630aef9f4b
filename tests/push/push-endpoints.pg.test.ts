import { createECDH, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startTestServer, type TestServer, type TestUser } from '../support/test-server.ts';
import { eventually } from '../sync/sync-harness.ts';

// Where the server may send push requests: a push endpoint is a URL the server POSTs to for a user, so
// an ordinary account must not be able to point it at the server's own network. This server trusts no
// push service (unlike web-push.pg.test.ts), as in production.

let server: TestServer;
let localService: http.Server;
let localOrigin: string;
const received: string[] = [];

beforeAll(async () => {
  server = await startTestServer();
  localService = http.createServer((req, res) => {
    received.push(req.url ?? '');
    req.resume();
    res.statusCode = 201;
    res.end();
  });
  await new Promise<void>((resolve) => localService.listen(0, '127.0.0.1', resolve));
  localOrigin = `http://127.0.0.1:${(localService.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await server?.close();
  await new Promise((resolve) => localService?.close(resolve));
});

function keys() {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  return { p256dh: ecdh.getPublicKey().toString('base64url'), auth: randomBytes(16).toString('base64url') };
}

async function subscribe(user: TestUser, endpoint: string): Promise<Response> {
  return fetch(`${server.url}/api/push/subscriptions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${user.accessToken}` },
    body: JSON.stringify({ endpoint, keys: keys() }),
  });
}

test('a push endpoint on loopback, a private network or any non-public address is refused with 400', async () => {
  const user = await server.createUser({ role: 'creator' });
  const refused: [string, string][] = [
    [`${localOrigin}/push/x`, 'push_endpoint_not_https'],
    ['ftp://push.example.com/x', 'push_endpoint_not_https'],
    ['https://127.0.0.1/x', 'push_endpoint_not_public'],
    ['https://localhost/x', 'push_endpoint_not_public'], // a name resolving to loopback
    ['https://[::1]/x', 'push_endpoint_not_public'],
    ['https://0.0.0.0/x', 'push_endpoint_not_public'],
    ['https://10.1.2.3/x', 'push_endpoint_not_public'],
    ['https://172.16.0.5/x', 'push_endpoint_not_public'],
    ['https://192.168.1.1/x', 'push_endpoint_not_public'],
    ['https://169.254.169.254/latest/meta-data', 'push_endpoint_not_public'], // cloud metadata
    ['https://100.64.0.1/x', 'push_endpoint_not_public'], // CGNAT
    ['https://224.0.0.1/x', 'push_endpoint_not_public'], // multicast
    ['https://[fd00::1]/x', 'push_endpoint_not_public'], // unique-local
    ['https://[fe80::1]/x', 'push_endpoint_not_public'], // link-local
    ['https://[::ffff:127.0.0.1]/x', 'push_endpoint_not_public'], // IPv4-mapped loopback
    ['https://2130706433/x', 'push_endpoint_not_public'], // 127.0.0.1 written as a number
    ['https://8.8.8.8:8443/x', 'push_endpoint_invalid'], // another port than https's own
    ['https://user:secret@8.8.8.8/x', 'push_endpoint_invalid'],
  ];
  for (const [endpoint, code] of refused) {
    const res = await subscribe(user, endpoint);
    expect({ endpoint, status: res.status }).toEqual({ endpoint, status: 400 });
    const body = (await res.json()) as { code: string; message: string };
    expect({ endpoint, code: body.code }).toEqual({ endpoint, code });
    expect(body.message).toMatch(/push endpoint/);
  }
  const { rows } = await server.db.pool.query(
    'select endpoint from pacta_private.push_subscriptions where user_id = $1',
    [user.id],
  );
  expect(rows).toEqual([]);

  // A push service on the open internet is accepted (nothing is sent until a notification is made).
  const ok = await subscribe(user, 'https://8.8.8.8/push/device-1');
  expect(ok.status).toBe(201);
  await fetch(`${server.url}/api/push/subscriptions`, {
    method: 'DELETE',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${user.accessToken}` },
    body: JSON.stringify({ endpoint: 'https://8.8.8.8/push/device-1' }),
  });
});

test('at send time the endpoint is checked again: a stored subscription to a local address gets no request and is dropped', async () => {
  const user = await server.createUser({ role: 'creator' });
  // Stored before the rule existed (or its host resolved elsewhere when the device subscribed).
  const endpoint = `${localOrigin}/push/stored-${user.id}`;
  const k = keys();
  await server.db.asService((tx) =>
    tx.query(`insert into pacta_private.push_subscriptions (endpoint, user_id, p256dh, auth) values ($1, $2, $3, $4)`, [
      endpoint,
      user.id,
      k.p256dh,
      k.auth,
    ]),
  );
  await server.db.asService((tx) =>
    tx.query(
      `insert into public.notifications (user_id, type, title, message, data) values ($1, 'test', 'Hello', 'Details', '{}')`,
      [user.id],
    ),
  );
  await eventually(async () => {
    const { rows } = await server.db.pool.query('select 1 from pacta_private.push_subscriptions where endpoint = $1', [
      endpoint,
    ]);
    return rows.length === 0 || null;
  });
  expect(received).not.toContain(`/push/stored-${user.id}`);
});
