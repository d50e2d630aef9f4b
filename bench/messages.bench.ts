/**
 * `npm run bench:messages`: message delivery latency between two people, on this machine, with its own
 * embedded Postgres (real migrations), the real sync server and two real RxDB clients (Dexie on
 * fake-indexeddb), each replicating conversations and messages as its own user.
 * Measured: from the moment the creator's client writes a message locally (what pressing Send does)
 * until the brand's client's live query of the conversation — what the open inbox renders — emits
 * it with its server sequence number. Prints median and p95.
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { getRxStorageDexie } from 'rxdb/plugins/storage-dexie';
import { filter, firstValueFrom, timeout } from 'rxjs';
import { buildServer } from '../sync-server/app.ts';
import { loadConfig } from '../sync-server/config.ts';
import { createDatabase, type Database } from '../sync-server/db/database.ts';
import { startEmbeddedPostgres } from '../sync-server/db/embedded.ts';
import { migrate } from '../sync-server/db/migrate.ts';
import type { AccessTokenSigner } from '../sync-server/auth/tokens.ts';
import { createPactaDatabase, startReplication } from '../src/db/index.ts';
import { findOrStartConversation, sendMessage } from '../src/features/inbox/data/inbox-operations.ts';
import { freePort } from '../tests/support/free-port.ts';

const SAMPLES = Number(process.env.BENCH_MESSAGES ?? 60);

async function createUser(db: Database, signer: AccessTokenSigner, role: 'creator' | 'brand') {
  const id = randomUUID();
  const sessionId = randomUUID();
  await db.asService(async (tx) => {
    await tx.query(
      `insert into auth.users (instance_id, id, aud, role, email, encrypted_password, email_confirmed_at,
         raw_app_meta_data, raw_user_meta_data, created_at, updated_at)
       values ('00000000-0000-0000-0000-000000000000', $1, 'authenticated', 'authenticated', $2, '', now(),
         '{"provider":"email","providers":["email"]}', $3, now(), now())`,
      [id, `${role}-${id.slice(0, 8)}@bench.test`, { role, full_name: `Bench ${role}` }],
    );
    await tx.query(`insert into public.profiles (id, role, full_name) values ($1, $2, $3) on conflict (id) do update set role = excluded.role`, [
      id,
      role,
      `Bench ${role}`,
    ]);
    await tx.query(`insert into auth.sessions (id, user_id, created_at, updated_at, aal) values ($1, $2, now(), now(), 'aal1')`, [sessionId, id]);
  });
  const { token } = await signer.sign({ sub: id, role: 'authenticated', session_id: sessionId, aal: 'aal1', is_anonymous: false });
  return { id, token };
}

async function client(url: string, user: { id: string; token: string }) {
  const db = await createPactaDatabase({
    userId: user.id,
    name: `bench-${randomUUID()}`,
    storage: getRxStorageDexie({ indexedDB: new IDBFactory(), IDBKeyRange }),
    collections: ['conversations', 'messages'],
    multiInstance: false,
  });
  const replication = startReplication(db, { serverUrl: url, getAccessToken: () => user.token, retryTime: 200 });
  return { db, replication };
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
const fmt = (n: number) => n.toLocaleString('en-US', { maximumFractionDigits: 1 });

// RxDB's open-core storage notice is not a figure.
const warn = console.warn;
console.warn = (...args: unknown[]) => {
  if (String(args[0]).includes('RxDB Open Core')) return;
  warn(...args);
};

const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'pacta-bench-'));
const pg = await startEmbeddedPostgres({ dataDir, port: await freePort() });
try {
  await migrate(pg.url, { localBootstrap: true, seed: false });
  const db = createDatabase(pg.url);
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const config = { ...loadConfig({ LOG_LEVEL: 'silent', EMAIL_CONFIRMATION: 'off', DATABASE_URL: pg.url, PORT: String(port) }), publicUrl: url, staticDir: undefined };
  const app = await buildServer(config, db);
  await app.listen({ port, host: '127.0.0.1' });
  const signer = app.pactaSigner!;
  const brand = await createUser(db, signer, 'brand');
  const creator = await createUser(db, signer, 'creator');
  console.log(`Pacta message delivery benchmark — ${os.cpus().length} CPU(s), Node ${process.version}, ${SAMPLES} messages\n`);

  const sender = await client(url, creator);
  const receiver = await client(url, brand);
  await Promise.all([sender.replication.awaitInitialSync(), receiver.replication.awaitInitialSync()]);
  const conversationId = await findOrStartConversation(sender.db, creator.id, brand.id, null, 'Bench');
  await firstValueFrom(receiver.db.conversations.findOne(conversationId).$.pipe(filter(Boolean), timeout(30_000)));
  const conversation = (await sender.db.conversations.findOne(conversationId).exec())!.toJSON();

  // What the brand's open conversation renders: its messages, live.
  const shown = receiver.db.messages.find({ selector: { conversation_id: conversationId } }).$;
  const samples: number[] = [];
  for (let i = -3; i < SAMPLES; i++) {
    const body = `Message ${i} ${randomUUID()}`;
    const arrived = firstValueFrom(
      shown.pipe(
        filter((docs) => docs.some((d) => d.body === body && d.seq != null)),
        timeout(30_000),
      ),
    ).then(() => performance.now());
    // BENCH_DEBUG=1 also prints where the time goes: the push answered, the receiver's pull wrote it.
    let pushed = 0;
    let received = 0;
    const onPushed = sender.replication.states.get('messages')!.sent$.subscribe((d) => {
      if (d.body === body) pushed = performance.now();
    });
    const onReceived = receiver.replication.states.get('messages')!.received$.subscribe((d) => {
      if (d.body === body) received = performance.now();
    });
    const sent = performance.now();
    await sendMessage(sender.db, conversation, creator.id, body);
    const at = await arrived;
    onPushed.unsubscribe();
    onReceived.unsubscribe();
    if (process.env.BENCH_DEBUG) console.error(`pushed +${Math.round(pushed - sent)} ms, received +${Math.round(received - sent)} ms, shown +${Math.round(at - sent)} ms`);
    if (i >= 0) samples.push(at - sent); // the first three warm the connections up
    await new Promise((r) => setTimeout(r, 30));
  }
  samples.sort((a, b) => a - b);
  console.log(`send → shown in the other client: median ${fmt(percentile(samples, 50))} ms, p95 ${fmt(percentile(samples, 95))} ms, max ${fmt(samples.at(-1)!)} ms (${samples.length} messages)`);

  for (const c of [sender, receiver]) {
    await c.replication.stop();
    await c.db.remove();
  }
  await app.close();
  await db.close();
} finally {
  await pg.stop();
  await fs.rm(dataDir, { recursive: true, force: true });
}
