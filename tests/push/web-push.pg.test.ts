import { createDecipheriv, createECDH, hkdfSync, randomBytes, type ECDH } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { importJWK, jwtVerify } from 'jose';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startTestServer, type TestServer, type TestUser } from '../support/test-server.ts';
import { eventually } from '../sync/sync-harness.ts';

// Web Push end to end on the server side: a real push request (VAPID-signed, aes128gcm-encrypted by the
// web-push package) reaches a push service running here, which checks it the way a browser vendor's
// would, and decrypts it with the subscription's private key as the browser would.

type Received = { headers: http.IncomingHttpHeaders; body: Buffer; path: string };

let server: TestServer;
let pushService: http.Server;
let pushOrigin: string;
const received: Received[] = [];
/** Paths the push service answers 410 Gone (an unsubscribed browser). */
const gone = new Set<string>();

beforeAll(async () => {
  pushService = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = req.url ?? '';
      received.push({ headers: req.headers, body: Buffer.concat(chunks), path });
      res.statusCode = gone.has(path) ? 410 : 201;
      res.end();
    });
  });
  await new Promise<void>((resolve) => pushService.listen(0, '127.0.0.1', resolve));
  pushOrigin = `http://127.0.0.1:${(pushService.address() as AddressInfo).port}`;
  // The push service runs on loopback, which the server refuses for any other endpoint.
  server = await startTestServer({ trustedPushOrigins: [pushOrigin] });
});
afterAll(async () => {
  await server?.close();
  await new Promise((resolve) => pushService?.close(resolve));
});

const b64url = (b: Buffer) => b.toString('base64url');

/** What a browser makes when it subscribes: a P-256 key pair and a 16-byte auth secret. */
function browserSubscription(path: string) {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  const authSecret = randomBytes(16);
  return {
    ecdh,
    authSecret,
    json: { endpoint: `${pushOrigin}${path}`, keys: { p256dh: b64url(ecdh.getPublicKey()), auth: b64url(authSecret) } },
  };
}

async function subscribe(user: TestUser, body: unknown): Promise<Response> {
  return fetch(`${server.url}/api/push/subscriptions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${user.accessToken}` },
    body: JSON.stringify(body),
  });
}

async function notify(userId: string, title: string, data: Record<string, unknown>) {
  await server.db.asService((tx) =>
    tx.query(
      `insert into public.notifications (user_id, type, title, message, data) values ($1, 'test', $2, 'Details here', $3)`,
      [userId, title, data],
    ),
  );
}

/** RFC 8291 / RFC 8188 decryption, as the receiving browser does it. */
function decrypt(body: Buffer, ecdh: ECDH, authSecret: Buffer): string {
  const salt = body.subarray(0, 16);
  const idLength = body.readUInt8(20);
  const serverPublicKey = body.subarray(21, 21 + idLength);
  const record = body.subarray(21 + idLength);
  const shared = ecdh.computeSecret(serverPublicKey);
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), ecdh.getPublicKey(), serverPublicKey]);
  const ikm = Buffer.from(hkdfSync('sha256', shared, authSecret, keyInfo, 32));
  const cek = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: aes128gcm\0'), 16));
  const nonce = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: nonce\0'), 12));
  const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
  decipher.setAuthTag(record.subarray(record.length - 16));
  const padded = Buffer.concat([decipher.update(record.subarray(0, record.length - 16)), decipher.final()]);
  // The last record ends with the delimiter 0x02 followed by zero padding.
  const end = padded.lastIndexOf(2);
  expect(padded.subarray(end + 1).every((b) => b === 0)).toBe(true);
  return padded.subarray(0, end).toString('utf8');
}

test('a notification reaches the subscribed device as a VAPID-signed, encrypted push', async () => {
  const user = await server.createUser({ role: 'creator' });
  const device = browserSubscription(`/push/${user.id}`);
  expect((await subscribe(user, device.json)).status).toBe(201);
  const { publicKey } = (await (await fetch(`${server.url}/api/push/public-key`)).json()) as { publicKey: string };

  await notify(user.id, 'Application accepted', { deal_id: 'd-1', application_id: 'a-1' });
  const push = await eventually(() => received.find((r) => r.path === `/push/${user.id}`));

  expect(push.headers['content-encoding']).toBe('aes128gcm');
  expect(Number(push.headers.ttl)).toBeGreaterThan(0);
  // Authorization: vapid t=<JWT signed with the server's key>, k=<that public key>
  const match = /^vapid t=([^,]+), k=(.+)$/.exec(String(push.headers.authorization));
  expect(match).not.toBeNull();
  const [, jwt, k] = match as unknown as [string, string, string];
  expect(k).toBe(publicKey);
  const point = Buffer.from(k, 'base64url');
  const key = await importJWK(
    { kty: 'EC', crv: 'P-256', x: b64url(point.subarray(1, 33)), y: b64url(point.subarray(33, 65)) },
    'ES256',
  );
  const { payload, protectedHeader } = await jwtVerify(jwt, key, { audience: pushOrigin });
  expect(protectedHeader.alg).toBe('ES256');
  expect(payload.sub).toMatch(/^(mailto:|https:)/);
  expect(payload.exp).toBeGreaterThan(Date.now() / 1000);

  expect(JSON.parse(decrypt(push.body, device.ecdh, device.authSecret))).toEqual({
    title: 'Application accepted',
    body: 'Details here',
    url: '/deals/d-1',
    tag: expect.stringMatching(/^notification:/),
    notificationId: expect.any(String),
  });
});

test('a subscription the push service answers 410 Gone is dropped', async () => {
  const user = await server.createUser({ role: 'brand' });
  const device = browserSubscription(`/push/gone-${user.id}`);
  gone.add(`/push/gone-${user.id}`);
  expect((await subscribe(user, device.json)).status).toBe(201);
  const stored = () =>
    server.db.pool
      .query('select count(*)::int as n from pacta_private.push_subscriptions where user_id = $1', [user.id])
      .then((r) => r.rows[0].n);
  expect(await stored()).toBe(1);

  await notify(user.id, 'New application', { deal_id: 'd-2' });
  await eventually(() => received.some((r) => r.path === `/push/gone-${user.id}`));
  await eventually(async () => (await stored()) === 0 || null);
});

test('subscribing needs a signed-in user and a well-formed subscription; unsubscribing removes it', async () => {
  const user = await server.createUser({ role: 'creator' });
  const device = browserSubscription(`/push/off-${user.id}`);
  const anonymous = await fetch(`${server.url}/api/push/subscriptions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(device.json),
  });
  expect(anonymous.status).toBe(401);
  const bad = await subscribe(user, { endpoint: 'javascript:alert(1)', keys: { p256dh: 'x', auth: 'y' } });
  expect(bad.status).toBe(400);
  expect(((await bad.json()) as { code: string }).code).toBe('validation_failed');

  expect((await subscribe(user, device.json)).status).toBe(201);
  const off = await fetch(`${server.url}/api/push/subscriptions`, {
    method: 'DELETE',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${user.accessToken}` },
    body: JSON.stringify({ endpoint: device.json.endpoint }),
  });
  expect(off.status).toBe(204);
  await notify(user.id, 'Level Up!', { level: 2 });
  // Another user's notification goes out after it; by then this one would have been sent too.
  const other = await server.createUser({ role: 'creator' });
  const otherDevice = browserSubscription(`/push/after-${other.id}`);
  expect((await subscribe(other, otherDevice.json)).status).toBe(201);
  await notify(other.id, 'Level Up!', { level: 2 });
  await eventually(() => received.some((r) => r.path === `/push/after-${other.id}`));
  expect(received.some((r) => r.path === `/push/off-${user.id}`)).toBe(false);
});

test('with several server instances on one database, each notification is pushed exactly once', async () => {
  const second = await startTestServer({ databaseUrl: server.databaseUrl, trustedPushOrigins: [pushOrigin] });
  try {
    const user = await server.createUser({ role: 'creator' });
    const device = browserSubscription(`/push/twice-${user.id}`);
    expect((await subscribe(user, device.json)).status).toBe(201);
    const titles = Array.from({ length: 8 }, (_, i) => `Update ${i}`);
    for (const title of titles) await notify(user.id, title, { deal_id: `d-${title}` });
    const mine = () => received.filter((r) => r.path === `/push/twice-${user.id}`);
    await eventually(() => mine().length >= titles.length || null);
    // Both instances were woken by every notice; give a duplicate the time to show up.
    await new Promise((r) => setTimeout(r, 500));
    const got = mine().map(
      (r) => (JSON.parse(decrypt(r.body, device.ecdh, device.authSecret)) as { title: string }).title,
    );
    expect(got.sort()).toEqual([...titles].sort());
  } finally {
    await second.close({ keepDatabase: true });
  }
});
