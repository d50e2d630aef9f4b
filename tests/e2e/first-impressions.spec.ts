import { createConfirmedAccount } from './pages/auth-mailbox.ts';
import { SignInPage } from './pages/auth-pages.ts';
import { CreateDealPage } from './pages/create-deal-page.ts';
import { DashboardPage } from './pages/dashboard-page.ts';
import { seedDeals, signIn } from './pages/deals-page.ts';
import { SettingsPage } from './pages/settings-page.ts';
import { expect, test } from './support/console-errors.ts';
import { withE2eDatabase } from './support/e2e-server-info.ts';

// What a newcomer trips over, one test each, on the built app and the real server.

const run = Date.now().toString(36);

test("Create Deal: 'Please select at least one niche.' goes away as soon as a niche is picked", async ({ page, request }) => {
  const brand = await createConfirmedAccount(request, { role: 'brand', fullName: `Niche Brand ${run}` });
  await signIn(page, brand);
  const form = new CreateDealPage(page);
  await form.goto();
  await form.fill({ title: `Niche check ${run}`, description: 'A deal whose niche comes last.', amount: '250', niches: [] });
  await form.submit.click();
  await expect(form.error).toHaveText('Please select at least one niche.');

  await page.locator('main form').getByRole('group', { name: 'Niches' }).getByRole('button', { name: 'Fitness', exact: true }).click();
  await expect(form.error).toHaveCount(0);
  // A different problem does not take the fixed one's place until the next submit.
  await page.locator('main form').getByLabel('Amount ($)').fill('0');
  await expect(form.error).toHaveCount(0);
  await form.submit.click();
  await expect(form.error).toHaveText('The amount must be at least $1.');
  await page.locator('main form').getByLabel('Amount ($)').fill('300');
  await expect(form.error).toHaveCount(0);
});

test('Deadline is one date field on create and on edit; an older free-text deadline is shown as it is', async ({ page, request }) => {
  const brand = await createConfirmedAccount(request, { role: 'brand', fullName: `Deadline Brand ${run}` });
  const [deal] = await seedDeals(brand.email, [`Deadline deal ${run}`]);
  await signIn(page, brand);

  const form = new CreateDealPage(page);
  await form.goto();
  await expect(page.locator('main form').getByLabel('Deadline')).toHaveAttribute('type', 'date');

  // A deal written before the date field existed holds free text (as the server, like the seed).
  await withE2eDatabase((db) => db.query(`update public.deals set deadline = 'Within 2 weeks' where id = $1`, [deal!.id]));
  await page.goto(`/deals/${deal!.id}`);
  await expect(page.getByText('Deadline: Within 2 weeks')).toBeVisible({ timeout: 20_000 });
  await page.goto(`/deals/${deal!.id}/edit`);
  const deadline = page.locator('main form').getByLabel('Deadline');
  await expect(deadline).toHaveAttribute('type', 'date');
  await expect(page.locator('main form').getByText('Currently “Within 2 weeks”.', { exact: false })).toBeVisible();
  await deadline.fill('2027-03-14');
  await page.getByRole('button', { name: 'Save Changes' }).click();
  await expect(page.getByText('Deal updated!', { exact: true }).first()).toBeVisible();
  await page.goto(`/deals/${deal!.id}`);
  await expect(page.getByText('Deadline: 14 Mar 2027')).toBeVisible();
});

test('a signed-out deep link to a deal lands on that deal after sign-in', async ({ page, request }) => {
  const brand = await createConfirmedAccount(request, { role: 'brand', fullName: `Link Brand ${run}` });
  const creator = await createConfirmedAccount(request, { role: 'creator', fullName: `Link Creator ${run}` });
  const [deal] = await seedDeals(brand.email, [`Deep link deal ${run}`]);
  await page.goto(`/deals/${deal!.id}`);
  await expect(page).toHaveURL(/\/auth\/signin$/);
  await new SignInPage(page).signIn(creator.email, creator.password);
  await expect(page).toHaveURL(new RegExp(`/deals/${deal!.id}$`));
  await expect(page.getByRole('heading', { level: 1, name: `Deep link deal ${run}` })).toBeVisible({ timeout: 20_000 });
});

test("a brand-new user is welcomed to Pacta, not 'Welcome back'", async ({ page, request }) => {
  const creator = await createConfirmedAccount(request, { role: 'creator', fullName: `Nova Newcomer ${run}` });
  await new SignInPage(page).signInToDashboard(creator.email, creator.password);
  const dashboard = new DashboardPage(page);
  await expect(dashboard.welcome).toHaveText(`Welcome to Pacta, Nova Newcomer ${run}`, { timeout: 20_000 });
});

test('the mobile menu lists Inbox and Notifications once each', async ({ page, request }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const creator = await createConfirmedAccount(request, { role: 'creator', fullName: `Menu Creator ${run}` });
  await signIn(page, creator);
  await page.getByRole('button', { name: /open menu/i }).click();
  const menu = page.locator('#mobile-menu');
  await expect(menu.getByRole('link', { name: 'Inbox', exact: true })).toHaveCount(1);
  await expect(menu.getByRole('link', { name: 'Notifications', exact: true })).toHaveCount(1);
  await expect(menu.getByRole('link', { name: 'Swipe Deals', exact: true })).toHaveCount(1);
});

test("the 'Instagram required' badge is not red once Instagram is filled and verified", async ({ page, request }) => {
  const creator = await createConfirmedAccount(request, { role: 'creator', fullName: `Badge Creator ${run}` });
  await signIn(page, creator);
  const settings = new SettingsPage(page);
  await settings.goto();
  const badge = page.locator('main').getByText('Instagram required', { exact: true });
  const instagram = page.locator('main').getByRole('textbox', { name: /^Instagram/ });
  await expect(instagram).toHaveValue(/instagram\.com/);
  await expect(badge).toHaveClass(/badge-required-met/);
  await instagram.fill('');
  await expect(badge).toHaveClass(/(^|\s)badge-required(\s|$)/);
  const red = await badge.evaluate((el) => getComputedStyle(el).borderTopColor);
  await instagram.fill('https://instagram.com/badge');
  await expect(badge).toHaveClass(/badge-required-met/);
  expect(await badge.evaluate((el) => getComputedStyle(el).borderTopColor)).not.toBe(red);
});

test('My Deals filters by status, with a count per status', async ({ page, request }) => {
  const brand = await createConfirmedAccount(request, { role: 'brand', fullName: `Filter Brand ${run}` });
  const [open, closed] = await seedDeals(brand.email, [`Still open ${run}`, `Called off ${run}`]);
  await withE2eDatabase((db) => db.query(`update public.deals set status = 'cancelled' where id = $1`, [closed!.id]));
  await signIn(page, brand);
  await page.goto('/my-deals');
  const list = page.locator('.my-deal-list');
  await expect(list.getByRole('heading', { name: `Called off ${run}` })).toBeVisible({ timeout: 20_000 });
  const filters = page.getByRole('group', { name: 'Show deals by status' });
  await filters.getByRole('button', { name: /^Cancelled 1$/ }).click();
  await expect(list.getByRole('heading', { name: `Called off ${run}` })).toBeVisible();
  await expect(list.getByRole('heading', { name: open!.title })).toHaveCount(0);
  await filters.getByRole('button', { name: /^All 2$/ }).click();
  await expect(list.getByRole('heading', { name: open!.title })).toBeVisible();
});
