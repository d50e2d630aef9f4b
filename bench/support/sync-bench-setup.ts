/**
 * What the sync benches share (`npm run bench:sync`, `npm run bench:messages`): an embedded Postgres
 * with the real migrations and the real sync server on free ports (tests/support/test-server.ts), users
 * with tokens, and real RxDB clients (Dexie on fake-indexeddb), each replicating as its own user.
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { startEmbeddedPostgres } from '../../sync-server/db/embedded.ts';
import { migrate } from '../../sync-server/db/migrate.ts';
import { createPactaDatabase, pactaDexieStorage, startReplication } from '../../src/db/index.ts';
import type { CollectionName } from '../../src/domain/collections/index.ts';
import { freePort } from '../../tests/support/free-port.ts';
import { startTestServer } from '../../tests/support/test-server.ts';

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
    const server = await startTestServer({ databaseUrl: pg.url });
    return {
      url: server.url,
      db: server.db,
      async createUser(role: 'creator' | 'brand'): Promise<BenchUser> {
        const user = await server.createUser({ role });
        return { id: user.id, token: user.accessToken };
      },
      async close() {
        await server.close();
        await stopPostgres();
      },
    };
  } catch (err) {
    await stopPostgres();
    throw err;
  }
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
    storage: pactaDexieStorage({ indexedDB: new IDBFactory(), IDBKeyRange }),
    collections,
    multiInstance: false,
  });
  const replication = startReplication(db, {
    serverUrl: url,
    getAccessToken: () => user.token,
    retryTime: 200,
    ...options,
  });
  return { db, replication };
}

export const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
export const fmt = (n: number) => n.toLocaleString('en-US', { maximumFractionDigits: 1 });

/** RxDB's open-core storage notice is not a figure: keep it out of the output. */
export function hideRxdbNotice(): void {
  const warn = console.warn;
  console.warn = (...args: unknown[]) => {
    if (String(args[0]).includes('RxDB Open Core')) return;
    warn(...args);
  };
}
