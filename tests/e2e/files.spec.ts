import { expect, test } from './support/fixtures.ts';
import { seedDeals, waitForSynced } from './pages/deals-page.ts';
import { seedApplication } from './pages/inbox-page.ts';
import { makePicture, makeVideo, pictureLoaded, serverPictures } from './pages/files-pages.ts';

// Files picked offline are kept on the device, shown from there at once and through a reload, and
// uploaded (resumably, with tus) when the connection returns; then the record holds the stored address.

// Offline, sync requests fail and Chromium logs each failed fetch (ERR_INTERNET_DISCONNECTED is allowed by
// the fixture); switching the network back logs ERR_NETWORK_CHANGED for requests cut mid-way.
test.use({ allowedConsoleErrors: [/net::ERR_NETWORK_CHANGED/] });

test('an avatar set offline is shown at once and after an offline reload, uploaded on reconnect, then seen by another user', async ({
  newAccount,
  openAs,
}) => {
  test.setTimeout(120_000);
  const creator = await newAccount('creator', { fullName: 'Pia Picture' });
  const { page, context } = await openAs(creator, '/settings', { offlineReady: true });
  const field = page.locator('.profile-picture-field');
  const avatar = field.locator('img.avatar');

  await context.setOffline(true);
  try {
    await page.getByTestId('profile-picture-input').setInputFiles({
      name: 'me.png',
      mimeType: 'image/png',
      buffer: await makePicture(),
    });
    await expect(avatar).toHaveAttribute('src', /^blob:/);
    await expect(field.getByRole('status')).toHaveText('Saved on this device. It uploads when you are back online.');
    expect(await pictureLoaded(page, '.profile-picture-field img.avatar')).toBe(true);

    await page.reload();
    await expect(avatar).toHaveAttribute('src', /^blob:/);
    await expect.poll(() => pictureLoaded(page, '.profile-picture-field img.avatar')).toBe(true);
    expect((await serverPictures(creator.email)).avatar_url).toBeNull();
  } finally {
    await context.setOffline(false);
  }

  const { id } = await serverPictures(creator.email);
  const stored = new RegExp(`^/storage/v1/object/public/avatars/${id}/[\\w.-]+$`);
  await expect(avatar).toHaveAttribute('src', stored, { timeout: 30_000 });
  await expect(field.getByTestId('upload-status')).toHaveCount(0);
  await expect.poll(async () => (await serverPictures(creator.email)).avatar_url, { timeout: 30_000 }).toMatch(stored);

  const brand = await newAccount('brand');
  const other = await openAs(brand, `/creator/${id}`);
  const seen = other.page.locator('.portfolio-head img.portfolio-avatar');
  await expect(seen).toHaveAttribute('src', stored);
  await expect.poll(() => pictureLoaded(other.page, '.portfolio-head img.portfolio-avatar')).toBe(true);
});

test('a 30 MB video added to a portfolio with the connection dropped halfway resumes from where it stopped', async ({
  newAccount,
  openAs,
}) => {
  test.setTimeout(180_000);
  const creator = await newAccount('creator', { fullName: 'Vic Video' });
  const { id } = await serverPictures(creator.email);
  const { page, context } = await openAs(creator, `/creator/${id}`);
  const MB = 1024 * 1024;
  const tus: { method: string; offset: number }[] = [];
  page.on('request', (request) => {
    if (request.url().includes('/storage/v1/upload/resumable'))
      tus.push({ method: request.method(), offset: Number(request.headers()['upload-offset'] ?? -1) });
  });

  // The connection drops once the server holds part of the file: the chunk from 12 MB on, and every
  // request after it, fails as a dropped connection would. Decided per request as it leaves, so no
  // chunk already on its way slips through (Chromium's offline mode lets those, and on loopback the
  // next one, through).
  const upload = '**/storage/v1/upload/resumable/**';
  let dropped = false;
  let drop = () => {};
  const halfway = new Promise<void>((resolve) => (drop = resolve));
  await page.route(upload, (route) => {
    const request = route.request();
    if (request.method() === 'PATCH' && Number(request.headers()['upload-offset']) >= 12 * MB) {
      dropped = true;
      drop();
    }
    return dropped ? route.abort('internetdisconnected') : route.continue();
  });
  await page.getByTestId('portfolio-media-input').setInputFiles({
    name: 'reel.mp4',
    mimeType: 'video/mp4',
    buffer: makeVideo(30 * MB),
  });
  const pending = page.getByTestId('portfolio-media-pending');
  await expect(pending.locator('video')).toHaveAttribute('src', /^blob:/);
  await halfway;
  // Offline as well: the browser says so.
  await context.setOffline(true);
  try {
    await expect(pending.getByRole('status')).toHaveText('Saved on this device. It uploads when you are back online.');
    // The text follows the browser's offline flag at once; the upload itself stops once its request fails.
    await expect(pending.getByTestId('upload-status')).toHaveAttribute('data-state', 'waiting', { timeout: 30_000 });
    const sent = Number(await pending.locator('progress').getAttribute('value'));
    expect(sent).toBeGreaterThanOrEqual(20);
    expect(sent).toBeLessThan(100);
  } finally {
    await page.unroute(upload);
    await context.setOffline(false);
  }
  const reconnectedAt = tus.length;

  const stored = new RegExp(`^/storage/v1/object/public/portfolio/${id}/[\\w.-]+\\.mp4$`);
  await expect(page.getByTestId('portfolio-media').locator('video')).toHaveAttribute('src', stored, {
    timeout: 60_000,
  });
  await expect(pending).toHaveCount(0);
  // After the drop the upload continued where the server had got to (asked with HEAD, or straight on when
  // the last answer already said it); it was never created again.
  const after = tus.slice(reconnectedAt);
  expect(after.filter((r) => r.method === 'POST')).toEqual([]);
  const resumedAt = after.find((r) => r.method === 'PATCH')?.offset ?? 0;
  expect(resumedAt).toBeGreaterThanOrEqual(12 * MB);
  await expect
    .poll(async () => (await serverPictures(creator.email)).portfolio_media.map((m) => m.kind), { timeout: 30_000 })
    .toEqual(['video']);
});

test('an attachment sent offline shows from the device at once, goes out on reconnect and reaches the other person', async ({
  newAccount,
  openAs,
}) => {
  test.setTimeout(180_000);
  const brand = await newAccount('brand', { fullName: 'Brand Lens Review' });
  const creator = await newAccount('creator', { fullName: 'Creator Lens Review' });
  const [deal] = await seedDeals(brand.email, ['Lens review']);
  await seedApplication(deal!.id, creator.email);
  const { page, context } = await openAs(creator, `/deals/${deal!.id}`);
  await page.getByRole('link', { name: 'Message brand' }).click();
  await expect(page).toHaveURL(/\/inbox\/[0-9a-f-]{36}$/);
  const conversationId = page.url().split('/').pop()!;
  await waitForSynced(page);

  await context.setOffline(true);
  const pending = page.getByTestId('pending-attachment');
  try {
    await page.getByRole('textbox', { name: 'Message' }).fill('The shot list, as promised');
    await page.getByTestId('attachment-input').setInputFiles({
      name: 'shot-list.png',
      mimeType: 'image/png',
      buffer: await makePicture(800, 600, '#2e86c1'),
    });
    await expect(pending.locator('img')).toHaveAttribute('src', /^blob:/);
    await expect(pending.getByRole('status')).toHaveText('Saved on this device. It uploads when you are back online.');
    // The text follows the browser's offline flag at once; the upload itself stops once its request fails.
    await expect(pending.getByTestId('upload-status')).toHaveAttribute('data-state', 'waiting', { timeout: 30_000 });
    await expect(pending).toContainText('The shot list, as promised');
  } finally {
    await context.setOffline(false);
  }

  const sent = page.locator('.message', { hasText: 'The shot list, as promised' }).locator('img.message-image');
  await expect(pending).toHaveCount(0, { timeout: 30_000 });
  await expect(sent).toHaveAttribute('src', /\/storage\/v1\/object\/sign\/attachments\//, { timeout: 30_000 });

  const other = await openAs(brand, `/inbox/${conversationId}`);
  const received = other.page
    .locator('.message', { hasText: 'The shot list, as promised' })
    .locator('img.message-image');
  await expect(received).toHaveAttribute('src', new RegExp(`/storage/v1/object/sign/attachments/${conversationId}/`), {
    timeout: 30_000,
  });
  await expect.poll(() => received.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(800);
});
