import { afterAll, beforeAll, expect, test } from 'vitest';
import { startTestServer, type TestServer } from '../support/test-server.ts';
import { createTestClient, eventually, insertDeals, storageWithSlowReplicationMeta, type TestClient } from './sync-harness.ts';

// RxDB writes a pulled document into the local collection first and records it as the assumed master
// state a moment later. A user who edits the document in between (it is on screen already) must not
// lose the edit: without an assumed master the server would take the push for an insert of an
// existing row and the conflict handler could not tell the user's change from the server's.

let server: TestServer;
const clients: TestClient[] = [];
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  for (const c of clients) await c.close({ remove: true }).catch(() => {});
  await server?.close();
});

async function dealOnServer(id: string) {
  const { rows } = await server.db.pool.query('select title, description from public.deals where id = $1', [id]);
  return rows[0] as { title: string; description: string };
}

test('an edit made the moment a pulled deal lands, before its master state is recorded, reaches the server', async () => {
  const brand = await server.createUser({ role: 'brand' });
  const slow = storageWithSlowReplicationMeta();
  const c = await createTestClient(server, brand, ['deals'], { storage: slow.storage });
  clients.push(c);
  await c.replication.awaitInitialSync();

  slow.control.metaDelayMs = 3_000;
  const [id] = await insertDeals(server.db, brand.id, 1);
  const arrived = await eventually(() => c.db.deals.findOne(id!).exec());
  await arrived.incrementalPatch({ title: 'Renamed the moment it arrived' });

  await eventually(async () => (await dealOnServer(id!)).title === 'Renamed the moment it arrived', 15_000);
  slow.control.metaDelayMs = 0;
  await c.replication.awaitInSync();
  expect((await c.db.deals.findOne(id!).exec())?.title).toBe('Renamed the moment it arrived');
});

test('the same edit survives the server changing another field meanwhile (three-way merge on what was received)', async () => {
  const brand = await server.createUser({ role: 'brand' });
  const slow = storageWithSlowReplicationMeta();
  const c = await createTestClient(server, brand, ['deals'], { storage: slow.storage });
  clients.push(c);
  await c.replication.awaitInitialSync();

  slow.control.metaDelayMs = 3_000;
  const [id] = await insertDeals(server.db, brand.id, 1);
  const arrived = await eventually(() => c.db.deals.findOne(id!).exec());
  c.network.online = false;
  await arrived.incrementalPatch({ title: 'Renamed offline' });
  await server.db.asService((tx) => tx.query(`update public.deals set description = 'Changed by the team' where id = $1`, [id]));
  c.network.online = true;
  c.replication.reSync();

  await eventually(async () => {
    const onServer = await dealOnServer(id!);
    return onServer.title === 'Renamed offline' && onServer.description === 'Changed by the team';
  }, 20_000);
  slow.control.metaDelayMs = 0;
  await eventually(async () => {
    const local = await c.db.deals.findOne(id!).exec();
    return local?.title === 'Renamed offline' && local.description === 'Changed by the team';
  });
});
