import { createECDH, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startTestServer, type TestServer, type TestUser } from '../support/test-server.ts';
import { eventually } from '../sync/sync-harness.ts';

// Three server instances on one database push the queued notifications (pacta_private.push_outbox) to
// a push service running here, which counts what it receives: each notification arrives once, a claim
// left by an instance that died is taken over after its lease, and a send that instance had started is
// never repeated.

let instances: TestServer[];
let pushService: http.Server;
let pushOrigin: string;
const received = new Map<string, number>();

beforeAll(async () => {
  pushService = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      received.set(req.url ?? '', (received.get(req.url ?? '') ?? 0) + 1);
      res.statusCode = 201;
      res.end();
    });
  });
  await new Promise<void>((resolve) => pushService.listen(0, '127.0.0.1', resolve));
  pushOrigin = `http://127.0.0.1:${(pushService.address() as AddressInfo).port}`;
  // The local push service is on loopback, which only a test's own server may push to.
  const trustedPushOrigins = [pushOrigin];
  const first = await startTestServer({ trustedPushOrigins });
  instances = [
    first,
    await startTestServer({ databaseUrl: first.databaseUrl, trustedPushOrigins }),
    await startTestServer({ databaseUrl: first.databaseUrl, trustedPushOrigins }),
  ];
});
afterAll(async () => {
  for (const s of (instances ?? []).slice(1)) await s.close({ keepDatabase: true });
  await instances?.[0]?.close();
  await new Promise((resolve) => pushService?.close(resolve));
});

const server = () => instances[0]!;
const sql = (text: string, params: unknown[] = []) => server().db.pool.query(text, params);

/** A user with one subscribed device whose pushes arrive at `/push/<user id>`. */
async function subscribedUser(): Promise<TestUser> {
  const user = await server().createUser({ role: 'creator' });
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  const response = await fetch(`${server().url}/api/push/subscriptions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${user.accessToken}` },
    body: JSON.stringify({
      endpoint: `${pushOrigin}/push/${user.id}`,
      keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: randomBytes(16).toString('base64url') },
    }),
  });
  expect(response.status).toBe(201);
  return user;
}

const notify = (userId: string, title = 'Application accepted') =>
  sql(
    `insert into public.notifications (user_id, type, title, message) values ($1, 'test', $2, 'Details') returning id`,
    [userId, title],
  ).then((r) => r.rows[0].id as string);

/** A notification queued past the trigger, as an instance left it: claimed by `claimedBy`, maybe mid-send. */
async function leftByAnInstance(userId: string, outbox: { leaseEndsInSeconds: number; sending: boolean }) {
  const { rows } = await server().db.asService(async (tx) => {
    await tx.query('set local session_replication_role = replica');
    const n = await tx.query(
      `insert into public.notifications (user_id, type, title, message) values ($1, 'test', 'Left over', 'Details') returning id`,
      [userId],
    );
    return tx.query(
      `insert into pacta_private.push_outbox (notification_id, claimed_by, lease_until, sending_since)
       values ($1, 'a-stopped-instance', now() + $2 * interval '1 second', case when $3 then now() end) returning id`,
      [n.rows[0].id, outbox.leaseEndsInSeconds, outbox.sending],
    );
  });
  return rows[0].id as number;
}

const outboxIds = async () =>
  (await sql('select id from pacta_private.push_outbox order by id')).rows.map((r) => r.id as number);
const pushesTo = (user: TestUser) => received.get(`/push/${user.id}`) ?? 0;

test('with three instances, each of many notifications is pushed exactly once', async () => {
  const users = await Promise.all(Array.from({ length: 40 }, subscribedUser));
  // One notification per user, so a notification pushed twice shows as a device receiving two.
  await Promise.all(users.map((u) => notify(u.id)));
  await eventually(async () => users.every((u) => pushesTo(u) >= 1) && (await outboxIds()).length === 0, 60_000);
  // The outbox is empty: every send has been answered (a row goes only after its requests), so no
  // push is still on its way.
  expect(users.map(pushesTo)).toEqual(users.map(() => 1));
});

test('a claim left by an instance that died is taken over when its lease runs out; a send it started is never repeated', async () => {
  const [expired, held, midSend, sentinel] = await Promise.all(Array.from({ length: 4 }, subscribedUser));
  await leftByAnInstance(expired!.id, { leaseEndsInSeconds: -1, sending: false });
  const heldRow = await leftByAnInstance(held!.id, { leaseEndsInSeconds: 3600, sending: false });
  const midSendRow = await leftByAnInstance(midSend!.id, { leaseEndsInSeconds: -1, sending: true });
  // A fresh notification wakes the instances (NOTIFY pacta_push) and shows when their drain has passed.
  await notify(sentinel!.id);

  await eventually(async () => pushesTo(sentinel!) === 1 && pushesTo(expired!) === 1);
  await eventually(async () => (await outboxIds()).join() === [heldRow, midSendRow].join());
  expect([pushesTo(expired!), pushesTo(held!), pushesTo(midSend!)]).toEqual([1, 0, 0]);

  // The other instance's lease runs out: its notification goes out, once.
  await sql(`update pacta_private.push_outbox set lease_until = now() - interval '1 second' where id = $1`, [heldRow]);
  await notify(sentinel!.id, 'Second');
  await eventually(async () => pushesTo(sentinel!) === 2 && pushesTo(held!) === 1);
  await eventually(async () => (await outboxIds()).join() === String(midSendRow));

  // Ten minutes after its send began, a send nobody finished is dropped, still not sent again.
  await sql(`update pacta_private.push_outbox set sending_since = now() - interval '11 minutes' where id = $1`, [
    midSendRow,
  ]);
  await notify(sentinel!.id, 'Third');
  await eventually(async () => pushesTo(sentinel!) === 3 && (await outboxIds()).length === 0);
  expect([pushesTo(expired!), pushesTo(held!), pushesTo(midSend!)]).toEqual([1, 1, 0]);
});

test("a device whose keys cannot be used does not hold back the user's other devices, nor the queue", async () => {
  const user = await subscribedUser();
  // A subscription stored with a key no browser makes (65 bytes expected): web-push refuses to encrypt.
  await sql(`insert into pacta_private.push_subscriptions (endpoint, user_id, p256dh, auth) values ($1, $2, $3, $4)`, [
    `${pushOrigin}/push/broken-${user.id}`,
    user.id,
    'A'.repeat(60),
    randomBytes(16).toString('base64url'),
  ]);
  await notify(user.id);
  await eventually(async () => pushesTo(user) === 1 && (await outboxIds()).length === 0);
  expect(received.get(`/push/broken-${user.id}`)).toBeUndefined();
});
