import { expect, test } from 'vitest';
import { getAssumedMasterState, type RxStorageInstanceReplicationState } from 'rxdb';
import type { SyncDoc } from '../../src/db/sync-api.ts';
import type { TestClient } from './sync-harness.ts';
import { eventually, insertDeals } from './sync-harness.ts';
import { syncTestFixture } from './sync-fixture.ts';

const sync = syncTestFixture();

/** The server states RxDB keeps beside the collection's documents (its replication meta store). */
async function keptServerStates(c: TestClient, ids: string[]): Promise<number> {
  const state = c.replication.states.get('deals')!;
  const internal = state.internalReplicationState as RxStorageInstanceReplicationState<SyncDoc>;
  return Object.keys(await getAssumedMasterState(internal, ids)).length;
}

const pushesOf = (c: TestClient) => c.network.calls.filter((call) => call.url.includes('/sync/v1/deals/push'));

test('a creator replicates the deals pull-only: every deal arrives, none is kept twice, nothing is ever pushed', async () => {
  const brand = await sync.server.createUser({ role: 'brand' });
  const creator = await sync.server.createUser({ role: 'creator' });
  const ids = await insertDeals(sync.server.db, brand.id, 120);
  const c = await sync.client(creator, ['profiles', 'deals'], { pullBatchSize: 50, pullOnlyByRole: true });
  await c.replication.awaitInitialSync();
  await eventually(
    async () => (await c.db.deals.find({ selector: { brand_id: brand.id } }).exec()).length === ids.length,
  );
  expect(await keptServerStates(c, ids)).toBe(0);

  // Later changes still come (by notice and pull), and a local write goes nowhere.
  const [later] = await insertDeals(sync.server.db, brand.id, 1);
  await eventually(async () => (await c.db.deals.findOne(later!).exec()) !== null);
  await (await c.db.deals.findOne(ids[0]!).exec())!.incrementalPatch({ title: 'Not mine to change' });
  await c.replication.awaitInSync();
  expect(pushesOf(c)).toHaveLength(0);
  const { rows } = await sync.server.db.pool.query<{ title: string }>('select title from public.deals where id = $1', [
    ids[0],
  ]);
  expect(rows[0]!.title).not.toBe('Not mine to change');
});

test('a creator whose session says the role starts the deals pull-only at once, before any profile is on the device', async () => {
  const brand = await sync.server.createUser({ role: 'brand' });
  const creator = await sync.server.createUser({ role: 'creator' });
  const ids = await insertDeals(sync.server.db, brand.id, 20);
  // The token the server issues carries the role it decided (app_metadata, kept equal to the profile's).
  const { rows } = await sync.server.db.pool.query<{ role: string }>(
    `select raw_app_meta_data ->> 'role' as role from auth.users where id = $1`,
    [creator.id],
  );
  expect(rows[0]!.role).toBe('creator');
  // No profiles replicated at all: without the session's role, the deals could only start in full.
  const c = await sync.client(creator, ['deals'], { pullOnlyByRole: true, serverRole: 'creator' });
  await c.replication.awaitInitialSync();
  await eventually(
    async () => (await c.db.deals.find({ selector: { brand_id: brand.id } }).exec()).length === ids.length,
  );
  expect(await keptServerStates(c, ids)).toBe(0);
});

test('a brand replicates its deals in full: the server states are kept and an edit is pushed', async () => {
  const brand = await sync.server.createUser({ role: 'brand' });
  const ids = await insertDeals(sync.server.db, brand.id, 30);
  const c = await sync.client(brand, ['profiles', 'deals'], { pullOnlyByRole: true });
  await c.replication.awaitInitialSync();
  await eventually(
    async () => (await c.db.deals.find({ selector: { brand_id: brand.id } }).exec()).length === ids.length,
  );
  await eventually(async () => (await keptServerStates(c, ids)) === ids.length);

  await (await c.db.deals.findOne(ids[0]!).exec())!.incrementalPatch({ title: 'Renamed by its brand' });
  await eventually(async () => {
    const { rows } = await sync.server.db.pool.query<{ title: string }>(
      'select title from public.deals where id = $1',
      [ids[0]],
    );
    return rows[0]!.title === 'Renamed by its brand';
  });
  expect(pushesOf(c).length).toBeGreaterThan(0);
});

test('a creator made admin replicates the deals in full from the next start, without sending back what it pulled', async () => {
  const brand = await sync.server.createUser({ role: 'brand' });
  const creator = await sync.server.createUser({ role: 'creator' });
  const ids = await insertDeals(sync.server.db, brand.id, 40);
  const c = await sync.client(creator, ['profiles', 'deals'], { pullBatchSize: 25, pullOnlyByRole: true });
  await c.replication.awaitInitialSync();
  await eventually(
    async () => (await c.db.deals.find({ selector: { brand_id: brand.id } }).exec()).length === ids.length,
  );
  await c.replication.stop();
  await sync.server.db.pool.query(`update public.profiles set role = 'admin' where id = $1`, [creator.id]);
  c.restart();
  await eventually(async () => (await c.db.profiles.findOne(creator.id).exec())?.get('role') === 'admin');
  await c.replication.stop();
  c.restart();
  await c.replication.awaitInitialSync();
  await eventually(async () => (await keptServerStates(c, ids)) === ids.length);
  await c.replication.awaitInSync();
  expect(pushesOf(c)).toHaveLength(0);

  await (await c.db.deals.findOne(ids[1]!).exec())!.incrementalPatch({ title: 'Edited by an admin' });
  await eventually(async () => {
    const { rows } = await sync.server.db.pool.query<{ title: string }>(
      'select title from public.deals where id = $1',
      [ids[1]],
    );
    return rows[0]!.title === 'Edited by an admin';
  });
});

test('a claimed role that may write starts the deals in full at once; it never makes them pull-only', async () => {
  const brand = await sync.server.createUser({ role: 'brand' });
  const creator = await sync.server.createUser({ role: 'creator' });
  const ids = await insertDeals(sync.server.db, brand.id, 20);
  // The brand's own claim: no wait for its profile.
  const b = await sync.client(brand, ['profiles', 'deals'], { pullOnlyByRole: true, roleHint: 'brand' });
  expect(b.replication.states.has('deals')).toBe(true);
  // A creator claiming to be a brand replicates in full: slower, never wrong.
  const c = await sync.client(creator, ['profiles', 'deals'], { pullOnlyByRole: true, roleHint: 'brand' });
  await c.replication.awaitInitialSync();
  await eventually(async () => (await keptServerStates(c, ids)) === ids.length);
  // A creator's claim to be a creator waits for the server's word, then pulls only.
  await sync.closeClient(c, { remove: true });
  const d = await sync.client(creator, ['profiles', 'deals'], { pullOnlyByRole: true, roleHint: 'creator' });
  expect(d.replication.states.has('deals')).toBe(false);
  await d.replication.awaitInitialSync();
  await eventually(
    async () => (await d.db.deals.find({ selector: { brand_id: brand.id } }).exec()).length === ids.length,
  );
  expect(await keptServerStates(d, ids)).toBe(0);
});
