import { afterAll, beforeAll, expect, test } from 'vitest';
import { startTestServer, type TestServer } from '../support/test-server.ts';
import { createTestClient, eventually, insertDeals, newId, type TestClient } from './sync-harness.ts';

let server: TestServer;
const clients: TestClient[] = [];
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  for (const c of clients) await c.close({ remove: true }).catch(() => {});
  await server?.close();
});

async function client(...args: Parameters<typeof createTestClient>) {
  const c = await createTestClient(...args);
  clients.push(c);
  return c;
}

test('initial sync brings every visible deal and a live change arrives without polling', async () => {
  const brand = await server.createUser({ role: 'brand' });
  const creator = await server.createUser({ role: 'creator' });
  const ids = await insertDeals(server.db, brand.id, 450);
  const c = await client(server, creator, ['deals'], { pullBatchSize: 100 });
  await c.replication.awaitInitialSync();
  const local = await c.db.deals.find({ selector: { brand_id: brand.id } }).exec();
  expect(local.map((d) => d.id).sort()).toEqual([...ids].sort());
  expect(local[0]!.amount_cents).toBeGreaterThanOrEqual(50001);
  expect(c.replication.syncStatus.initialSync.complete).toBe(true);

  const [later] = await insertDeals(server.db, brand.id, 1);
  await eventually(async () => (await c.db.deals.findOne(later!).exec()) !== null);
});
