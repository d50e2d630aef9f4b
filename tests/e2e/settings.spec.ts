import { createConfirmedAccount } from './pages/auth-mailbox.ts';
import { SignInPage } from './pages/auth-pages.ts';
import { DashboardPage } from './pages/dashboard-page.ts';
import { blockingAxeViolations } from './support/axe.ts';
import { serverProfile, SettingsPage } from './pages/settings-page.ts';
import { expect, test } from './support/console-errors.ts';

// Settings on the built app and the real server.

async function signedIn(
  page: import('@playwright/test').Page,
  request: import('@playwright/test').APIRequestContext,
  role: 'creator' | 'brand',
  fullName: string,
) {
  const account = await createConfirmedAccount(request, { role, fullName });
  await new SignInPage(page).signInToDashboard(account.email, account.password);
  await new DashboardPage(page).expectLoaded(fullName);
  return account;
}

test('profile edits are saved with "Settings updated successfully" and reach the server; the e-mail is read-only', async ({
  page,
  request,
}) => {
  const account = await signedIn(page, request, 'creator', 'Sam Settings');
  const settings = new SettingsPage(page);
  await settings.goto();
  await expect(settings.email).toHaveValue(account.email);
  await expect(settings.email).toHaveAttribute('readonly', '');
  await expect(page.getByText('Email cannot be changed. Contact support if needed.')).toBeVisible();

  // Validation: a name is required; niches are 1..26 once chosen.
  await settings.fullName.fill('   ');
  await settings.save.click();
  await expect(page.getByText('Please enter your full name')).toBeVisible();
  await settings.fullName.fill('Sam Renamed');
  await settings.niche('Gaming').click();
  await settings.niche('Gaming').click();
  await settings.niche('Music').click();
  await settings.niche('Music').click();
  await settings.bio.fill('Streams retro games every evening.');
  await settings.niche('Gaming').click();
  await expect(settings.niche('Gaming')).toHaveAttribute('aria-pressed', 'true');
  await settings.save.click();
  await expect(settings.toast('Settings updated successfully')).toBeVisible();

  await expect
    .poll(() => serverProfile(account.email), { timeout: 15_000 })
    .toMatchObject({ full_name: 'Sam Renamed', bio: 'Streams retro games every evening.', niches: ['Gaming'] });
  await page.reload();
  await expect(settings.fullName).toHaveValue('Sam Renamed');

  // Taking away every niche is refused.
  await settings.niche('Gaming').click();
  await settings.save.click();
  await expect(page.getByText('Choose at least one niche')).toBeVisible();

  expect(await blockingAxeViolations(page)).toEqual([]);
});

test.describe('password change', () => {
  // The refused wrong current password (400) and common password (422) are the point.
  test.use({ allowedConsoleErrors: [/Failed to load resource: the server responded with a status of (400|422)/] });

  test('password change asks for the current password, checks length, confirmation and common passwords, then works for the next sign-in', async ({
    page,
    request,
  }) => {
    const account = await signedIn(page, request, 'brand', 'Pat Password');
    const settings = new SettingsPage(page);
    await settings.goto('security');
    await settings.newPassword.fill('a-new-password-1');
    await settings.confirmPassword.fill('a-new-password-1');
    await settings.updatePassword.click();
    await expect(page.getByRole('alert').filter({ hasText: 'Please enter your current password' })).toBeVisible();
    // The server checks the current password: a wrong one changes nothing.
    await settings.currentPassword.fill('not my password');
    await settings.updatePassword.click();
    await expect(page.getByRole('alert').filter({ hasText: 'Your current password is incorrect' })).toBeVisible();
    await settings.currentPassword.fill(account.password);
    await settings.newPassword.fill('iloveyou');
    await settings.confirmPassword.fill('iloveyou');
    await settings.updatePassword.click();
    await expect(
      page.getByRole('alert').filter({ hasText: 'This password is too common and easy to guess.' }),
    ).toBeVisible();
    await settings.newPassword.fill('short');
    await settings.confirmPassword.fill('short');
    await settings.updatePassword.click();
    await expect(
      page.getByRole('alert').filter({ hasText: 'Password must be at least 8 characters long' }),
    ).toBeVisible();
    await settings.newPassword.fill('a-new-password-1');
    await settings.confirmPassword.fill('a-new-password-2');
    await settings.updatePassword.click();
    await expect(page.getByRole('alert').filter({ hasText: 'Passwords do not match' })).toBeVisible();
    await settings.confirmPassword.fill('a-new-password-1');
    await settings.updatePassword.click();
    await expect(settings.toast('Settings updated successfully')).toBeVisible();
    expect(await blockingAxeViolations(page)).toEqual([]);

    const token = await request.post('/auth/v1/token?grant_type=password', {
      headers: { apikey: 'pacta-local-anon-key' },
      data: { email: account.email, password: 'a-new-password-1' },
    });
    expect(token.ok()).toBe(true);
  });
});

test('sections by ?section= (and stripe/profile/social aliases), Pro links, the theme stored locally, keyboard and axe', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  await signedIn(page, request, 'creator', 'Theo Theme');
  const settings = new SettingsPage(page);
  const sections = page.getByRole('navigation', { name: 'Settings sections' });

  for (const [param, current] of [
    ['account', 'Account'],
    ['security', 'Security'],
    ['personalisation', 'Personalisation'],
    ['pro', 'Pro'],
    ['privacy', 'Privacy'],
    ['stripe', 'Pro'],
    ['profile', 'Account'],
    ['social', 'Account'],
  ] as const) {
    await settings.goto(param);
    await expect(sections.locator('[aria-current="page"]')).toHaveText(current);
    // Account and security are checked by the tests above.
    if (['personalisation', 'pro', 'privacy'].includes(param))
      expect(await blockingAxeViolations(page), param).toEqual([]);
  }

  await settings.goto('pro');
  await expect(page.getByRole('link', { name: 'Upgrade to Pro' })).toHaveAttribute('href', '/pro');
  await expect(page.getByRole('link', { name: 'See pricing' })).toHaveAttribute('href', '/pricing');

  await settings.goto('personalisation');
  await page.getByRole('radio', { name: 'Ocean' }).check();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'ocean');
  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'ocean');

  // Keyboard: from the top of the page, Tab reaches the sections and the Save button of the account form.
  await settings.goto('account');
  await expect(settings.fullName).toBeVisible();
  const reached = new Set<string>();
  await page.locator('body').focus();
  for (let i = 0; i < 80 && !reached.has('Save changes'); i++) {
    await page.keyboard.press('Tab');
    const name = await page.evaluate(() => (document.activeElement as HTMLElement | null)?.textContent?.trim() ?? '');
    reached.add(name);
  }
  for (const name of ['Account', 'Security', 'Personalisation', 'Pro', 'Privacy', 'Technology', 'Save changes'])
    expect(reached).toContain(name);
  await page.keyboard.press('Enter');
  await expect(settings.toast('Settings updated successfully')).toBeVisible();
});

test('"Deals kept on this device" is a setting of the device: kept across reloads and asked of the server on every pull', async ({
  page,
  request,
}) => {
  await signedIn(page, request, 'creator', 'Dana Device');
  const settings = new SettingsPage(page);
  await settings.goto('privacy');
  const deals = page.getByLabel('Deals kept on this device');
  await expect(deals).toHaveValue('20000');
  await deals.selectOption('5000');
  const pull = page.waitForRequest((r) => /\/sync\/v1\/deals\/(pull|snapshot)\?/.test(r.url()));
  await page.reload();
  expect(new URL((await pull).url()).searchParams.get('set')).toBe('5000');
  await expect(page.getByLabel('Deals kept on this device')).toHaveValue('5000');
});
