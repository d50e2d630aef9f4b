/**
 * `npm run bench:sync`: replication throughput and latency on this machine, with its own embedded
 * Postgres (real migrations) and sync server, and real RxDB clients (Dexie on fake-indexeddb).
 *   1. initial pull of 10,000 deals into a fresh client (docs/s), against a raw Postgres read of the
 *      same rows (ratio);
 *   2. push of 2,000 documents written locally (docs/s), then of an edit to each of them;
 *   3. live-notice latency: a commit on the server until the row is in a second client (median, p95).
 */
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { prepareDocument } from '../src/db/index.ts';
import type { CollectionName } from '../src/domain/collections/index.ts';
import {
  fmt,
  hideRxdbNotice,
  percentile,
  startBenchClient,
  startSyncBenchServer,
  type BenchUser,
} from './support/sync-bench-setup.ts';

const DEALS = Number(process.env.BENCH_DEALS ?? 10_000);
const PUSHED = Number(process.env.BENCH_PUSHED ?? 2_000);
const LATENCY_SAMPLES = 40;

function client(url: string, user: BenchUser, collections: CollectionName[], pullBatchSize: number) {
  const debugFetch: typeof fetch = async (input, init) => {
    const res = await fetch(input, init);
    if (process.env.BENCH_DEBUG && String(input).includes('/pull')) {
      const body = (await res.clone().json()) as { documents?: unknown[]; pending?: boolean; reset?: boolean };
      console.error(
        `${Math.round(performance.now())} [${collections.join()} ${user.id.slice(0, 4)}] pull ${res.status} docs=${body.documents?.length} pending=${body.pending ?? false} reset=${body.reset ?? false}`,
      );
    }
    if (process.env.BENCH_DEBUG && String(input).includes('/stream'))
      console.error(`[${collections.join()}] stream ${res.status}`);
    return res;
  };
  return startBenchClient(url, user, collections, { pullBatchSize, pushBatchSize: 200, fetch: debugFetch });
}

hideRxdbNotice();
const server = await startSyncBenchServer();
try {
  const { db, url } = server;
  const brand = await server.createUser('brand');
  const creator = await server.createUser('creator');
  const watcher = await server.createUser('creator');

  await db.asService((tx) =>
    tx.query(
      `insert into public.deals (id, brand_id, title, description, amount_cents, niches, platforms, deliverables, requirements)
       select gen_random_uuid(), $1, 'Deal ' || g, repeat('A sponsorship brief. ', 10), 10000 + g, '{fitness,tech}',
              '{instagram,youtube}', '{"1 video","2 stories"}', '{"10k followers"}'
         from generate_series(1, $2) g`,
      [brand.id, DEALS],
    ),
  );
  await db.pool.query('vacuum analyze public.deals');
  console.log(
    `Pacta sync benchmark — ${os.cpus().length} CPU(s), Node ${process.version}, ${DEALS.toLocaleString()} deals; load average ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' / ')}\n`,
  );

  // 1. Initial pull, and the raw read of the same rows.
  const reader = await client(url, creator, ['deals'], 1000);
  let t0 = performance.now();
  await reader.replication.awaitInitialSync();
  const pullMs = performance.now() - t0;
  const pulled = await reader.db.deals.count().exec();
  if (pulled !== DEALS) throw new Error(`pulled ${pulled} deals, expected ${DEALS}`);
  await reader.replication.awaitInSync();
  const idleMs = performance.now() - t0;

  const rawRuns: number[] = [];
  for (let i = 0; i < 5; i++) {
    t0 = performance.now();
    const { rows } = await db.pool.query('select * from public.deals');
    rawRuns.push(performance.now() - t0);
    if (rows.length !== DEALS) throw new Error('raw read count');
  }
  const rawMs = Math.min(...rawRuns);
  console.log(`initial pull   ${fmt(DEALS)} deals in ${fmt(pullMs)} ms  = ${fmt((DEALS / pullMs) * 1000)} docs/s`);
  console.log(`raw Postgres   ${fmt(DEALS)} rows  in ${fmt(rawMs)} ms  (select * from deals, best of 5)`);
  console.log(`ratio          initial pull is ${fmt(pullMs / rawMs)}× the raw read`);
  console.log(`               (client idle — RxDB's post-pull bookkeeping done — after ${fmt(idleMs)} ms)`);

  // 2. Push of documents written locally.
  const writer = await client(url, creator, ['drafts'], 200);
  await writer.replication.awaitInitialSync();
  const drafts = Array.from({ length: PUSHED }, (_, i) =>
    prepareDocument('drafts', {
      id: randomUUID(),
      user_id: creator.id,
      kind: 'message',
      title: `Draft ${i}`,
      payload: { body: 'Hello there' },
    }),
  );
  t0 = performance.now();
  await writer.db.drafts.bulkInsert(drafts);
  for (;;) {
    const { rows } = await db.pool.query('select count(*)::int as n from public.drafts where user_id = $1', [
      creator.id,
    ]);
    if (rows[0].n === PUSHED) break;
    await new Promise((r) => setTimeout(r, 5));
  }
  const pushMs = performance.now() - t0;
  console.log(
    `push           ${fmt(PUSHED)} docs  in ${fmt(pushMs)} ms  = ${fmt((PUSHED / pushMs) * 1000)} docs/s (local write to committed on the server) — goal ≥ 5,000 docs/s; load average ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' / ')}`,
  );

  // 2b. Push of edits to the same documents (each row checked against its master, then updated).
  await writer.replication.awaitInSync();
  const stored = await writer.db.drafts.find().exec();
  t0 = performance.now();
  await writer.db.drafts.bulkUpsert(
    stored.map((d) => ({ ...d.toMutableJSON(), title: `${d.get('title') as string}, edited` })),
  );
  for (;;) {
    const { rows } = await db.pool.query(
      `select count(*)::int as n from public.drafts where user_id = $1 and title like '%, edited'`,
      [creator.id],
    );
    if (rows[0].n === PUSHED) break;
    await new Promise((r) => setTimeout(r, 5));
  }
  const editMs = performance.now() - t0;
  console.log(
    `push (edits)   ${fmt(PUSHED)} docs  in ${fmt(editMs)} ms  = ${fmt((PUSHED / editMs) * 1000)} docs/s (local edit to committed on the server); load average ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' / ')}`,
  );

  // 3. Live-notice latency to a second client (the first two are closed so they do not compete for
  //    this single Node process).
  for (const c of [reader, writer]) {
    await c.replication.stop();
    await c.db.remove();
  }
  const live = await client(url, watcher, ['deals'], 1000);
  await live.replication.awaitInitialSync();
  // After a 10,000-document initial pull RxDB keeps checking the new documents for local changes to
  // push (slow on fake-indexeddb); measure once the client is idle, as a device would be.
  await live.replication.awaitInSync();
  console.error(`(second client synced ${await live.db.deals.count().exec()} deals; measuring)`);
  const samples: number[] = [];
  let lost = 0;
  let warmUpMs = 0;
  // Sample -1 is a warm-up, not counted: on fake-indexeddb the client can stay busy for a while
  // after a 10,000-document initial sync, which a browser's IndexedDB does not reproduce.
  for (let i = -1; i < LATENCY_SAMPLES; i++) {
    const id = randomUUID();
    const arrived = new Promise<number>((resolve) => {
      const timeout = setTimeout(
        () => {
          sub.unsubscribe();
          resolve(Number.NaN);
        },
        i < 0 ? 180_000 : 30_000,
      );
      // The moment the replication has written the document into the second client's storage.
      const sub = live.replication.states.get('deals')!.received$.subscribe((doc) => {
        if (doc.id === id) {
          clearTimeout(timeout);
          sub.unsubscribe();
          resolve(performance.now());
        }
      });
    });
    const committed = await db
      .asService((tx) =>
        tx.query(
          `insert into public.deals (id, brand_id, title, description, amount_cents, niches) values ($1, $2, 'Live deal', 'Now', 20000, '{tech}')`,
          [id, brand.id],
        ),
      )
      .then(() => performance.now());
    const at = await arrived;
    if (process.env.BENCH_DEBUG)
      console.error(
        `${Math.round(performance.now())} sample ${i} committed at ${Math.round(committed)}: ${Number.isNaN(at) ? 'LOST' : `${Math.round(at - committed)} ms`}`,
      );
    if (i < 0) warmUpMs = at - committed;
    else if (Number.isNaN(at)) lost++;
    else samples.push(at - committed);
    await new Promise((r) => setTimeout(r, 20));
  }
  samples.sort((a, b) => a - b);
  console.log(
    `live notice    commit → in a second client: median ${fmt(percentile(samples, 50))} ms, p95 ${fmt(percentile(samples, 95))} ms (${samples.length} commits${lost ? `, ${lost} not arrived within 30 s` : ''}; warm-up notice ${fmt(warmUpMs)} ms, not counted)`,
  );

  await live.replication.stop();
  await live.db.remove();
} finally {
  await server.close();
}
