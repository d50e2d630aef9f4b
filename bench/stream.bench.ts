/**
 * npm run bench:stream — live change streams at scale, on loopback, with the real sync server.
 *
 * One embedded Postgres (real migrations) and two server instances on it, each in its own process.
 * BENCH_STREAMS (default 5,000) Server-Sent-Event streams of BENCH_USERS users are opened on
 * instance A, and BENCH_SECOND_STREAMS on instance B. Then BENCH_COMMITS deals are committed one at a
 * time; for each, the time from the commit until the `change` notice reaches every stream is recorded:
 * p50/p95 over all of A's streams under that load, and over B's streams (the same notice reaching
 * the second instance through Postgres LISTEN/NOTIFY). Instance A's memory (RSS, heap after GC) is
 * printed before and with the streams open. The servers run in their own processes, and so do the
 * clients: BENCH_READERS reader processes (default 1) share A's streams, one more reads B's. On two
 * cores one reader measured best (two readers compete with the server for the same cores).
 * The machine's load average is printed with the figures.
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
import { freePort } from '../tests/support/free-port.ts';

const STREAMS = Number(process.env.BENCH_STREAMS ?? 5_000);
const USERS = Number(process.env.BENCH_USERS ?? 50);
const SECOND_STREAMS = Number(process.env.BENCH_SECOND_STREAMS ?? 200);
const COMMITS = Number(process.env.BENCH_COMMITS ?? 20);
const OPEN_AT_ONCE = 100;
const READERS = Math.max(1, Number(process.env.BENCH_READERS ?? 1));
const MEMORY_GOAL_MB = 400;

const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' / ');
const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(0);
const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
};

function startInstance(databaseUrl: string, port: number, publicUrl: string): Promise<ChildProcess> {
  const child = fork(path.join(import.meta.dirname, 'support/stream-server.ts'), {
    execArgv: ['--import', 'tsx', '--expose-gc'],
    env: { ...process.env, DATABASE_URL: databaseUrl, PORT: String(port), PUBLIC_URL: publicUrl },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    child.once('message', () => resolve(child));
    child.once('exit', (code) => reject(new Error(`server instance exited with ${code}`)));
  });
}

function memoryOf(child: ChildProcess): Promise<{ rss: number; heapUsed: number }> {
  return new Promise((resolve) => {
    child.once('message', (m) => resolve(m as { rss: number; heapUsed: number }));
    child.send('memory');
  });
}

async function createUser(db: Database): Promise<{ id: string; sessionId: string }> {
  const id = randomUUID();
  const sessionId = randomUUID();
  await db.asService(async (tx) => {
    await tx.query(
      `insert into auth.users (instance_id, id, aud, role, email, encrypted_password, email_confirmed_at, raw_app_meta_data, raw_user_meta_data, created_at, updated_at)
       values ('00000000-0000-0000-0000-000000000000', $1, 'authenticated', 'authenticated', $2, '', now(), '{"provider":"email","providers":["email"]}', $3, now(), now())`,
      [id, `stream-${id.slice(0, 8)}@bench.test`, { role: 'creator', full_name: 'Stream bench' }],
    );
    await tx.query(
      `insert into public.profiles (id, role, full_name) values ($1, 'creator', 'Stream bench') on conflict (id) do update set role = excluded.role`,
      [id],
    );
    await tx.query(
      `insert into auth.sessions (id, user_id, created_at, updated_at, aal) values ($1, $2, now(), now(), 'aal1')`,
      [sessionId, id],
    );
  });
  return { id, sessionId };
}

type ReaderMessage = { ready?: true; opened?: number; armed?: number; done?: number; times?: number[] };

/** A reader process (support/stream-reader.ts) holding `count` streams on `port`. */
async function startReader(
  port: number,
  tokens: string[],
  count: number,
): Promise<{ child: ChildProcess; next(pick: (m: ReaderMessage) => boolean): Promise<ReaderMessage> }> {
  const child = fork(path.join(import.meta.dirname, 'support/stream-reader.ts'), {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const waiting: { pick: (m: ReaderMessage) => boolean; resolve: (m: ReaderMessage) => void }[] = [];
  child.on('message', (m: ReaderMessage) => {
    const at = waiting.findIndex((w) => w.pick(m));
    if (at >= 0) waiting.splice(at, 1)[0]!.resolve(m);
  });
  const next = (pick: (m: ReaderMessage) => boolean) =>
    new Promise<ReaderMessage>((resolve) => waiting.push({ pick, resolve }));
  await next((m) => m.ready === true);
  child.send({ open: { port, tokens, count } });
  await next((m) => m.opened === count);
  return { child, next };
}

const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'pacta-stream-bench-'));
const pg = await startEmbeddedPostgres({ dataDir, port: await freePort() });
const children: ChildProcess[] = [];
const servers: ChildProcess[] = [];
try {
  await migrate(pg.url, { localBootstrap: true, seed: false });
  const db = createDatabase(pg.url);
  const [portA, portB] = [await freePort(), await freePort()];
  const publicUrl = `http://127.0.0.1:${portA}`;
  const a = await startInstance(pg.url, portA, publicUrl);
  children.push(a);
  servers.push(a);
  const b = await startInstance(pg.url, portB, publicUrl);
  children.push(b);
  servers.push(b);
  const signer = await loadLocalSigner(db, `${publicUrl}/auth/v1`, 3600);
  const users = await Promise.all(Array.from({ length: USERS }, () => createUser(db)));
  const brand = await createUser(db);
  await db.pool.query(`update public.profiles set role = 'brand' where id = $1`, [brand.id]);
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
  console.log(`Pacta stream benchmark — ${os.cpus().length} CPU(s), Node ${process.version}; load average ${load()}\n`);

  const before = await memoryOf(a);
  // The streams are read by READERS processes (support/stream-reader.ts), not by this one, whose event
  // loop commits and waits: arrivals are stamped where they are read.
  const readerCounts = Array.from(
    { length: READERS },
    (_, r) => Math.floor(STREAMS / READERS) + (r < STREAMS % READERS ? 1 : 0),
  );
  const openStarted = performance.now();
  const readersA = await Promise.all(
    readerCounts.map((count, r) =>
      startReader(portA, tokens.slice(r % tokens.length).concat(tokens.slice(0, r % tokens.length)), count),
    ),
  );
  const openMs = performance.now() - openStarted;
  children.push(...readersA.map((r) => r.child));
  const readerB = await startReader(portB, tokens, SECOND_STREAMS);
  children.push(readerB.child);
  const withStreams = await memoryOf(a);

  const latA: number[] = [];
  const latB: number[] = [];
  let missed = 0;
  for (let n = 1; n <= COMMITS; n++) {
    const readers = [...readersA, readerB];
    await Promise.all(
      readers.map((r) => {
        const armed = r.next((m) => m.armed === n);
        r.child.send({ round: n });
        return armed;
      }),
    );
    const results = readers.map((r) => r.next((m) => m.done === n));
    await db.asService((tx) =>
      tx.query(
        `insert into public.deals (id, brand_id, title, description, amount_cents, niches) values ($1, $2, $3, 'Live', 20000, '{tech}')`,
        [randomUUID(), brand.id, `Stream deal ${n}`],
      ),
    );
    const committedAt = performance.timeOrigin + performance.now();
    const deadline = new Promise<void>((resolve) => setTimeout(resolve, 10_000).unref());
    await Promise.race([Promise.all(results), deadline]);
    readers.forEach((r) => r.child.send({ collect: n }));
    const times = await Promise.all(results);
    // A notice that arrived between the insert's return and the clock being read counts as 0 ms late.
    const collect = (arrived: number[], into: number[]) => {
      for (const at of arrived) {
        if (at) into.push(Math.max(0, at - committedAt));
        else missed++;
      }
    };
    times.slice(0, -1).forEach((t) => collect(t.times!, latA));
    collect(times.at(-1)!.times!, latB);
    await new Promise((r) => setTimeout(r, 100));
  }

  console.log(
    `streams held by instance A: ${STREAMS} (of ${USERS} users), opened in ${(openMs / 1000).toFixed(1)} s (${OPEN_AT_ONCE} at a time per reader, ${READERS} reader process${READERS === 1 ? '' : 'es'}) — goal 5,000`,
  );
  console.log(
    `instance A memory: RSS ${mb(before.rss)} MB → ${mb(withStreams.rss)} MB with the streams open; heap after GC ${mb(before.heapUsed)} → ${mb(withStreams.heapUsed)} MB — goal ≤ ${MEMORY_GOAL_MB} MB; ${((withStreams.rss - before.rss) / STREAMS / 1024).toFixed(1)} KB RSS per stream`,
  );
  console.log(
    `notice latency on A under that load (commit → change event, ${COMMITS} commits × ${STREAMS} streams): p50 ${percentile(latA, 50).toFixed(0)} ms, p95 ${percentile(latA, 95).toFixed(0)} ms — goal p95 ≤ 250 ms`,
  );
  console.log(
    `same notices through instance B (${SECOND_STREAMS} streams, LISTEN on the same database): p50 ${percentile(latB, 50).toFixed(0)} ms, p95 ${percentile(latB, 95).toFixed(0)} ms`,
  );
  if (missed) console.log(`notices not arrived within 10 s: ${missed}`);
  console.log(`load average at the end: ${load()}`);
  await db.close();
} finally {
  for (const child of children) {
    child.send(servers.includes(child) ? 'stop' : { stop: true });
    await new Promise((r) => child.once('exit', r));
  }
  await pg.stop();
  await fs.rm(dataDir, { recursive: true, force: true });
}
