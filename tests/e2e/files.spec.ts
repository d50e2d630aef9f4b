import { expect, test } from './support/fixtures.ts';
import { makePicture, pictureLoaded, serverPictures } from './pages/files-pages.ts';

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
