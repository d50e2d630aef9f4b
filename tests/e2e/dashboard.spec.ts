import { createConfirmedAccount } from './pages/auth-mailbox.ts';
import { SignInPage } from './pages/auth-pages.ts';
import { DashboardPage, seedMarketplace } from './pages/dashboard-page.ts';
import { blockingAxeViolations } from './support/axe.ts';
import { promoteToAdmin } from './support/e2e-server-info.ts';
import { expect, test } from './support/console-errors.ts';

// Dashboard on the built app and the real server: data comes from the user's local
// RxDB database, filled by replication.

test('a creator sees their dashboard: welcome, level, Quick Stats, empty applications with Browse Deals, cards', async ({
  page,
  request,
  context,
}) => {
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
  // The rank comes from the server (online): the new member has one.
  await expect(dashboard.section('Leaderboard').getByTestId('leaderboard-rank')).toHaveText(/^#\d+$/);

  // Referral link from the synced profile; Copy Link shows 'Copied!' for 2 seconds.
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const link = page.getByLabel('Your referral link');
  await expect(link).toHaveValue(/\/signup\?ref=[A-Z0-9]{6}$/);
  await page.getByRole('button', { name: 'Copy Link' }).click();
  await expect(page.getByRole('button', { name: 'Copied!' })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(await link.inputValue());
  await expect(page.getByRole('button', { name: 'Copy Link' })).toBeVisible({ timeout: 3_000 });
  for (const text of [
    '$10 per new Pro subscription.',
    '5% of referred deal earnings for 3 months.',
    'Monthly payouts.',
  ]) {
    await expect(page.getByText(text)).toBeVisible();
  }

  expect(await blockingAxeViolations(page)).toEqual([]);
});

test('a brand sees their dashboard with Create Your First Deal, a Shortlist and the LinkedIn rule', async ({
  page,
  request,
}) => {
  const account = await createConfirmedAccount(request, { role: 'brand', fullName: 'Bo Brand' });
  await new SignInPage(page).signInToDashboard(account.email, account.password);
  const dashboard = new DashboardPage(page);
  await dashboard.expectLoaded('Bo Brand');
  await dashboard.expectSynced();
  await expect(dashboard.section('Your Deals').getByRole('link', { name: 'Create Your First Deal' })).toHaveAttribute(
    'href',
    '/deals/new',
  );
  await expect(dashboard.section('Quick Stats').getByText('Open deals')).toBeVisible();
  await expect(page.getByText('LinkedIn required')).toBeVisible();
  // A link is flagged verified only on the platform's own host (or its www.).
  const linkedin = page.getByLabel(/^LinkedIn/);
  await linkedin.fill('https://example.com/linkedin.com/bo');
  await expect(page.getByText('Verified', { exact: true })).toHaveCount(0);
  await linkedin.fill('https://linkedin.com.example.net/bo');
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

test('deals, applications and recent messages come from synced data; each card links to its deal; admin sees all with the view toggle', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const brand = await createConfirmedAccount(request, { role: 'brand', fullName: 'Lena Brand' });
  const creator = await createConfirmedAccount(request, { role: 'creator', fullName: 'Cal Creator' });
  const seeded = await seedMarketplace({ brandEmail: brand.email, creatorEmail: creator.email, deals: 12 });

  const signIn = new SignInPage(page);
  const dashboard = new DashboardPage(page);
  await signIn.signInToDashboard(brand.email, brand.password);
  await dashboard.expectLoaded('Lena Brand');
  const deals = dashboard.section('Your Deals');
  await expect(deals.getByRole('link').first()).toHaveText(/Deal number 12/);
  await expect(deals.getByRole('link', { name: /Deal number 12/ })).toHaveAttribute(
    'href',
    `/deals/${seeded.newestDeal.id}`,
  );
  await expect(deals.getByText('Showing 10 of 12.')).toBeVisible();
  await expect(dashboard.section('Quick Stats').locator('dd').first()).toHaveText('12');
  await expect(dashboard.section('Recent messages').getByText('To Cal Creator')).toBeVisible();
  await page.getByRole('button', { name: 'Sign Out' }).click();
  await expect(page).toHaveURL(/\/auth\/signin$/);

  await signIn.signInToDashboard(creator.email, creator.password);
  await dashboard.expectLoaded('Cal Creator');
  const applications = dashboard.section('Your Applications');
  await expect(applications.getByRole('link', { name: /Deal number 12/ })).toHaveAttribute(
    'href',
    `/deals/${seeded.newestDeal.id}`,
  );
  await expect(applications.getByText('Pending')).toBeVisible();
  await expect(dashboard.section('Recent messages').getByText('Thanks for applying!')).toBeVisible();
  await page.getByRole('button', { name: 'Sign Out' }).click();
  await expect(page).toHaveURL(/\/auth\/signin$/);

  const admin = await createConfirmedAccount(request, { role: 'brand', fullName: 'Ada Admin' });
  await promoteToAdmin(admin.email);
  await signIn.signInToDashboard(admin.email, admin.password);
  await dashboard.expectLoaded('Ada Admin');
  await expect(page.getByText('Admin', { exact: true })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Create New Deal' })).toHaveAttribute('href', '/deals/new');
  const toggle = page.getByRole('group', { name: 'Dashboard view' });
  await expect(toggle.getByRole('button', { name: 'Brand View' })).toHaveAttribute('aria-pressed', 'true');
  await expect(dashboard.section('All Deals').getByRole('link', { name: /Deal number 12/ })).toBeVisible();
  await toggle.getByRole('button', { name: 'Creator View' }).click();
  await expect(dashboard.section('All Applications').getByRole('link', { name: /Deal number 12/ })).toBeVisible();
  expect(await blockingAxeViolations(page)).toEqual([]);
});
