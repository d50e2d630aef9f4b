import { IDBFactory } from 'fake-indexeddb';
import { expect, test } from 'vitest';
import { SYNC_PROTOCOL_VERSION, type SyncCheckpoint } from '../../src/domain/collections/index.ts';
import { purgeTombstones } from '../../sync-server/sync/tombstones.ts';
import type { TestUser } from '../support/test-server.ts';
import { eventually, insertDeals, newId, storageWithFaultyReplicationMeta, type TestClient } from './sync-harness.ts';
import { syncTestFixture } from './sync-fixture.ts';

const sync = syncTestFixture();

type Page = {
  documents: { id: string; _deleted: boolean; title?: string }[];
  checkpoint: SyncCheckpoint | null;
  reset?: boolean;
  pending?: boolean;
};

async function pull(user: TestUser, collection: string, checkpoint: SyncCheckpoint | null, limit = 100): Promise<Page> {
  const params = new URLSearchParams({ limit: String(limit) });
  if (checkpoint) params.set('checkpoint', JSON.stringify(checkpoint));
  const res = await fetch(`${sync.server.url}/sync/v1/${collection}/pull?${params}`, {
    headers: { authorization: `Bearer ${user.accessToken}`, 'x-pacta-protocol': String(SYNC_PROTOCOL_VERSION) },
  });
  expect(res.status).toBe(200);
  return (await res.json()) as Page;
}

test('two transactions committing out of order: the earlier one is not skipped', async () => {
  // Two brands: each deal insert also updates its brand's counters, and one shared brand row would
  // make the second transaction wait for the first.
  const brand = await sync.server.createUser({ role: 'brand' });
  const otherBrand = await sync.server.createUser({ role: 'brand' });
  const creator = await sync.server.createUser({ role: 'creator' });
  await insertDeals(sync.server.db, brand.id, 3);
  // Rows can be held back briefly behind another test database's transaction (xids are cluster-wide).
  const first = await eventually(async () => {
    const page = await pull(creator, 'deals', null);
    return page.documents.length >= 3 && page;
  });
  expect(first.documents.length).toBeGreaterThanOrEqual(3);

  const insert = `insert into public.deals (id, brand_id, title, description, amount_cents, niches)
                  values ($1, $2, $3, 'Out of order', 10000, '{tech}')`;
  const txA = await sync.server.db.pool.connect();
  const txB = await sync.server.db.pool.connect();
  const idA = newId();
  const idB = newId();
  try {
    await txA.query('begin');
    await txA.query(insert, [idA, brand.id, 'Deal from transaction A']); // A gets the smaller xid
    await txB.query('begin');
    await txB.query(insert, [idB, otherBrand.id, 'Deal from transaction B']);
    await txB.query('commit'); // B commits first

    // B is committed, but A (older) is still running: B is held back rather than letting the
    // checkpoint move past A's xid.
    const whileAOpen = await pull(creator, 'deals', first.checkpoint);
    expect(whileAOpen.documents.map((d) => d.id)).not.toContain(idB);
    expect(whileAOpen.documents.map((d) => d.id)).not.toContain(idA);

    await txA.query('commit');
  } finally {
    txA.release();
    txB.release();
  }
  // Both arrive together once A has committed (and any other database's older transaction has ended).
  const afterA = await eventually(async () => {
    const page = await pull(creator, 'deals', first.checkpoint);
    const ids = page.documents.map((d) => d.id);
    return ids.includes(idA) && ids.includes(idB) && page;
  });
  const next = await pull(creator, 'deals', afterA.checkpoint);
  expect(next.documents).toEqual([]);

  // And a real client following the same feed ends with both.
  const c = await sync.client(creator, ['deals']);
  await c.replication.awaitInitialSync();
  await eventually(async () => (await c.db.deals.findByIds([idA, idB]).exec()).size === 2);
});

test('a deal listed by a younger transaction and then edited by an older one still reaches a device as a removal', async () => {
  // Transaction ids do not follow commit order: the edit's change id is smaller than the listing's, and
  // the device receives the deal at the edit's position. Removals go for deals listed at or before the
  // checkpoint, so the listing must count from the edit's change id.
  const brand = await sync.server.createUser({ role: 'brand' });
  const creator = await sync.server.createUser({ role: 'creator' });
  const older = await sync.server.db.pool.connect();
  const deal = newId();
  try {
    await older.query('begin');
    await older.query('select pg_current_xact_id()'); // takes its id before the listing's
    await sync.server.db.pool.query(
      `insert into public.deals (id, brand_id, title, description, amount_cents, niches, status)
       values ($1, $2, 'Listed', 'Listed by a younger transaction', 10000, '{tech}', 'open')`,
      [deal, brand.id],
    );
    await older.query(`update public.deals set title = 'Edited by the older transaction' where id = $1`, [deal]);
    await older.query('commit');
  } finally {
    older.release();
  }
  const first = await eventually(async () => {
    const page = await pull(creator, 'deals', null);
    return page.pending !== true && page.documents.some((d) => d.id === deal) && page;
  });
  expect(first.checkpoint!.id).toBe(deal);

  await sync.server.db.pool.query(`update public.deals set status = 'cancelled' where id = $1`, [deal]);
  const next = await eventually(async () => {
    const page = await pull(creator, 'deals', first.checkpoint);
    return page.pending !== true && page.documents.length > 0 && page;
  });
  expect(next.documents).toEqual([{ id: deal, _deleted: true }]);
});

test('a row held back by an older transaction arrives when it ends, even if that transaction writes nothing replicated', async () => {
  const brand = await sync.server.createUser({ role: 'brand' });
  const creator = await sync.server.createUser({ role: 'creator' });
  const c = await sync.client(creator, ['deals']);
  await c.replication.awaitInitialSync();
  const blocker = await sync.server.db.pool.connect();
  try {
    await blocker.query('begin');
    await blocker.query('select pg_current_xact_id()'); // holds an older xid, touches no replicated table
    const [held] = await insertDeals(sync.server.db, brand.id, 1);
    await new Promise((r) => setTimeout(r, 300));
    expect(await c.db.deals.findOne(held!).exec()).toBeNull();
    await blocker.query('commit'); // no change notice follows this commit
    await eventually(async () => (await c.db.deals.findOne(held!).exec()) !== null);
  } finally {
    blocker.release();
  }
});

test('a page that brings rows while a newer committed row is held back says pending, fresh or not, until the older transaction ends', async () => {
  const brand = await sync.server.createUser({ role: 'brand' });
  const creator = await sync.server.createUser({ role: 'creator' });
  const start = await eventually(async () => {
    const page = await pull(creator, 'deals', null);
    return page.pending !== true && page;
  });
  const [before] = await insertDeals(sync.server.db, brand.id, 1);
  const blocker = await sync.server.db.pool.connect();
  try {
    await blocker.query('begin');
    await blocker.query('select pg_current_xact_id()'); // older than the next deal, touches nothing replicated
    const [held] = await insertDeals(sync.server.db, brand.id, 1);
    // The fresh feed (no checkpoint) and the catalog's incremental page (from a checkpoint) both answer
    // the committed deal older than the blocker, hold the newer one back, and say so.
    for (const checkpoint of [null, start.checkpoint]) {
      const page = await eventually(async () => {
        const p = await pull(creator, 'deals', checkpoint);
        return p.documents.some((d) => d.id === before) && p;
      });
      expect(page.documents.map((d) => d.id)).not.toContain(held);
      expect(page.pending).toBe(true);
      // Past the last row served, nothing is visible yet: the empty page says pending too.
      const after = await pull(creator, 'deals', page.checkpoint);
      expect(after.documents).toEqual([]);
      expect(after.pending).toBe(true);
    }
    await blocker.query('commit');
    const done = await eventually(async () => {
      const p = await pull(creator, 'deals', start.checkpoint);
      return p.documents.some((d) => d.id === held) && p.pending !== true && p;
    });
    expect(done.documents.map((d) => d.id)).toEqual(expect.arrayContaining([before, held]));
  } finally {
    blocker.release();
  }
});

test("a deal leaving a creator's scope reaches the creator's device as a removal", async () => {
  const brand = await sync.server.createUser({ role: 'brand' });
  const creator = await sync.server.createUser({ role: 'creator' });
  const [turnsPro, getsCancelled, stays] = await insertDeals(sync.server.db, brand.id, 3);
  const b = await sync.client(brand, ['deals']);
  const c = await sync.client(creator, ['deals']);
  await Promise.all([b.replication.awaitInitialSync(), c.replication.awaitInitialSync()]);
  // Rows can be held back briefly behind an older transaction anywhere in the cluster (another test's
  // database shares the xid space); the client re-pulls them, so wait rather than assert at once.
  await eventually(async () => (await c.db.deals.findByIds([turnsPro!, getsCancelled!, stays!]).exec()).size === 3);

  // The brand edits its deals on its own device; replication carries the edits to the sync.server.
  await (await b.db.deals.findOne(turnsPro!).exec())!.incrementalPatch({ pro_only: true });
  await (await b.db.deals.findOne(getsCancelled!).exec())!.incrementalPatch({ status: 'cancelled' });

  await eventually(async () => (await c.db.deals.findByIds([turnsPro!, getsCancelled!]).exec()).size === 0);
  expect(await c.db.deals.findOne(stays!).exec()).not.toBeNull();
  // The brand still sees both of its deals.
  await eventually(async () => (await b.db.deals.findOne(getsCancelled!).exec())?.status === 'cancelled');
  expect((await b.db.deals.findOne(turnsPro!).exec())?.pro_only).toBe(true);
});

test('Pro revoked: Pro-only deals disappear from the device, the rest stay', async () => {
  const brand = await sync.server.createUser({ role: 'brand' });
  const creator = await sync.server.createUser({ role: 'creator' });
  const proDeals = await insertDeals(sync.server.db, brand.id, 2, { pro_only: true });
  const [openDeal] = await insertDeals(sync.server.db, brand.id, 1);
  await sync.server.db.asService((tx) =>
    tx.query(`select public.grant_pro_features($1, array['pro_deals'], interval '30 days')`, [creator.id]),
  );

  const c = await sync.client(creator, ['deals']);
  await c.replication.awaitInitialSync();
  await eventually(async () => (await c.db.deals.findByIds([...proDeals, openDeal!]).exec()).size === 3);

  await sync.server.db.asService((tx) =>
    tx.query('delete from public.user_pro_features where user_id = $1', [creator.id]),
  );
  await eventually(async () => (await c.db.deals.findByIds(proDeals).exec()).size === 0);
  expect(await c.db.deals.findOne(openDeal!).exec()).not.toBeNull();
  // Scope is back to "free": further pulls are ordinary again.
  const [later] = await insertDeals(sync.server.db, brand.id, 1);
  await eventually(async () => (await c.db.deals.findOne(later!).exec()) !== null);
  expect((await c.db.deals.findByIds(proDeals).exec()).size).toBe(0);
});

test('a device older than the tombstone horizon is reset once, keeping its unpushed work', async () => {
  const creator = await sync.server.createUser({ role: 'creator' });
  const idb = new IDBFactory();
  const name = `pacta-horizon-${creator.id.slice(0, 8)}`;
  const c = await sync.client(creator, ['drafts'], { idb, name });
  const [keep, removed] = [newId(), newId()];
  await c.db.drafts.bulkInsert([
    { id: keep, user_id: creator.id, kind: 'deal', title: 'Kept', payload: {} },
    { id: removed, user_id: creator.id, kind: 'deal', title: 'Deleted on another device', payload: {} },
  ]);
  await eventually(
    async () =>
      (await sync.server.db.pool.query('select count(*)::int as n from public.drafts where user_id = $1', [creator.id]))
        .rows[0].n === 2,
  );
  await c.replication.awaitInSync();
  await sync.closeClient(c, { remove: false });

  // While the device is away: the draft is deleted elsewhere and its tombstone purged.
  await sync.server.db.asService((tx) => tx.query('update public.drafts set deleted = true where id = $1', [removed]));
  const purged = await purgeTombstones(sync.server.db, 0);
  expect(purged.drafts).toBe(1);

  const again = await reconnectWithUnpushedWork(creator, { idb, name }, { keep, removed });

  // The reset happened once: the checkpoint the device stored carries the new horizon, so pulling
  // from it is an ordinary pull, not another reset.
  expect(await pullFromStoredCheckpoint(again, creator)).toEqual({ reset: false });
});

test('a device that lost its stored checkpoint still drops rows deleted meanwhile, keeping its unpushed work', async () => {
  const creator = await sync.server.createUser({ role: 'creator' });
  const idb = new IDBFactory();
  const name = `pacta-lost-${creator.id.slice(0, 8)}`;
  const faulty = storageWithFaultyReplicationMeta(idb);
  faulty.control.dropCheckpoints = true;
  const c = await sync.client(creator, ['drafts'], { storage: faulty.storage, name });
  const [keep, removed] = [newId(), newId()];
  await c.db.drafts.bulkInsert([
    { id: keep, user_id: creator.id, kind: 'deal', title: 'Kept', payload: {} },
    { id: removed, user_id: creator.id, kind: 'deal', title: 'Deleted on another device', payload: {} },
  ]);
  await eventually(
    async () =>
      (await sync.server.db.pool.query('select count(*)::int as n from public.drafts where user_id = $1', [creator.id]))
        .rows[0].n === 2,
  );
  await eventually(async () => (await c.db.drafts.findOne(keep).exec())?.version === 1);
  await c.replication.awaitInSync();
  await sync.closeClient(c, { remove: false });

  // While the device is away the draft is deleted elsewhere and its tombstone purged: a pull from
  // scratch cannot carry the deletion, and without a checkpoint the server sees no reason to reset.
  await sync.server.db.asService((tx) => tx.query('update public.drafts set deleted = true where id = $1', [removed]));
  expect((await purgeTombstones(sync.server.db, 0)).drafts).toBe(1);

  await reconnectWithUnpushedWork(creator, { idb, name }, { keep, removed });
  expect(
    (await sync.server.db.pool.query('select count(*)::int as n from public.drafts where id = $1', [removed])).rows[0]
      .n,
  ).toBe(0);
});

/**
 * The device comes back (same local database), writes a draft before its first sync, and must end
 * without the draft deleted elsewhere, with the kept one, and with its new draft on the server.
 */
async function reconnectWithUnpushedWork(
  creator: TestUser,
  device: { idb: IDBFactory; name: string },
  drafts: { keep: string; removed: string },
) {
  const again = await sync.client(creator, ['drafts'], device);
  const unpushed = newId();
  await again.db.drafts.insert({
    id: unpushed,
    user_id: creator.id,
    kind: 'message',
    title: 'Written before reconnecting',
    payload: {},
  });
  await eventually(async () => (await again.db.drafts.findOne(drafts.removed).exec()) === null);
  expect(await again.db.drafts.findOne(drafts.keep).exec()).not.toBeNull();
  await eventually(
    async () =>
      (await sync.server.db.pool.query('select count(*)::int as n from public.drafts where id = $1', [unpushed]))
        .rows[0].n === 1,
  );
  expect(await again.db.drafts.findOne(unpushed).exec()).not.toBeNull();
  return again;
}

/** Pulls once from the checkpoint the device stored and reports whether the server asked for a reset. */
async function pullFromStoredCheckpoint(c: TestClient, user: TestUser): Promise<{ reset: boolean }> {
  const state = c.replication.states.get('drafts')!;
  await state.awaitInSync();
  const checkpoint = state.internalReplicationState!.lastCheckpointDoc.down?.checkpointData as
    SyncCheckpoint | undefined;
  expect(checkpoint).toBeDefined();
  const page = await pull(user, 'drafts', checkpoint!);
  return { reset: page.reset === true };
}
