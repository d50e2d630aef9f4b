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

test("Create Deal: 'Please select at least one niche.' goes away as soon as a niche is picked", async ({
  page,
  request,
}) => {
  const brand = await createConfirmedAccount(request, { role: 'brand', fullName: `Niche Brand ${run}` });
  await signIn(page, brand);
  const form = new CreateDealPage(page);
  await form.goto();
  await form.fill({
    title: `Niche check ${run}`,
    description: 'A deal whose niche comes last.',
    amount: '250',
    niches: [],
  });
  await form.submit.click();
  await expect(form.error).toHaveText('Please select at least one niche.');

  await page
    .locator('main form')
    .getByRole('group', { name: 'Niches' })
    .getByRole('button', { name: 'Fitness', exact: true })
    .click();
  await expect(form.error).toHaveCount(0);
  // A different problem does not take the fixed one's place until the next submit.
  await page.locator('main form').getByLabel('Amount ($)').fill('0');
  await expect(form.error).toHaveCount(0);
  await form.submit.click();
  await expect(form.error).toHaveText('The amount must be at least $1.');
  await page.locator('main form').getByLabel('Amount ($)').fill('300');
  await expect(form.error).toHaveCount(0);
});

test('Deadline is one date field on create and on edit, refuses a past day; an older free-text deadline is shown as it is', async ({
  page,
  request,
}) => {
  const brand = await createConfirmedAccount(request, { role: 'brand', fullName: `Deadline Brand ${run}` });
  const [deal] = await seedDeals(brand.email, [`Deadline deal ${run}`]);
  await signIn(page, brand);

  const form = new CreateDealPage(page);
  await form.goto();
  await expect(page.locator('main form').getByLabel('Deadline')).toHaveAttribute('type', 'date');
  // A deadline in the past is refused before anything is published (the server refuses it too).
  await form.fill({ title: `Past deadline ${run}`, description: 'Due in 2020.', amount: '250', niches: ['Fitness'] });
  await page.locator('main form').getByLabel('Deadline').fill('2020-01-01');
  await form.submit.click();
  await expect(form.error).toHaveText('The deadline has passed. Pick today or a later date.');
  await expect(page).toHaveURL(/\/deals\/new$/);

  // A deal written before the date field existed holds free text (as the server, like the seed).
  await withE2eDatabase((db) =>
    db.query(`update public.deals set deadline = 'Within 2 weeks' where id = $1`, [deal!.id]),
  );
  await page.goto(`/deals/${deal!.id}`);
  await expect(page.getByText('Deadline: Within 2 weeks')).toBeVisible({ timeout: 20_000 });
  await page.goto(`/deals/${deal!.id}/edit`);
  const deadline = page.locator('main form').getByLabel('Deadline');
  await expect(deadline).toHaveAttribute('type', 'date');
  await expect(page.locator('main form').getByText('Currently “Within 2 weeks”.', { exact: false })).toBeVisible();
  await expect(page.locator('main form')).toContainText('Pick a date to replace it or clear it.');
  await deadline.fill('2020-01-01');
  await page.getByRole('button', { name: 'Save Changes' }).click();
  await expect(page.locator('main form').getByRole('alert')).toHaveText(
    'The deadline has passed. Pick today or a later date.',
  );
  await expect(page.getByText('Deal updated!')).toHaveCount(0);
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

test('an admin signing in to /admin/ledger, or reloading it, stays there while the role is still syncing', async ({
  page,
  request,
}) => {
  // Promoted in the profile, with the role then taken out of app_metadata, as in a token issued before
  // the server put it there: until the profile reaches the new device's database the session knows
  // only the sign-up metadata, which says brand.
  const admin = await createConfirmedAccount(request, { role: 'brand', fullName: `Guard Admin ${run}` });
  await withE2eDatabase(async (client) => {
    const email = [admin.email];
    await client.query(
      `update public.profiles set role = 'admin' where id = (select id from auth.users where email = $1)`,
      email,
    );
    await client.query(`update auth.users set raw_app_meta_data = raw_app_meta_data - 'role' where email = $1`, email);
  });
  await page.goto('/admin/ledger');
  await expect(page).toHaveURL(/\/auth\/signin$/);
  await new SignInPage(page).signIn(admin.email, admin.password);
  await expect(page.getByRole('heading', { level: 1, name: 'Ledger' })).toBeVisible({ timeout: 20_000 });
  await expect(page).toHaveURL(/\/admin\/ledger$/);
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: 'Ledger' })).toBeVisible({ timeout: 20_000 });
  await expect(page).toHaveURL(/\/admin\/ledger$/);
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

test("A creator's My Deals: its applications a page at a time, newest first, filtered and counted by the deal's status, live", async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const brand = await createConfirmedAccount(request, { role: 'brand', fullName: `Applied Brand ${run}` });
  const creator = await createConfirmedAccount(request, { role: 'creator', fullName: `Applying Creator ${run}` });
  const titles = Array.from({ length: 23 }, (_, i) => `Applied ${run} #${String(i + 1).padStart(2, '0')}`);
  const deals = await seedDeals(brand.email, titles);
  const id = (n: number) => deals.find((d) => d.title === titles[n - 1])!.id;
  await withE2eDatabase(async (db) => {
    const creatorId = (await db.query<{ id: string }>('select id from auth.users where email = $1', [creator.email]))
      .rows[0]!.id;
    // One statement each, in title order: the server stamps each application's time as it arrives.
    for (let n = 1; n <= 23; n++)
      await db.query('insert into public.applications (id, deal_id, creator_id) values (gen_random_uuid(), $1, $2)', [
        id(n),
        creatorId,
      ]);
    await db.query(`update public.deals set status = 'cancelled' where id = any($1::uuid[])`, [[id(1), id(2)]]);
    await db.query(`update public.applications set status = 'accepted' where deal_id = $1`, [id(3)]);
    // #22 leaves the creator's device: its application stays, a row of its own.
    await db.query('update public.deals set deleted = true where id = $1', [id(22)]);
  });
  await signIn(page, creator);
  await page.goto('/my-deals');
  const list = page.locator('.my-deal-list');
  const filters = page.getByRole('group', { name: 'Show deals by status' });
  const chip = (name: string) => filters.getByRole('button', { name: new RegExp(`^${name} \\d+$`) });
  await expect(chip('All')).toHaveText('All 23', { timeout: 20_000 });
  await expect(chip('Open')).toHaveText('Open 20');
  await expect(chip('In progress')).toHaveText('In progress 1');
  await expect(chip('Completed')).toHaveText('Completed 0');
  await expect(chip('Cancelled')).toHaveText('Cancelled 2');

  // Newest application first; the one whose deal is gone in its place.
  await expect(list.getByRole('heading', { level: 2 })).toHaveCount(20);
  await expect(list.getByRole('heading', { level: 2 }).first()).toHaveText(titles[22]!);
  await expect(list.getByRole('heading', { level: 2 }).nth(1)).toHaveText('A deal you applied to');
  await expect(list.getByRole('listitem').nth(1)).toContainText('This deal is no longer available.');
  await expect(page.getByText('Showing 20 of 23 deals')).toBeVisible();
  await page.getByRole('button', { name: 'Show more deals' }).click();
  await expect(list.getByRole('heading', { level: 2 })).toHaveCount(23);
  await expect(list.getByRole('heading', { level: 2 }).last()).toHaveText(titles[0]!);

  await chip('Cancelled').click();
  await expect(list.getByRole('heading', { level: 2 })).toHaveText([titles[1]!, titles[0]!]);
  await chip('In progress').click();
  await expect(list.getByRole('heading', { level: 2 })).toHaveText([titles[2]!]);
  await expect(list.getByRole('listitem')).toContainText('Application: Accepted');

  // The brand cancels another deal: the application's copy of its status follows, and the page with it.
  await chip('Cancelled').click();
  await withE2eDatabase((db) => db.query(`update public.deals set status = 'cancelled' where id = $1`, [id(23)]));
  await expect(chip('Cancelled')).toHaveText('Cancelled 3', { timeout: 20_000 });
  await expect(chip('Open')).toHaveText('Open 19');
  await expect(list.getByRole('heading', { level: 2 })).toHaveText([titles[22]!, titles[1]!, titles[0]!]);
});
