import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, expect, test } from 'vitest';
import { prepareDocument } from '../../src/db/index.ts';
import { freePort } from '../support/free-port.ts';
import { createTestDatabase } from '../support/test-database.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';
import { createTestClient, eventually, newId, type TestClient } from '../sync/sync-harness.ts';

// Faults survived: the server killed with SIGKILL in the middle of a push batch leaves nothing
// half-written and the client resumes; Postgres unreachable or restarting gives 503 JSON and the
// server recovers by itself.

const KILLS = Number(process.env.FAULT_KILLS ?? 20);
const SEED = Number(process.env.FAULT_SEED ?? 7);
const root = path.resolve(import.meta.dirname, '../..');

const cleanup: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const step of cleanup.reverse()) await step().catch(() => {});
});

/**
 * The public address both the signing test server and the server process name as the tokens' issuer:
 * a deployment refuses a loopback PUBLIC_URL. Requests still go to 127.0.0.1.
 */
const PUBLIC_URL = 'https://pacta.example.test';

/**
 * The real server (`npm run serve`'s sync-server/main.ts) as its own process, so it can be killed
 * outright. With DATABASE_URL it is a deployment: it gets the settings a deployment needs (an SMTP
 * URL nothing is sent to, payments off).
 */
function startServerProcess(databaseUrl: string, port: number): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'sync-server/main.ts'], {
    cwd: root,
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'silent',
      EMAIL_CONFIRMATION: 'off',
      PUBLIC_URL,
      SMTP_URL: 'smtp://127.0.0.1:9',
      PAYMENTS: 'off',
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (d) => (stderr += String(d)));
  return eventually(async () => {
    if (child.exitCode !== null) throw new Error(`server exited ${child.exitCode}: ${stderr}`);
    const res = await fetch(`http://127.0.0.1:${port}/api/health`).catch(() => undefined);
    return res?.ok ? child : undefined;
  }, 60_000);
}

test(
  `the server killed (SIGKILL) in the middle of a push batch, ${KILLS} times: all or nothing of each batch, and the client resumes`,
  async () => {
    const database = await createTestDatabase();
    cleanup.push(database.drop);
    const port = await freePort();
    // Tokens are signed with the key stored in the database, for the issuer PUBLIC_URL/auth/v1.
    const signer = await startTestServer({ databaseUrl: database.url, port, env: { PUBLIC_URL } });
    const user = await signer.createUser({ role: 'creator' });
    await signer.close({ keepDatabase: true });

    let child = await startServerProcess(database.url, port);
    cleanup.push(async () => void child.kill('SIGKILL'));
    const client: TestClient = await createTestClient({ url: `http://127.0.0.1:${port}` }, user, ['drafts']);
    cleanup.push(() => client.close({ remove: true }));

    const delays = fc.sample(fc.integer({ min: 0, max: 300 }), { seed: SEED, numRuns: KILLS });
    const batch = 40;
    const counts: string[] = [];
    const startMs: number[] = [];
    for (let round = 0; round < KILLS; round++)
      await killRound(round).catch((err: unknown) => {
        // Said at once: a long soak's summary only comes at its very end.
        console.log(
          `SIGKILL mid-push failed in round ${round + 1} of ${KILLS}: ${err instanceof Error ? err.message : String(err)}`,
        );
        throw err;
      });
    async function killRound(round: number) {
      const ids = Array.from({ length: batch }, () => newId());
      let killed: Promise<void> | undefined;
      client.network.delayMs = (url) => {
        if (!killed && url.includes('/drafts/push')) {
          const target = child;
          killed = new Promise<void>((resolve) => {
            target.once('exit', () => resolve());
            setTimeout(() => target.kill('SIGKILL'), delays[round]);
          });
        }
        return 0;
      };
      await client.db.collections.drafts.bulkInsert(
        ids.map((id, i) =>
          prepareDocument('drafts', {
            id,
            user_id: user.id,
            kind: 'deal',
            title: `Round ${round} draft ${i}`,
          } as never),
        ),
      );
      await eventually(() => killed !== undefined, 20_000).catch((err) => {
        throw new Error(
          `no push in round ${round}: ${JSON.stringify(client.network.calls.slice(-5))} ${JSON.stringify(client.replication.syncStatus)}`,
          { cause: err },
        );
      });
      await killed;
      const { rows } = await signerPool(
        database.url,
        `select count(*)::int as n from public.drafts where id = any($1::uuid[])`,
        [ids],
      );
      const onServer = rows[0]!.n;
      counts.push(String(onServer));
      expect([0, batch], `round ${round}: rows of the batch on the server right after the kill`).toContain(onServer);

      client.network.delayMs = () => 0;
      const startedAt = Date.now();
      child = await startServerProcess(database.url, port);
      startMs.push(Date.now() - startedAt);
      await eventually(async () => {
        const { rows: after } = await signerPool(
          database.url,
          `select count(*)::int as n from public.drafts where id = any($1::uuid[])`,
          [ids],
        );
        return after[0]!.n === batch;
      }, 30_000);
      // A long soak says how far it got (it may be stopped before the end).
      if (KILLS > 20 && (round + 1) % 10 === 0)
        console.log(
          `SIGKILL mid-push progress: ${round + 1} of ${KILLS} kills, every batch all or nothing and then complete`,
        );
    }
    await client.replication.awaitInSync();
    const { rows } = await signerPool(
      database.url,
      `select count(*)::int as n, count(distinct title)::int as titles from public.drafts where user_id = $1`,
      [user.id],
    );
    expect(rows[0]).toEqual({ n: KILLS * batch, titles: KILLS * batch });
    const local = await client.db.collections.drafts.find().exec();
    expect(local.length).toBe(KILLS * batch);
    console.log(
      `SIGKILL mid-push: ${KILLS} kills (seed ${SEED}); rows of the batch on the server at each kill: ${counts.join(' ')}; restarts took ${startMs.join(' ')} ms`,
    );
  },
  Math.max(600_000, KILLS * 30_000),
);

/** A short-lived connection to the test database (the server process has its own pool). */
async function signerPool(url: string, sql: string, values: unknown[]): Promise<{ rows: Record<string, number>[] }> {
  const pg = (await import('pg')).default;
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return await c.query(sql, values);
  } finally {
    await c.end();
  }
}

/** A TCP relay in front of Postgres that the test can cut (unreachable) and restore. */
async function relayTo(target: URL): Promise<{ port: number; down(): void; up(): void; close(): Promise<void> }> {
  let reachable = true;
  const sockets = new Set<net.Socket>();
  const relay = net.createServer((socket) => {
    if (!reachable) return socket.destroy();
    const upstream = net.connect(Number(target.port), target.hostname);
    sockets.add(socket).add(upstream);
    socket.pipe(upstream).pipe(socket);
    const end = () => {
      socket.destroy();
      upstream.destroy();
      sockets.delete(socket);
      sockets.delete(upstream);
    };
    socket.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
  });
  await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
  return {
    port: (relay.address() as net.AddressInfo).port,
    down() {
      reachable = false;
      for (const s of sockets) s.destroy();
    },
    up() {
      reachable = true;
    },
    close: () => new Promise((resolve) => relay.close(() => resolve())),
  };
}

test('Postgres unreachable or restarting: 503 JSON { code, message }, then the server recovers by itself', async () => {
  const database = await createTestDatabase();
  cleanup.push(database.drop);
  const direct = new URL(database.url);
  const relay = await relayTo(direct);
  cleanup.push(relay.close);
  const viaRelay = new URL(database.url);
  viaRelay.port = String(relay.port);
  const server: TestServer = await startTestServer({ databaseUrl: viaRelay.toString() });
  cleanup.push(() => server.close({ keepDatabase: true }));
  const user = await server.createUser({ role: 'creator' });
  const pull = () =>
    fetch(`${server.url}/sync/v1/drafts/pull`, {
      headers: { authorization: `Bearer ${user.accessToken}`, 'x-pacta-protocol': '1' },
    });
  expect((await pull()).status).toBe(200);

  relay.down();
  for (const res of [
    await pull(),
    await fetch(`${server.url}/api/contact`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'A', email: 'a@example.test', subject: 'general', message: 'Hi' }),
    }),
  ]) {
    expect(res.status).toBe(503);
    expect(await res.json()).toMatchObject({ code: 'database_unavailable', message: expect.any(String) });
  }
  const health = await fetch(`${server.url}/api/health`);
  expect(health.status).toBe(503);

  relay.up();
  await eventually(async () => (await pull()).status === 200, 30_000);

  // A restart as Postgres does it: every connection of the server is terminated (SQLSTATE 57P01).
  const admin = new URL(database.url);
  const pg = (await import('pg')).default;
  const c = new pg.Client({ connectionString: admin.toString() });
  await c.connect();
  await c.query(
    `select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()`,
  );
  await c.end();
  const afterRestart = await pull();
  expect([200, 503]).toContain(afterRestart.status);
  if (afterRestart.status === 503) expect(await afterRestart.json()).toMatchObject({ code: 'database_unavailable' });
  await eventually(async () => (await pull()).status === 200, 30_000);
  // Nothing half-done: a push after recovery lands.
  const draft = { id: newId(), user_id: user.id, kind: 'deal', title: 'After the restart', _deleted: false };
  const pushed = await fetch(`${server.url}/sync/v1/drafts/push`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${user.accessToken}`,
      'x-pacta-protocol': '1',
      'content-type': 'application/json',
    },
    body: JSON.stringify({ rows: [{ newDocumentState: draft }] }),
  });
  expect(pushed.status).toBe(200);
}, 120_000);
