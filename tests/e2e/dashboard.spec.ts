import { createConfirmedAccount } from './pages/auth-mailbox.ts';
import { SignInPage } from './pages/auth-pages.ts';
import { blockingAxeViolations, DashboardPage } from './pages/dashboard-page.ts';
import { expect, test } from './support/console-errors.ts';

// Dashboard (issue 4 item 6) on the built app and the real server: data comes from the user's local
// RxDB database, filled by replication.

test('a creator sees their dashboard: welcome, level, Quick Stats, empty applications with Browse Deals, cards', async ({ page, request, context }) => {
  const account = await createConfirmedAccount(request, { role: 'creator', fullName: 'Dana Creator' });
  await new SignInPage(page).signInToDashboard(account.email, account.password);
  const dashboard = new DashboardPage(page);
  await dashboard.expectLoaded('Dana Creator');
  await dashboard.expectSynced();

  await expect(page.getByText('Level 1', { exact: false }).first()).toBeVisible();
  await expect(page.getByText('100 XP to level 2')).toBeVisible();
  await expect(dashboard.section('Quick Stats').getByText('Applications', { exact: true })).toBeVisible();
  const applications = dashboard.section('Your Applications');
  await expect(applications.getByRole('link', { name: 'Browse Deals' })).toHaveAttribute('href', '/deals');
  await expect(dashboard.section('Saved Campaigns')).toBeVisible();
  await expect(page.getByText('Instagram required')).toBeVisible();
  await expect(dashboard.section('Leaderboard').getByText('Rank available online')).toBeVisible();

  // Referral link from the synced profile; Copy Link shows 'Copied!' for 2 seconds.
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const link = page.getByLabel('Your referral link');
  await expect(link).toHaveValue(/\/signup\?ref=[A-Z0-9]{6}$/);
  await page.getByRole('button', { name: 'Copy Link' }).click();
  await expect(page.getByRole('button', { name: 'Copied!' })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(await link.inputValue());
  await expect(page.getByRole('button', { name: 'Copy Link' })).toBeVisible({ timeout: 3_000 });
  for (const text of ['$10 per new Pro subscription.', '5% of referred deal earnings for 3 months.', 'Monthly payouts.']) {
    await expect(page.getByText(text)).toBeVisible();
  }

  expect(await blockingAxeViolations(page)).toEqual([]);
});

test('a brand sees their dashboard with Create Your First Deal, a Shortlist and the LinkedIn rule', async ({ page, request }) => {
  const account = await createConfirmedAccount(request, { role: 'brand', fullName: 'Bo Brand' });
  await new SignInPage(page).signInToDashboard(account.email, account.password);
  const dashboard = new DashboardPage(page);
  await dashboard.expectLoaded('Bo Brand');
  await dashboard.expectSynced();
  await expect(dashboard.section('Your Deals').getByRole('link', { name: 'Create Your First Deal' })).toHaveAttribute('href', '/deals/new');
  await expect(dashboard.section('Quick Stats').getByText('Open deals')).toBeVisible();
  await expect(page.getByText('LinkedIn required')).toBeVisible();
  // A link is flagged verified when it contains the platform's base address.
  const linkedin = page.getByLabel(/^LinkedIn/);
  await linkedin.fill('https://example.com/bo');
  await expect(page.getByText('Verified', { exact: true })).toHaveCount(0);
  await linkedin.fill('https://www.linkedin.com/company/bo');
  await expect(page.getByText('Verified', { exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Save links' }).click();
  await expect(page.getByText('Settings updated successfully')).toBeVisible();

  // Shortlist: add, no duplicates or empty entries, remove.
  const shortlist = dashboard.section('Shortlist');
  const entry = shortlist.getByLabel('Add to shortlist');
  await entry.fill('Ava Vlogs');
  await shortlist.getByRole('button', { name: 'Add' }).click();
  await expect(shortlist.getByText('Ava Vlogs')).toBeVisible();
  await entry.fill('  Ava Vlogs ');
  await shortlist.getByRole('button', { name: 'Add' }).click();
  await expect(shortlist.getByText('Already in your Shortlist.')).toBeVisible();
  await expect(shortlist.getByRole('listitem')).toHaveCount(1);
  await entry.fill('   ');
  await shortlist.getByRole('button', { name: 'Add' }).click();
  await expect(shortlist.getByText('Enter something to save.')).toBeVisible();
  await shortlist.getByRole('button', { name: 'Remove Ava Vlogs' }).click();
  await expect(shortlist.getByText('No creators on your shortlist yet.')).toBeVisible();

  // Social links: the required LinkedIn link cannot be removed.
  await linkedin.fill('');
  await page.getByRole('button', { name: 'Save links' }).click();
  await expect(page.getByText('LinkedIn is required for brand accounts')).toBeVisible();

  expect(await blockingAxeViolations(page)).toEqual([]);
});

test('signed out, /dashboard goes to /auth/signin', async ({ page }) => {
  await page.goto('/dashboard');
  await expect(page).toHaveURL(/\/auth\/signin$/);
});
