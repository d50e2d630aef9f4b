/**
 * npm run bench:upload — files through Pacta's storage API, on loopback, with the real server.
 *
 * One embedded Postgres (real migrations) and one server in its own process (so its memory is its
 * own), storing files on disk in a temporary folder. Measured in the same run, on the same disk:
 * - a raw write of BENCH_UPLOAD_MB (default 50) MB to a file (fs.writeFile), the ceiling;
 * - the same bytes as a resumable (TUS) upload with tus-js-client in 6 MB chunks, as the app sends
 *   large files, until the object is stored (the last chunk's answer comes after the file is checked
 *   and moved in);
 * - the same bytes as one simple upload (`supabase.storage.from(…).upload`);
 * - the server's RSS before and during BENCH_PARALLEL (default 10) resumable uploads of
 *   BENCH_PARALLEL_MB (default 50) MB each, sampled every 50 ms: uploads are streamed to disk, so it
 *   should not grow with the files' size.
 * The machine's load average is printed with the figures (the machine may be shared).
 */
import { fork, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { createClient } from '@supabase/supabase-js';
import { Upload } from 'tus-js-client';
import { createDatabase, type Database } from '../sync-server/db/database.ts';
import { startEmbeddedPostgres } from '../sync-server/db/embedded.ts';
import { migrate } from '../sync-server/db/migrate.ts';
import { loadLocalSigner } from '../sync-server/auth/tokens.ts';
import { freePort } from '../tests/support/free-port.ts';

const UPLOAD_MB = Number(process.env.BENCH_UPLOAD_MB ?? 50);
const PARALLEL = Number(process.env.BENCH_PARALLEL ?? 10);
const PARALLEL_MB = Number(process.env.BENCH_PARALLEL_MB ?? 50);
const CHUNK_BYTES = 6 * 1024 * 1024;

const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' / ');
const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(0);
const rate = (bytes: number, ms: number) => `${(bytes / 1024 / 1024 / (ms / 1000)).toFixed(0)} MB/s`;

/** Bytes the server reads as an MP4 video (an ISO base media `ftyp` box first), the rest varied. */
function video(bytes: number): Buffer {
  const buffer = Buffer.alloc(bytes);
  for (let i = 0; i < bytes; i += 4096) buffer[i] = i % 251;
  Buffer.from('0000001c6674797069736f6d0000020069736f6d69736f32', 'hex').copy(buffer);
  return buffer;
}

function startServer(databaseUrl: string, port: number, dataDir: string): Promise<ChildProcess> {
  const child = fork(path.join(import.meta.dirname, 'support/stream-server.ts'), {
    execArgv: ['--import', 'tsx'],
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      PORT: String(port),
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      DATA_DIR: dataDir,
      STORAGE_QUOTA_MB: String(Math.max(UPLOAD_MB, PARALLEL_MB) * 4),
    },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    child.once('message', () => resolve(child));
    child.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
  });
}

/** The server's RSS (no forced GC: what the process holds). */
function rssOf(child: ChildProcess): Promise<number> {
  return new Promise((resolve) => {
    child.once('message', (m) => resolve((m as { rss: number }).rss));
    child.send('memory');
  });
}

async function createUser(db: Database, signer: Awaited<ReturnType<typeof loadLocalSigner>>) {
  const id = randomUUID();
  const sessionId = randomUUID();
  await db.asService(async (tx) => {
    await tx.query(
      `insert into auth.users (instance_id, id, aud, role, email, encrypted_password, email_confirmed_at, raw_user_meta_data)
       values ('00000000-0000-0000-0000-000000000000', $1, 'authenticated', 'authenticated', $2, '', now(), $3)`,
      [id, `upload-${id.slice(0, 8)}@bench.test`, { role: 'creator', full_name: 'Upload bench' }],
    );
    await tx.query(
      `insert into public.profiles (id, role, full_name) values ($1, 'creator', 'Upload bench') on conflict (id) do nothing`,
      [id],
    );
    await tx.query(
      `insert into auth.sessions (id, user_id, created_at, updated_at, aal) values ($1, $2, now(), now(), 'aal1')`,
      [sessionId, id],
    );
  });
  const { token } = await signer.sign({
    sub: id,
    role: 'authenticated',
    aal: 'aal1',
    is_anonymous: false,
    session_id: sessionId,
  });
  return { id, token };
}

function resumable(url: string, token: string, name: string, bytes: Buffer): Promise<void> {
  return new Promise((resolve, reject) => {
    new Upload(bytes, {
      endpoint: `${url}/storage/v1/upload/resumable`,
      headers: { authorization: `Bearer ${token}` },
      metadata: { bucketName: 'portfolio', objectName: name, contentType: 'video/mp4' },
      chunkSize: CHUNK_BYTES,
      retryDelays: [],
      onError: reject,
      onSuccess: () => resolve(),
    }).start();
  });
}

const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'pacta-upload-bench-'));
const pg = await startEmbeddedPostgres({ dataDir, port: await freePort() });
let server: ChildProcess | undefined;
try {
  await migrate(pg.url, { localBootstrap: true, seed: false });
  const db = createDatabase(pg.url);
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  server = await startServer(pg.url, port, path.join(dataDir, 'server'));
  const signer = await loadLocalSigner(db, `${url}/auth/v1`, 3600);
  console.log(`Pacta upload benchmark — ${os.cpus().length} CPU(s), Node ${process.version}; load average ${load()}\n`);

  const bytes = video(UPLOAD_MB * 1024 * 1024);
  const rawFile = path.join(dataDir, 'raw-write');
  let start = performance.now();
  await fs.writeFile(rawFile, bytes);
  const rawMs = performance.now() - start;
  await fs.rm(rawFile);

  const single = await createUser(db, signer);
  start = performance.now();
  await resumable(url, single.token, `${single.id}/${randomUUID()}-bench.mp4`, bytes);
  const resumableMs = performance.now() - start;

  const storage = createClient(url, 'pacta-local-anon-key', {
    auth: { persistSession: false, autoRefreshToken: false },
    accessToken: async () => single.token,
  }).storage;
  start = performance.now();
  const simple = await storage.from('portfolio').upload(`${single.id}/${randomUUID()}-bench.mp4`, bytes, {
    contentType: 'video/mp4',
  });
  const simpleMs = performance.now() - start;
  if (simple.error) throw simple.error;

  console.log(`${UPLOAD_MB} MB, one at a time:`);
  console.log(`  raw write to disk (fs.writeFile)    ${rawMs.toFixed(0).padStart(6)} ms  ${rate(bytes.length, rawMs)}`);
  console.log(
    `  resumable upload (TUS, 6 MB chunks) ${resumableMs.toFixed(0).padStart(6)} ms  ${rate(bytes.length, resumableMs)}`,
  );
  console.log(
    `  simple upload (one request)         ${simpleMs.toFixed(0).padStart(6)} ms  ${rate(bytes.length, simpleMs)}\n`,
  );

  const parallelBytes = video(PARALLEL_MB * 1024 * 1024);
  const users = await Promise.all(Array.from({ length: PARALLEL }, () => createUser(db, signer)));
  const rssBefore = await rssOf(server);
  let rssPeak = rssBefore;
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      rssPeak = Math.max(rssPeak, await rssOf(server!));
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  })();
  start = performance.now();
  await Promise.all(users.map((u) => resumable(url, u.token, `${u.id}/${randomUUID()}-bench.mp4`, parallelBytes)));
  const parallelMs = performance.now() - start;
  sampling = false;
  await sampler;
  console.log(
    `${PARALLEL} resumable uploads of ${PARALLEL_MB} MB at once: ${parallelMs.toFixed(0)} ms, ${rate(parallelBytes.length * PARALLEL, parallelMs)} together`,
  );
  console.log(
    `  server RSS before ${mb(rssBefore)} MB, peak during ${mb(rssPeak)} MB (+${mb(rssPeak - rssBefore)} MB)`,
  );
  console.log(`\nload average after: ${load()}`);
  await db.close();
} finally {
  server?.send('stop');
  await new Promise((resolve) => (server ? server.once('exit', resolve) : resolve(undefined)));
  await pg.stop();
  await fs.rm(dataDir, { recursive: true, force: true });
}
