import { expect, test } from 'vitest';
import { syncTestFixture } from './sync-fixture.ts';
import { eventually } from './sync-harness.ts';
import type { TestClient, TestUser } from './sync-harness.ts';

// A profile's social links and picture are shown to everyone who opens it, so the server holds them
// to a rule: links only https://, pictures only from Pacta itself. Written through a real RxDB client
// and refused on sync with the reason the forms show.

const sync = syncTestFixture();

async function signedInDevice(): Promise<{ user: TestUser; device: TestClient }> {
  const user = await sync.server.createUser({ role: 'creator' });
  const device = await sync.client(user, ['profiles']);
  await device.replication.awaitInitialSync();
  await eventually(() => device.db.profiles.findOne(user.id).exec());
  return { user, device };
}

async function edit(device: TestClient, userId: string, patch: Record<string, unknown>) {
  const doc = await device.db.profiles.findOne(userId).exec();
  await doc!.incrementalPatch({ ...patch, sync_rejection: null });
}

const onServer = async (userId: string) =>
  (await sync.server.db.pool.query('select social_links, avatar_url from public.profiles where id = $1', [userId]))
    .rows[0] as { social_links: Record<string, string>; avatar_url: string | null };

test('a social link that is not a full https:// address is refused, javascript: and data: included', async () => {
  const { user, device } = await signedInDevice();
  for (const [platform, link] of [
    ['instagram', 'javascript:alert(document.cookie)'],
    ['tiktok', 'data:text/html,<script>alert(1)</script>'],
    ['youtube', 'http://youtube.com/@me'],
  ] as const) {
    await edit(device, user.id, { social_links: { [platform]: link } });
    const refusal = await eventually(async () => (await device.db.profiles.findOne(user.id).exec())?.sync_rejection);
    expect(refusal.code).toBe('invalid_social_link');
    expect(refusal.message).toMatch(/link must be a full address starting with https:\/\//);
    expect((await onServer(user.id)).social_links).toEqual({});
  }
  await edit(device, user.id, { social_links: { myspace: 'https://myspace.com/me' } });
  expect((await eventually(async () => (await device.db.profiles.findOne(user.id).exec())?.sync_rejection)).code).toBe(
    'unknown_social_platform',
  );

  // A valid link is saved, look-alike hosts included (the app shows those unverified).
  const links = { instagram: 'https://www.instagram.com/me', tiktok: 'https://tiktok.com.example.net/@me' };
  await edit(device, user.id, { social_links: links });
  await eventually(async () => (await onServer(user.id)).social_links.instagram || null);
  expect((await onServer(user.id)).social_links).toEqual(links);
  await sync.closeClient(device);
});

test("a picture on another site, inline or in another's folder is refused; one uploaded to the owner's folder is kept", async () => {
  const { user, device } = await signedInDevice();
  for (const outside of [
    'https://tracker.example/pixel.png?viewer=1',
    '//tracker.example/pixel.png',
    '/\\tracker.example/pixel.png',
    '/\t/tracker.example/pixel.png',
    'http://127.0.0.1:9/pixel.png',
    '/avatars/me.svg',
    'data:image/svg+xml,%3Csvg xmlns=%27http://www.w3.org/2000/svg%27/%3E',
    '/storage/v1/object/public/avatars/0192f5b0-1c2d-7e3f-8a4b-5c6d7e8f9a0c/avatar.webp',
  ]) {
    await edit(device, user.id, { avatar_url: outside });
    const refusal = await eventually(async () => (await device.db.profiles.findOne(user.id).exec())?.sync_rejection);
    expect({ outside, code: refusal.code }).toEqual({ outside, code: 'external_picture' });
    expect(refusal.message).toMatch(/Profile pictures can only be uploaded to Pacta/);
    expect((await onServer(user.id)).avatar_url).toBeNull();
  }
  for (const own of [
    `/storage/v1/object/public/avatars/${user.id}/avatar-1.webp`,
    `/storage/v1/object/public/brand-logos/${user.id}/logo.png`,
  ]) {
    await edit(device, user.id, { avatar_url: own });
    await eventually(async () => (await onServer(user.id)).avatar_url === own || null);
  }
  await sync.closeClient(device);
});
