import { expect, test } from 'vitest';
import { eventually, insertDeals, storageWithFaultyReplicationMeta } from './sync-harness.ts';
import { syncTestFixture } from './sync-fixture.ts';

// RxDB writes a pulled document into the local collection first and records it as the assumed master
// state a moment later. A user who edits the document in between (it is on screen already) must not
// lose the edit: without an assumed master the server would take the push for an insert of an
// existing row and the conflict handler could not tell the user's change from the server's.

const sync = syncTestFixture();

/** Waits for a condition, then lets the assertion that follows say what was there instead. */
const settles = (check: () => Promise<boolean>) => eventually(check).catch(() => undefined);

async function dealOnServer(id: string) {
  const { rows } = await sync.server.db.pool.query('select title, description from public.deals where id = $1', [id]);
  return rows[0] as { title: string; description: string };
}

/**
 * A brand's device whose replication metadata writes are 3 s slow, and a deal the server publishes:
 * resolves the moment the deal is in the local collection, long before RxDB records its master state.
 */
async function dealJustArrived() {
  const brand = await sync.server.createUser({ role: 'brand' });
  const slow = storageWithFaultyReplicationMeta();
  const c = await sync.client(brand, ['deals'], { storage: slow.storage });
  await c.replication.awaitInitialSync();
  slow.control.metaDelayMs = 3_000;
  const [id] = (await insertDeals(sync.server.db, brand.id, 1)) as [string];
  const arrived = await eventually(() => c.db.deals.findOne(id).exec());
  return { c, slow, id, arrived };
}

test('an edit made the moment a pulled deal lands, before its master state is recorded, reaches the server', async () => {
  const { c, slow, id, arrived } = await dealJustArrived();
  await arrived.incrementalPatch({ title: 'Renamed the moment it arrived' });

  await settles(async () => (await dealOnServer(id)).title === 'Renamed the moment it arrived');
  expect((await dealOnServer(id)).title).toBe('Renamed the moment it arrived');
  slow.control.metaDelayMs = 0;
  await c.replication.awaitInSync();
  expect((await c.db.deals.findOne(id).exec())?.title).toBe('Renamed the moment it arrived');
});

test('the same edit survives the server changing another field meanwhile (three-way merge on what was received)', async () => {
  const { c, slow, id, arrived } = await dealJustArrived();
  c.network.online = false;
  await arrived.incrementalPatch({ title: 'Renamed offline' });
  await sync.server.db.asService((tx) =>
    tx.query(`update public.deals set description = 'Changed by the team' where id = $1`, [id]),
  );
  c.network.online = true;
  c.replication.reSync();

  const merged = { title: 'Renamed offline', description: 'Changed by the team' };
  await settles(async () => JSON.stringify(await dealOnServer(id)) === JSON.stringify(merged));
  expect(await dealOnServer(id)).toEqual(merged);
  slow.control.metaDelayMs = 0;
  await eventually(async () => {
    const local = await c.db.deals.findOne(id).exec();
    return local?.title === 'Renamed offline' && local.description === 'Changed by the team';
  });
});
