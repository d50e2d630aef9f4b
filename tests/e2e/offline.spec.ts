import { createConfirmedAccount } from './pages/auth-mailbox.ts';
import { SignInPage } from './pages/auth-pages.ts';
import { DashboardPage } from './pages/dashboard-page.ts';
import { serverProfile, SettingsPage } from './pages/settings-page.ts';
import { expect, test } from './support/console-errors.ts';

// Issue 4 "Must show", offline: after one online visit, with the browser offline, a reload opens the
// app signed in; every route of the issue renders from local data; a settings change made offline
// shows as waiting, reaches the server after reconnecting, and the waiting indicator clears.

// Offline, sync requests fail and Chromium logs each failed fetch (ERR_INTERNET_DISCONNECTED is allowed by
// the fixture); switching the network back logs ERR_NETWORK_CHANGED for requests cut mid-way.
test.use({ allowedConsoleErrors: [/net::ERR_NETWORK_CHANGED/] });

test('offline after one visit: signed in from local data on every route; an offline settings change syncs after reconnecting', async ({
  page,
  context,
  request,
}) => {
  test.setTimeout(120_000);
  const account = await createConfirmedAccount(request, { role: 'creator', fullName: 'Olive Offline' });
  await new SignInPage(page).signInToDashboard(account.email, account.password);
  const dashboard = new DashboardPage(page);
  await dashboard.expectLoaded('Olive Offline');
  await dashboard.expectSynced();
  // The service worker now controls the app (precached shell and route chunks).
  await page.evaluate(() => navigator.serviceWorker.ready);
  await page.reload();
  await expect.poll(() => page.evaluate(() => Boolean(navigator.serviceWorker.controller))).toBe(true);
  await dashboard.expectLoaded('Olive Offline');

  await context.setOffline(true);
  try {
    await page.reload();
    await dashboard.expectLoaded('Olive Offline');
    await expect(dashboard.syncLabel).toHaveText('Offline');
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByRole('alertdialog')).toHaveCount(0);

    // Every route of this issue, opened by a full navigation with no network.
    const routes: [string, RegExp | string][] = [
      ['/dashboard', /^Welcome (back|to Pacta), Olive Offline$/],
      ['/settings', 'Settings'],
      ['/settings?section=security', 'Settings'],
      ['/settings?section=personalisation', 'Settings'],
      ['/settings?section=pro', 'Settings'],
      ['/settings?section=privacy', 'Settings'],
      ['/profile/me', 'Olive Offline'],
    ];
    for (const [path, heading] of routes) {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(heading);
      await expect(page).not.toHaveURL(/\/auth\/signin/);
    }
    await page.goto('/settings');
    const settings = new SettingsPage(page);
    await expect(settings.fullName).toHaveValue('Olive Offline');
    await expect(settings.email).toHaveValue(account.email);

    // A change made offline: saved locally, shown as waiting in the sync status.
    await settings.bio.fill('Written on a train with no signal at all, and it still saved.');
    await settings.niche('Travel').click();
    await settings.save.click();
    await expect(settings.toast('Settings updated successfully')).toBeVisible();
    await dashboard.openSyncDetails();
    await expect(page.getByTestId('sync-status-waiting')).toHaveText('1 change waiting to sync');
    await expect(page.getByLabel('1 change waiting to sync')).toBeVisible();
    expect((await serverProfile(account.email))?.bio).toBe('');
  } finally {
    await context.setOffline(false);
  }

  // Back online: the change reaches the server and the waiting indicator clears.
  await expect(page.getByTestId('sync-status-waiting')).toHaveText('All changes synced', { timeout: 20_000 });
  await expect(page.getByLabel('1 change waiting to sync')).toHaveCount(0);
  await expect(dashboard.syncLabel).toHaveText('Synced');
  await expect
    .poll(async () => await serverProfile(account.email), { timeout: 10_000 })
    .toMatchObject({ bio: 'Written on a train with no signal at all, and it still saved.', niches: ['Travel'] });
});

test('unsynced changes survive a reload and are never dropped silently at sign-out; signing out deletes the local database', async ({
  page,
  context,
  request,
}) => {
  test.setTimeout(120_000);
  const account = await createConfirmedAccount(request, { role: 'brand', fullName: 'Noor Signout' });
  await new SignInPage(page).signInToDashboard(account.email, account.password);
  const dashboard = new DashboardPage(page);
  await dashboard.expectSynced();
  const userDatabases = () =>
    page.evaluate(async () =>
      (await indexedDB.databases()).map((d) => d.name ?? '').filter((name) => name.includes('pacta-')),
    );
  expect((await userDatabases()).length).toBeGreaterThan(0);
  await page.evaluate(() => navigator.serviceWorker.ready);
  await page.reload();
  await expect.poll(() => page.evaluate(() => Boolean(navigator.serviceWorker.controller))).toBe(true);

  await context.setOffline(true);
  const settings = new SettingsPage(page);
  try {
    await settings.goto();
    await settings.bio.fill('Changed with no connection, then the page was reloaded.');
    await settings.save.click();
    await expect(settings.toast('Settings updated successfully')).toBeVisible();
    await expect(page.getByLabel('1 change waiting to sync')).toBeVisible();
    // The waiting change is remembered across a reload.
    await page.reload();
    await expect(page.getByLabel('1 change waiting to sync')).toBeVisible();

    await page.getByRole('button', { name: 'Sign Out' }).click();
    const prompt = page.getByRole('alertdialog');
    await expect(prompt).toContainText('You have 1 change that has not synced yet.');
    await prompt.getByRole('button', { name: 'Wait for sync, then sign out' }).click();
    await expect(prompt.getByRole('alert')).toContainText('Sync could not finish');
    await expect(page).toHaveURL(/\/settings$/);
  } finally {
    await context.setOffline(false);
  }

  // Back online, "Wait for sync" pushes the change, then signs out and deletes the local database.
  await page.getByRole('alertdialog').getByRole('button', { name: 'Wait for sync, then sign out' }).click();
  await expect(page).toHaveURL(/\/auth\/signin$/, { timeout: 30_000 });
  expect((await serverProfile(account.email))?.bio).toBe('Changed with no connection, then the page was reloaded.');
  await expect.poll(userDatabases).toEqual([]);
});
