/**
 * npm run bench:fanout — what one new deal costs when N devices are online, on loopback, with the
 * real sync server (one instance, in its own process) on an embedded Postgres (real migrations).
 *
 * For each N in BENCH_DEVICES (default 100, 1000, 5000): N devices of BENCH_USERS users (creators
 * free and Pro, brands) open their change streams, each holding its own `deals` checkpoint, in
 * BENCH_READERS device processes (support/fanout-devices.ts). Then BENCH_ROUNDS times one deal is
 * committed and every device reacts to the stream as the app does: on a `change` notice it pulls `deals`
 * from its checkpoint with its scope until the deal is in its hands; on a `rows` event that follows its
 * checkpoint it applies the rows without a pull (BENCH_PROTOCOL=1: devices of the protocol before rows
 * were streamed, which get notices only). Printed per N: the statements the server
 * sent to Postgres per new deal (counted in the server process), HTTP pulls and devices that applied the
 * deal from the stream, the server's CPU time
 * per new deal, notice → pulled and commit → pulled p50/p95 over all devices and rounds. Beside them
 * the raw limits: one pull alone (one device, nothing else running) and commit → notice (the stream
 * fan-out without any pull). The machine's load average is printed with the figures. With
 * BENCH_PROFILE=<dir>, the server's CPU profile of each N's last round is written there.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { createDatabase, type Database } from '../sync-server/db/database.ts';
import { startEmbeddedPostgres } from '../sync-server/db/embedded.ts';
import { migrate } from '../sync-server/db/migrate.ts';
import { loadLocalSigner } from '../sync-server/auth/tokens.ts';
import { SYNC_PROTOCOL_HEADER, SYNC_PROTOCOL_VERSION } from '../src/domain/collections/index.ts';
import { freePort } from '../tests/support/free-port.ts';

const DEVICES = (process.env.BENCH_DEVICES ?? '100,1000,5000').split(',').map(Number);
const USERS = Number(process.env.BENCH_USERS ?? 60);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const READERS = Math.max(1, Number(process.env.BENCH_READERS ?? 2));
const CATALOGUE = Number(process.env.BENCH_CATALOGUE ?? 200);
const ROUND_DEADLINE_MS = 30_000;
const P95_GOAL_MS = 500;

const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' / ');
const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
};
const ms = (v: number) => `${v.toFixed(0)} ms`;

type Kind = 'creator' | 'creator-pro' | 'brand';
const kindOf = (i: number): Kind => (['creator', 'creator', 'creator-pro', 'brand'] as const)[i % 4]!;

async function createUser(db: Database, kind: Kind): Promise<{ id: string; sessionId: string }> {
  const id = randomUUID();
  const sessionId = randomUUID();
  const role = kind === 'brand' ? 'brand' : 'creator';
  await db.asService(async (tx) => {
    await tx.query(
      `insert into auth.users (instance_id, id, aud, role, email, encrypted_password, email_confirmed_at, raw_app_meta_data, raw_user_meta_data, created_at, updated_at)
       values ('00000000-0000-0000-0000-000000000000', $1, 'authenticated', 'authenticated', $2, '', now(), '{"provider":"email","providers":["email"]}', $3, now(), now())`,
      [id, `fanout-${id.slice(0, 8)}@bench.test`, { role, full_name: 'Fan-out bench' }],
    );
    await tx.query(
      `insert into public.profiles (id, role, full_name) values ($1, $2, 'Fan-out bench') on conflict (id) do update set role = excluded.role`,
      [id, role],
    );
    if (kind === 'creator-pro')
      await tx.query(
        `update public.profiles set pro_tier = 'basic', pro_since = now(), pro_until = now() + interval '30 days' where id = $1`,
        [id],
      );
    await tx.query(
      `insert into auth.sessions (id, user_id, created_at, updated_at, aal) values ($1, $2, now(), now(), 'aal1')`,
      [sessionId, id],
    );
  });
  return { id, sessionId };
}

function startServer(databaseUrl: string, port: number): Promise<ChildProcess> {
  const child = fork(path.join(import.meta.dirname, 'support/fanout-server.ts'), {
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, DATABASE_URL: databaseUrl, PORT: String(port), PUBLIC_URL: `http://127.0.0.1:${port}` },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    child.once('message', () => resolve(child));
    child.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
  });
}

function usageOf(server: ChildProcess): Promise<{ cpuMs: number; statements: number }> {
  return new Promise((resolve) => {
    server.once('message', (m) => resolve(m as { cpuMs: number; statements: number }));
    server.send('usage');
  });
}

type DeviceMessage = {
  ready?: true;
  opened?: number;
  armed?: number;
  done?: number;
  noticeAt?: number[];
  pulledAt?: number[];
  pulls?: number;
  applied?: number;
  failures?: number;
};

async function startDevices(port: number, devices: { token: string; checkpoint: unknown }[]) {
  const child = fork(path.join(import.meta.dirname, 'support/fanout-devices.ts'), {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const waiting: { pick: (m: DeviceMessage) => boolean; resolve: (m: DeviceMessage) => void }[] = [];
  child.on('message', (m: DeviceMessage) => {
    const at = waiting.findIndex((w) => w.pick(m));
    if (at >= 0) waiting.splice(at, 1)[0]!.resolve(m);
  });
  const next = (pick: (m: DeviceMessage) => boolean) =>
    new Promise<DeviceMessage>((resolve) => waiting.push({ pick, resolve }));
  await next((m) => m.ready === true);
  child.send({ open: { port, devices } });
  await next((m) => m.opened === devices.length);
  return { child, next };
}

const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'pacta-fanout-bench-'));
const pg = await startEmbeddedPostgres({ dataDir, port: await freePort() });
let server: ChildProcess | undefined;
try {
  await migrate(pg.url, { localBootstrap: true, seed: false });
  const db = createDatabase(pg.url);
  const port = await freePort();
  server = await startServer(pg.url, port);
  const signer = await loadLocalSigner(db, `http://127.0.0.1:${port}/auth/v1`, 3600);
  const users = await Promise.all(Array.from({ length: USERS }, (_, i) => createUser(db, kindOf(i))));
  const publisher = await createUser(db, 'brand');
  const newDeal = async (title: string) => {
    const id = randomUUID();
    await db.asService((tx) =>
      tx.query(
        `insert into public.deals (id, brand_id, title, description, amount_cents, niches) values ($1, $2, $3, 'Live', 20000, '{tech}')`,
        [id, publisher.id, title],
      ),
    );
    return id;
  };
  for (let i = 0; i < CATALOGUE; i++) await newDeal(`Catalogue deal ${i}`);
  const tokens = await Promise.all(
    users.map(
      async (u) =>
        (
          await signer.sign({
            sub: u.id,
            role: 'authenticated',
            aal: 'aal1',
            is_anonymous: false,
            session_id: u.sessionId,
          })
        ).token,
    ),
  );
  const pullAs = async (token: string, checkpoint: unknown) => {
    const params = new URLSearchParams({ limit: '1000' });
    if (checkpoint) params.set('checkpoint', JSON.stringify(checkpoint));
    const res = await fetch(`http://127.0.0.1:${port}/sync/v1/deals/pull?${params}`, {
      headers: { authorization: `Bearer ${token}`, [SYNC_PROTOCOL_HEADER]: String(SYNC_PROTOCOL_VERSION) },
    });
    if (!res.ok) throw new Error(`pull answered ${res.status}: ${await res.text()}`);
    return (await res.json()) as { documents: { id: string }[]; checkpoint: unknown };
  };
  /** Every user's checkpoint after the whole catalogue, as a device that is in step holds it. */
  const caughtUp = async () => Promise.all(tokens.map(async (t) => (await pullAs(t, null)).checkpoint));

  console.log(
    `Pacta catalogue fan-out benchmark — ${os.cpus().length} CPU(s), Node ${process.version}; ${USERS} users (creators free and Pro, brands), ${CATALOGUE} deals; devices of sync protocol ${process.env.BENCH_PROTOCOL ?? SYNC_PROTOCOL_VERSION}; load average ${load()}\n`,
  );

  // Raw limit: one pull of one new deal, alone (a creator's device one deal behind, 20 times).
  const alone: number[] = [];
  for (let i = 0; i < 20; i++) {
    const before = (await pullAs(tokens[0]!, null)).checkpoint;
    await newDeal(`Alone ${i}`);
    const started = performance.now();
    await pullAs(tokens[0]!, before);
    alone.push(performance.now() - started);
  }
  {
    const before = (await pullAs(tokens[0]!, null)).checkpoint;
    await newDeal('Counted alone');
    const u0 = await usageOf(server);
    await pullAs(tokens[0]!, before);
    const u1 = await usageOf(server);
    console.log(
      `one pull alone (one device one deal behind, over HTTP): p50 ${ms(percentile(alone, 50))}, p95 ${ms(percentile(alone, 95))}; ${u1.statements - u0.statements} statements to Postgres, ${(u1.cpuMs - u0.cpuMs).toFixed(1)} ms server CPU`,
    );
  }

  for (const n of DEVICES) {
    const checkpoints = await caughtUp();
    const devices = Array.from({ length: n }, (_, i) => ({
      token: tokens[i % tokens.length]!,
      checkpoint: checkpoints[i % tokens.length],
    }));
    const shares = Array.from({ length: READERS }, (_, r) => devices.filter((_, i) => i % READERS === r));
    const openStarted = performance.now();
    const readers = await Promise.all(shares.filter((s) => s.length).map((s) => startDevices(port, s)));
    const openMs = performance.now() - openStarted;

    const noticeLat: number[] = [];
    const pulledLat: number[] = [];
    const commitToNotice: number[] = [];
    let statements = 0;
    let cpuMs = 0;
    let pulls = 0;
    let applied = 0;
    let missed = 0;
    let failures = 0;
    for (let round = 1; round <= ROUNDS; round++) {
      const dealId = randomUUID();
      await Promise.all(
        readers.map((r) => {
          const armed = r.next((m) => m.armed === round);
          r.child.send({ round, dealId });
          return armed;
        }),
      );
      const results = readers.map((r) => r.next((m) => m.done === round));
      // BENCH_PROFILE=<dir>: the server's CPU profile of each N's last round is written there.
      const profiled = process.env.BENCH_PROFILE && round === ROUNDS;
      if (profiled) server.send({ profile: n });
      const before = await usageOf(server);
      await db.asService((tx) =>
        tx.query(
          `insert into public.deals (id, brand_id, title, description, amount_cents, niches) values ($1, $2, $3, 'Live', 20000, '{tech}')`,
          [dealId, publisher.id, `Fan-out deal ${round}`],
        ),
      );
      const committedAt = performance.timeOrigin + performance.now();
      const deadline = new Promise<void>((resolve) => setTimeout(resolve, ROUND_DEADLINE_MS).unref());
      await Promise.race([Promise.all(results), deadline]);
      const after = await usageOf(server);
      if (profiled) server.send({ profileEnd: `fanout-${n}-devices` });
      readers.forEach((r) => r.child.send({ collect: round }));
      const reports = await Promise.all(results);
      statements += after.statements - before.statements;
      cpuMs += after.cpuMs - before.cpuMs;
      for (const report of reports) {
        pulls += report.pulls!;
        applied += report.applied ?? 0;
        failures += report.failures!;
        report.noticeAt!.forEach((noticeAt, i) => {
          const pulledAt = report.pulledAt![i]!;
          if (noticeAt) commitToNotice.push(Math.max(0, noticeAt - committedAt));
          if (!noticeAt || !pulledAt) return void missed++;
          noticeLat.push(pulledAt - noticeAt);
          pulledLat.push(Math.max(0, pulledAt - committedAt));
        });
      }
      await new Promise((r) => setTimeout(r, 500));
    }
    for (const r of readers) {
      r.child.send({ stop: true });
      await new Promise((resolve) => r.child.once('exit', resolve));
    }
    console.log(
      `\n${n} devices online (streams opened in ${(openMs / 1000).toFixed(1)} s, ${readers.length} device process${readers.length === 1 ? '' : 'es'}), ${ROUNDS} new deals:`,
    );
    console.log(
      `  Postgres statements per new deal: ${(statements / ROUNDS).toFixed(0)} (${(statements / ROUNDS / n).toFixed(2)} per device); HTTP pulls per new deal: ${(pulls / ROUNDS).toFixed(0)}; devices that applied it from the stream: ${(applied / ROUNDS).toFixed(0)}`,
    );
    console.log(`  server CPU per new deal: ${(cpuMs / ROUNDS).toFixed(0)} ms`);
    console.log(
      `  notice → pulled: p50 ${ms(percentile(noticeLat, 50))}, p95 ${ms(percentile(noticeLat, 95))} — goal p95 ≤ ${P95_GOAL_MS} ms; commit → pulled: p50 ${ms(percentile(pulledLat, 50))}, p95 ${ms(percentile(pulledLat, 95))}`,
    );
    console.log(
      `  raw: commit → notice or rows (the stream fan-out alone): p50 ${ms(percentile(commitToNotice, 50))}, p95 ${ms(percentile(commitToNotice, 95))}`,
    );
    if (missed) console.log(`  devices without the deal within ${ROUND_DEADLINE_MS / 1000} s: ${missed}`);
    if (failures) console.log(`  failed pulls: ${failures}`);
    console.log(`  load average: ${load()}`);
  }
  await db.close();
} finally {
  if (server) {
    server.send('stop');
    await new Promise((r) => server!.once('exit', r));
  }
  await pg.stop();
  await fs.rm(dataDir, { recursive: true, force: true });
}
