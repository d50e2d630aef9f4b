import { expect, test } from 'vitest';
import { addToSavedList, removeFromSavedList } from '../../src/features/profiles/data/saved-list.ts';
import { invitationEntry, savedListId } from '../../src/domain/saved-lists.ts';
import { syncTestFixture } from './sync-fixture.ts';
import { eventually, insertDeals } from './sync-harness.ts';
import type { TestClient, TestUser } from './sync-harness.ts';

// What a brand can make creators receive by inviting them (real server, the brand's real RxDB
// client and the invite operations the app uses): one notice per campaign and creator per 7 days,
// at most 20 notices per brand per hour.

const sync = syncTestFixture();

const serverItems = async (brand: TestUser) =>
  (
    await sync.server.db.pool.query('select items from public.saved_lists where id = $1', [
      savedListId(brand.id, 'campaign_invites'),
    ])
  ).rows[0]?.items as string[] | undefined;

const noticesTo = async (creatorId: string) =>
  (
    await sync.server.db.pool.query(
      `select count(*)::int as n from public.notifications where type = 'campaign_invite' and user_id = $1`,
      [creatorId],
    )
  ).rows[0].n as number;

async function brandDevice(): Promise<{ brand: TestUser; device: TestClient }> {
  const brand = await sync.server.createUser({ role: 'brand' });
  const device = await sync.client(brand, ['saved_lists']);
  await device.replication.awaitInitialSync();
  return { brand, device };
}

test('withdrawing and re-inviting does not notify the creator again', async () => {
  const { brand, device } = await brandDevice();
  const creator = await sync.server.createUser({ role: 'creator' });
  const [dealId] = (await insertDeals(sync.server.db, brand.id, 1)) as [string];
  const entry = invitationEntry(dealId, creator.id);

  for (let round = 0; round < 4; round++) {
    await addToSavedList(device.db, brand.id, 'campaign_invites', entry);
    await eventually(async () => (await serverItems(brand))?.includes(entry) || null);
    await removeFromSavedList(device.db, brand.id, 'campaign_invites', entry);
    await eventually(async () => ((await serverItems(brand))?.includes(entry) === false ? true : null));
  }
  await addToSavedList(device.db, brand.id, 'campaign_invites', entry);
  await eventually(async () => (await serverItems(brand))?.includes(entry) || null);
  expect(await noticesTo(creator.id)).toBe(1);
  await sync.closeClient(device);
});

test('a brand can notify at most 20 creators an hour; the 21st invitation is refused with the reason', async () => {
  const { brand, device } = await brandDevice();
  const creators = await Promise.all(Array.from({ length: 7 }, () => sync.server.createUser({ role: 'creator' })));
  const deals = await insertDeals(sync.server.db, brand.id, 3);
  const entries = deals.flatMap((d) => creators.map((c) => ({ entry: invitationEntry(d, c.id), creator: c.id })));
  for (const { entry } of entries.slice(0, 20)) await addToSavedList(device.db, brand.id, 'campaign_invites', entry);
  await eventually(async () => ((await serverItems(brand))?.length === 20 ? true : null));

  const last = entries[20]!;
  await addToSavedList(device.db, brand.id, 'campaign_invites', last.entry);
  const refusal = await eventually(
    async () => (await device.db.saved_lists.findOne(savedListId(brand.id, 'campaign_invites')).exec())?.sync_rejection,
  );
  expect(refusal).toEqual({
    code: 'invitation_rate_limited',
    message: 'You have sent 20 invitations in the last hour. Please wait a while before inviting more creators.',
  });
  expect(await serverItems(brand)).not.toContain(last.entry);
  const notices = await Promise.all(creators.map((c) => noticesTo(c.id)));
  expect(notices.reduce((a, b) => a + b, 0)).toBe(20);
  expect(await noticesTo(last.creator)).toBe(2);
  await sync.closeClient(device);
});
