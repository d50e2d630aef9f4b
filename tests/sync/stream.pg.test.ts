import * as jose from 'jose';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { SYNC_PROTOCOL_VERSION } from '../../src/domain/collections/index.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';
import { eventually, insertDeals, newId, openTestStream } from './sync-harness.ts';

let server: TestServer;
let second: TestServer | undefined;
const streams: { close(): void }[] = [];
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  streams.forEach((s) => s.close());
  await second?.close({ keepDatabase: true });
  await server?.close();
});

async function stream(url: string, token: string) {
  const s = await openTestStream(url, token);
  streams.push(s);
  expect(s.status).toBe(200);
  expect(s.response.headers.get('content-type')).toMatch(/^text\/event-stream/);
  await eventually(() => s.events.some((e) => e.event === 'hello'));
  return s;
}

/** The same user's token as another instance issues it (the issuer is the instance's own URL). */
async function tokenFor(instance: TestServer, token: string): Promise<string> {
  const { iss: _i, aud: _a, exp: _e, iat: _t, ...claims } = jose.decodeJwt(token);
  return (await instance.app.pactaSigner!.sign(claims as { sub: string; role: string })).token;
}

const insertDraft = (userId: string) =>
  server.db.asService((tx) =>
    tx.query(`insert into public.drafts (id, user_id, kind) values ($1, $2, 'deal')`, [newId(), userId]),
  );

test('notices reach only the users a change concerns; catalog changes and admins see everything', async () => {
  const alice = await server.createUser({ role: 'creator' });
  const bob = await server.createUser({ role: 'creator' });
  const admin = await server.createUser({ role: 'admin' });
  const brand = await server.createUser({ role: 'brand' });
  const [a, b, staff] = [
    await stream(server.url, alice.accessToken),
    await stream(server.url, bob.accessToken),
    await stream(server.url, admin.accessToken),
  ];

  await insertDraft(alice.id);
  await eventually(() => a.changes().includes('drafts'));
  await eventually(() => staff.changes().includes('drafts'));
  await insertDeals(server.db, brand.id, 1);
  await eventually(() => b.changes().includes('deals') && a.changes().includes('deals'));
  expect(b.changes()).not.toContain('drafts');
});

test('a burst of commits sends one notice per collection, not one per row', async () => {
  const brand = await server.createUser({ role: 'brand' });
  const s = await stream(server.url, brand.accessToken);
  const before = s.changes().length;
  await insertDeals(server.db, brand.id, 500);
  await eventually(() => s.changes().length > before);
  await new Promise((r) => setTimeout(r, 200));
  expect(
    s
      .changes()
      .slice(before)
      .filter((c) => c === 'deals').length,
  ).toBe(1);
});

test('the LISTEN connection reconnects by itself and tells clients to re-pull', async () => {
  const user = await server.createUser({ role: 'creator' });
  const s = await stream(server.url, user.accessToken);
  const killed = await server.db.pool.query(
    `select pg_terminate_backend(pid) as ok from pg_stat_activity
      where datname = current_database() and pid <> pg_backend_pid() and query in ('listen pacta_sync', 'select 1')`,
  );
  expect(killed.rows.length).toBeGreaterThan(0);
  // Notices sent while it was down are lost, so every collection is announced once it is back.
  await eventually(() => s.changes().includes('growth') && s.changes().includes('support_messages'));
  const count = s.changes().filter((c) => c === 'drafts').length;
  await insertDraft(user.id);
  await eventually(() => s.changes().filter((c) => c === 'drafts').length > count);
});

test('a write through one server instance is announced by another instance on the same database', async () => {
  const user = await server.createUser({ role: 'creator' });
  second = await startTestServer({ databaseUrl: server.databaseUrl });
  // The second instance verifies tokens against the same key but its own issuer URL: mint one there.
  const s = await stream(second.url, await tokenFor(second, user.accessToken));
  const res = await fetch(`${server.url}/sync/v1/drafts/push`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      authorization: `Bearer ${user.accessToken}`,
      'x-pacta-protocol': String(SYNC_PROTOCOL_VERSION),
    },
    body: JSON.stringify({
      rows: [
        {
          newDocumentState: {
            id: newId(),
            user_id: user.id,
            kind: 'deal',
            title: 'Via instance one',
            payload: {},
            _deleted: false,
          },
        },
      ],
    }),
  });
  expect(res.status).toBe(200);
  await eventually(() => s.changes().includes('drafts'));
});

test('the stream ends when the server shuts down, so clients reconnect elsewhere', async () => {
  const user = await server.createUser({ role: 'creator' });
  const other = await startTestServer({ databaseUrl: server.databaseUrl });
  const s = await openTestStream(other.url, await tokenFor(other, user.accessToken));
  await eventually(() => s.events.some((e) => e.event === 'hello'));
  await other.close({ keepDatabase: true });
  await eventually(() => s.ended);
});
