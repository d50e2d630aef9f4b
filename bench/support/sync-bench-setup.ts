/**
 * What the sync benches share (`npm run bench:sync`, `npm run bench:messages`): an embedded Postgres
 * with the real migrations and the real sync server on free ports, users with tokens, and real RxDB
 * clients (Dexie on fake-indexeddb), each replicating as its own user.
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { getRxStorageDexie } from 'rxdb/plugins/storage-dexie';
import { buildServer } from '../../sync-server/app.ts';
import { loadConfig } from '../../sync-server/config.ts';
import { createDatabase, type Database } from '../../sync-server/db/database.ts';
import { startEmbeddedPostgres } from '../../sync-server/db/embedded.ts';
import { migrate } from '../../sync-server/db/migrate.ts';
import type { AccessTokenSigner } from '../../sync-server/auth/tokens.ts';
import { createPactaDatabase, startReplication } from '../../src/db/index.ts';
import type { CollectionName } from '../../src/domain/collections/index.ts';
import { freePort } from '../../tests/support/free-port.ts';

export type BenchUser = { id: string; token: string };

/** The server, its database and a way to make users; `close()` stops all of it and removes the data. */
export async function startSyncBenchServer() {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'pacta-bench-'));
  const pg = await startEmbeddedPostgres({ dataDir, port: await freePort() });
  const stopPostgres = async () => {
    await pg.stop();
    await fs.rm(dataDir, { recursive: true, force: true });
  };
  try {
    await migrate(pg.url, { localBootstrap: true, seed: false });
    const db = createDatabase(pg.url);
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const config = { ...loadConfig({ LOG_LEVEL: 'silent', EMAIL_CONFIRMATION: 'off', DATABASE_URL: pg.url, PORT: String(port) }), publicUrl: url, staticDir: undefined };
    const app = await buildServer(config, db);
    await app.listen({ port, host: '127.0.0.1' });
    const signer = app.pactaSigner!;
    return {
      url,
      db,
      createUser: (role: 'creator' | 'brand') => createUser(db, signer, role),
      async close() {
        await app.close();
        await db.close();
        await stopPostgres();
      },
    };
  } catch (err) {
    await stopPostgres();
    throw err;
  }
}

async function createUser(db: Database, signer: AccessTokenSigner, role: 'creator' | 'brand'): Promise<BenchUser> {
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
    await tx.query(
      `insert into public.profiles (id, role, full_name) values ($1, $2, $3)
       on conflict (id) do update set role = excluded.role`,
      [id, role, `Bench ${role}`],
    );
    const sessions = await tx.query(`select to_regclass('auth.sessions') is not null as ok`);
    if (sessions.rows[0].ok) {
      await tx.query(`insert into auth.sessions (id, user_id, created_at, updated_at, aal) values ($1, $2, now(), now(), 'aal1')`, [sessionId, id]);
    }
  });
  const { token } = await signer.sign({ sub: id, role: 'authenticated', session_id: sessionId, aal: 'aal1', is_anonymous: false });
  return { id, token };
}

/** A client device of `user`: a fresh RxDB database of `collections`, replicating (retry after 200 ms). */
export async function startBenchClient(
  url: string,
  user: BenchUser,
  collections: CollectionName[],
  options: { pullBatchSize?: number; pushBatchSize?: number; fetch?: typeof fetch } = {},
) {
  const db = await createPactaDatabase({
    userId: user.id,
    name: `bench-${randomUUID()}`,
    storage: getRxStorageDexie({ indexedDB: new IDBFactory(), IDBKeyRange }),
    collections,
    multiInstance: false,
  });
  const replication = startReplication(db, { serverUrl: url, getAccessToken: () => user.token, retryTime: 200, ...options });
  return { db, replication };
}

export const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
export const fmt = (n: number) => n.toLocaleString('en-US', { maximumFractionDigits: 1 });

/** RxDB's open-core storage notice is not a figure: keep it out of the output. */
export function hideRxdbNotice(): void {
  const warn = console.warn;
  console.warn = (...args: unknown[]) => {
    if (String(args[0]).includes('RxDB Open Core')) return;
    warn(...args);
  };
}
