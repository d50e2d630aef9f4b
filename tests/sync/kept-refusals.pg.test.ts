import { expect, test } from 'vitest';
import { discardRefusedChange } from '../../src/db/refused-changes.ts';
import { eventually, insertDeals } from './sync-harness.ts';
import { syncTestFixture } from './sync-fixture.ts';

// A change the server refused stays on the device with its reason until the user mends or discards
// it: the sync status lists it, and the screens say it did not go through. The server's copy of that
// document may move on meanwhile (the deal funded, its applicants counted); the device then shows the
// newer copy, and the refusal still stands.

const sync = syncTestFixture();

test('a refusal stays when the server’s copy of the refused document moves on', async () => {
  const brand = await sync.server.createUser({ role: 'brand' });
  const [dealId] = (await insertDeals(sync.server.db, brand.id, 1)) as [string];
  const device = await sync.client(brand, ['deals']);
  await device.replication.awaitInitialSync();
  const local = () => device.db.deals.findOne(dealId).exec();
  await eventually(local);

  // Funded on the server: the amount may no longer change, so the device's new amount is refused.
  await sync.server.db.pool.query(`update public.deals set escrow_status = 'pending' where id = $1`, [dealId]);
  await eventually(async () => (await local())?.get('escrow_status') === 'pending' || null);
  await (await local())!.incrementalPatch({ amount_cents: 40_000 });
  const refusal = await eventually(async () => (await local())?.get('sync_rejection'));
  expect(refusal).toMatchObject({ code: 'deal_funded' });

  // The server's copy changes again; the device takes it and keeps the refusal.
  await sync.server.db.pool.query(`update public.deals set title = 'Renamed on the server' where id = $1`, [dealId]);
  await eventually(async () => (await local())?.get('title') === 'Renamed on the server' || null);
  const after = await local();
  expect(after!.get('sync_rejection')).toEqual(refusal);
  expect(after!.get('amount_cents')).toBe(50_001);
  await device.replication.awaitInSync();
  expect(device.replication.syncStatus.rejected).toEqual([
    expect.objectContaining({ collection: 'deals', id: dealId, code: 'deal_funded' }),
  ]);
  expect(device.replication.syncStatus.pendingPush).toBe(0);

  // Discarded, it is gone; the next change goes through on the server's newer copy.
  await discardRefusedChange(device.db, 'deals', dealId);
  await (await local())!.incrementalPatch({ description: 'Edited after the refusal' });
  await device.replication.awaitInSync();
  const { rows } = await sync.server.db.pool.query(
    'select title, description, amount_cents from public.deals where id = $1',
    [dealId],
  );
  expect(rows[0]).toEqual({
    title: 'Renamed on the server',
    description: 'Edited after the refusal',
    amount_cents: 50_001,
  });
  expect(device.replication.syncStatus.rejected).toEqual([]);
  await sync.closeClient(device);
});
