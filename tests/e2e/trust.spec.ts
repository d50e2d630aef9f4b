import { seedDeals } from './pages/deals-page.ts';
import { expect, test } from './support/fixtures.ts';
import { withE2eDatabase } from './support/e2e-server-info.ts';

// What a careful user still trips over: screens that must not contradict themselves, on the built
// app and the real server.

test.use({ allowedConsoleErrors: [/net::ERR_NETWORK_CHANGED/] });

const run = Date.now().toString(36);

test('a change the server refuses never shows "Deal updated!"; the sync panel names it and Discard clears it', async ({
  newAccount,
  openAs,
}) => {
  test.setTimeout(120_000);
  const brand = await newAccount('brand', { fullName: `Refused Brand ${run}` });
  const [deal] = await seedDeals(brand.email, [`Funded meanwhile ${run}`]);
  const b = await openAs(brand, `/deals/${deal!.id}/edit`, { offlineReady: true });
  const page = b.page;
  await page.setViewportSize({ width: 1280, height: 800 });
  await expect(page.getByLabel('Amount ($)')).toHaveValue('250');

  // Offline, the brand raises the amount; meanwhile the deal is funded on the server.
  await b.context.setOffline(true);
  await withE2eDatabase((db) =>
    db.query(`update public.deals set escrow_status = 'pending' where id = $1`, [deal!.id]),
  );
  await page.getByLabel('Amount ($)').fill('400');
  await page.getByRole('button', { name: 'Save Changes' }).click();
  await expect(page.getByText('Saved on this device. It will be sent when you are back online.')).toBeVisible();
  await expect(page.getByText('Deal updated!')).toHaveCount(0);

  // Back online, the server refuses: the refusal alone, never beside a success.
  await b.context.setOffline(false);
  await expect(
    page.getByText('This change did not go through: The amount cannot change once the deal is funded.'),
  ).toBeVisible({ timeout: 30_000 });
  await expect(page.getByText('Deal updated!')).toHaveCount(0);
  const label = page.getByTestId('sync-status-label');
  await expect(label).toHaveText('1 not saved');
  // The short label leaves Sign Out on screen at 1280 px.
  const signOut = page.getByRole('button', { name: 'Sign Out' });
  await expect(signOut).toBeInViewport({ ratio: 1 });

  // The panel says which change it was, never "All changes synced" beside it, and lets the user act.
  await label.click();
  const refused = page.getByTestId('sync-status-refused');
  await expect(refused).toContainText('1 change could not be saved');
  await expect(refused).toContainText(`Deal “Funded meanwhile ${run}”`);
  await expect(refused).toContainText('The amount cannot change once the deal is funded.');
  await expect(page.getByTestId('sync-status-waiting')).toHaveText('Nothing else is waiting to sync');
  await expect(refused.getByRole('link', { name: 'Fix it' })).toHaveAttribute('href', `/deals/${deal!.id}/edit`);
  await refused.getByRole('button', { name: `Discard: Deal “Funded meanwhile ${run}”` }).click();
  await expect(label).toHaveText('Synced', { timeout: 20_000 });
  await expect(page.getByText('This change did not go through')).toHaveCount(0);
  // What the server has stays: the funded amount.
  await page.reload();
  await expect(page.getByLabel('Amount ($)')).toHaveValue('250');
  await expect(label).toHaveText('Synced', { timeout: 20_000 });
  // Now the form predicts the rule itself.
  await page.getByLabel('Amount ($)').fill('500');
  await page.getByRole('button', { name: 'Save Changes' }).click();
  await expect(page.locator('main form').getByRole('alert')).toHaveText(
    'The amount cannot change once the deal is funded.',
  );
});

test('a wrong-role route lands on the user’s dashboard, and the growth hub offers only the role’s tools', async ({
  brandPage,
  creatorPage,
}) => {
  for (const path of ['/swipe', '/brand-matching']) {
    await brandPage.goto(path);
    await expect(brandPage).toHaveURL(/\/dashboard$/);
  }
  await brandPage.goto('/growth');
  const brandHub = brandPage.getByRole('main');
  await expect(brandHub.getByRole('link', { name: 'Campaign Brief Builder' })).toBeVisible();
  await expect(brandHub.getByRole('link', { name: 'Brand Matching' })).toHaveCount(0);

  await creatorPage.goto('/growth');
  const creatorHub = creatorPage.getByRole('main');
  await expect(creatorHub.getByRole('link', { name: 'Brand Matching' })).toBeVisible();
  await expect(creatorHub.getByRole('link', { name: 'Campaign Brief Builder' })).toHaveCount(0);
});

test('/robots.txt is a robots file, and the manifest’s theme colour is the page’s', async ({ page, request }) => {
  const robots = await request.get('/robots.txt');
  expect(robots.status()).toBe(200);
  expect(robots.headers()['content-type']).toContain('text/plain');
  expect(await robots.text()).toContain('User-agent: *');

  await page.goto('/');
  const pageColour = await page.locator('meta[name="theme-color"]').getAttribute('content');
  const manifestHref = await page.locator('link[rel="manifest"]').getAttribute('href');
  const manifest = (await (await request.get(manifestHref!)).json()) as { theme_color: string };
  expect(manifest.theme_color).toBe(pageColour);
});
