import { afterAll, beforeAll } from 'vitest';
import { startTestServer, type TestServer } from '../support/test-server.ts';
import { createTestClient, type TestClient } from './sync-harness.ts';

/**
 * One sync server for a test file (its own database), and the RxDB clients its tests open; all are
 * closed and removed after the file. Call at the top level of the file.
 */
export function syncTestFixture() {
  let current: TestServer | undefined;
  const clients: TestClient[] = [];
  beforeAll(async () => {
    current = await startTestServer();
  });
  afterAll(async () => {
    for (const c of clients) await c.close({ remove: true }).catch(() => {});
    await current?.close();
  });
  const fixture = {
    get server(): TestServer {
      if (!current) throw new Error('The test server starts in beforeAll');
      return current;
    },
    /** A test that restarts the server hands the new one over here. */
    set server(next: TestServer) {
      current = next;
    },
    async client(...[user, collections, opts]: DropFirst<Parameters<typeof createTestClient>>): Promise<TestClient> {
      const c = await createTestClient(fixture.server, user, collections, opts);
      clients.push(c);
      return c;
    },
    /**
     * Closes a client now (RxDB's open-source build caps the collections open at once); `remove: false`
     * keeps its local database for a later client to reopen.
     */
    async closeClient(c: TestClient, { remove = true } = {}): Promise<void> {
      clients.splice(clients.indexOf(c), 1);
      await c.close({ remove });
    },
  };
  return fixture;
}

type DropFirst<T extends unknown[]> = T extends [unknown, ...infer Rest] ? Rest : never;
