import { afterAll, beforeAll, expect, test } from 'vitest';
import { startTestServer, type TestServer } from '../support/test-server.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

const valid = {
  name: 'Ada Lovelace',
  email: 'ada@example.test',
  subject: 'partnership',
  message: 'We would like to partner.',
};
const post = (body: string, headers: Record<string, string> = {}) =>
  fetch(`${server.url}/api/contact`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body,
  });
const stored = async () =>
  (
    await server.db.pool.query(
      'select name, email, subject, message, user_id from public.contact_messages order by created_at',
    )
  ).rows;

test('a signed-out visitor’s contact message is stored for staff', async () => {
  const res = await post(JSON.stringify({ ...valid, name: '  Ada Lovelace  ' }));
  expect(res.status).toBe(201);
  expect(await stored()).toContainEqual({ ...valid, user_id: null });
});

test('a signed-in sender is linked to the message', async () => {
  const user = await server.createUser({ role: 'creator' });
  const res = await post(JSON.stringify({ ...valid, message: 'From a creator' }), {
    authorization: `Bearer ${user.accessToken}`,
  });
  expect(res.status).toBe(201);
  expect(await stored()).toContainEqual({ ...valid, message: 'From a creator', user_id: user.id });
});

test('bad input gets a 400 with a code and nothing is written', async () => {
  const before = (await stored()).length;
  for (const body of [
    '{"name":',
    JSON.stringify({ ...valid, email: 'not-an-email' }),
    JSON.stringify({ ...valid, subject: 'spam' }),
    JSON.stringify({ ...valid, message: '   ' }),
    JSON.stringify({ ...valid, name: 42 }),
  ]) {
    const res = await post(body);
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: expect.any(String), message: expect.any(String) });
  }
  const bad = await post(JSON.stringify(valid), { authorization: 'Bearer not-a-token' });
  expect(bad.status).toBe(401);
  expect(await stored()).toHaveLength(before);
});

test('a missing asset file is a 404, never the app page', async () => {
  const res = await fetch(`${server.url}/assets/old-build-123.js`);
  expect(res.status).toBe(404);
});

test('one IP address may send only so many messages per hour, counted across server instances', async () => {
  // Two instances on one database, as in production behind a load balancer.
  const first = await startTestServer({ env: { CONTACT_RATE_LIMIT_PER_IP: '3' } });
  const second = await startTestServer({ databaseUrl: first.databaseUrl, env: { CONTACT_RATE_LIMIT_PER_IP: '3' } });
  try {
    const send = (s: TestServer, message: string) =>
      fetch(`${s.url}/api/contact`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ ...valid, message }),
      });
    // An invalid message is refused before the limit and does not count.
    expect((await fetch(`${first.url}/api/contact`, { method: 'POST', body: '{}' })).status).toBe(400);
    expect((await send(first, 'one')).status).toBe(201);
    expect((await send(second, 'two')).status).toBe(201);
    expect((await send(first, 'three')).status).toBe(201);
    for (const s of [first, second]) {
      const refused = await send(s, 'four');
      expect(refused.status).toBe(429);
      expect(await refused.json()).toEqual({
        code: 'contact_rate_limited',
        message: 'You have sent several messages in a short time. Please wait an hour before sending another.',
        request_id: expect.any(String),
      });
    }
    const { rows } = await first.db.pool.query('select message from public.contact_messages order by created_at');
    expect(rows.map((r) => r.message)).toEqual(['one', 'two', 'three']);
  } finally {
    await second.close({ keepDatabase: true });
    await first.close();
  }
});
