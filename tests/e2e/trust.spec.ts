import type { Page } from '@playwright/test';
import { seedDeals } from './pages/deals-page.ts';
import { InboxPage, seedApplication } from './pages/inbox-page.ts';
import { expect, test } from './support/fixtures.ts';
import { withE2eDatabase } from './support/e2e-server-info.ts';
import { setDeviceOffline } from './support/offline.ts';
import { blockingAxeViolations } from './support/axe.ts';

// What a careful user still trips over: screens that must not contradict themselves, on the built
// app and the real server.

test.use({ allowedConsoleErrors: [/net::ERR_NETWORK_CHANGED/] });

const run = Date.now().toString(36);

test('a change the server refuses never shows "Deal updated!"; the sync panel names it and Discard clears it', async ({
  newAccount,
  openAs,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const brand = await newAccount('brand', { fullName: `Refused Brand ${run}` });
  const [deal] = await seedDeals(brand.email, [`Funded meanwhile ${run}`]);
  const b = await openAs(brand, `/deals/${deal!.id}/edit`, { offlineReady: true });
  const page = b.page;
  await page.setViewportSize({ width: 1280, height: 800 });
  await expect(page.getByLabel('Amount ($)')).toHaveValue('250');

  // Offline, the brand raises the amount; meanwhile the deal is funded on the server. The page is
  // reloaded offline, so no change stream opened before the drop tells the device (Chromium's offline
  // mode leaves an open one open, where a real drop ends it).
  await setDeviceOffline(b.context, baseURL!, true);
  await page.reload();
  await expect(page.getByLabel('Amount ($)')).toHaveValue('250');
  await withE2eDatabase((db) =>
    db.query(`update public.deals set escrow_status = 'pending' where id = $1`, [deal!.id]),
  );
  await page.getByLabel('Amount ($)').fill('400');
  await page.getByRole('button', { name: 'Save Changes' }).click();
  await expect(page.getByText('Saved on this device. It will be sent when you are back online.')).toBeVisible();
  await expect(page.getByText('Deal updated!')).toHaveCount(0);

  // Back online, the server refuses: the refusal alone, never beside a success.
  await setDeviceOffline(b.context, baseURL!, false);
  await expect(
    page.getByText('This change did not go through: The amount cannot change once the deal is funded.'),
  ).toBeVisible({ timeout: 30_000 });
  await expect(page.getByText('Deal updated!')).toHaveCount(0);
  const label = page.getByTestId('sync-status-label');
  await expect(label).toHaveText('1 not saved', { timeout: 20_000 });
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

test('a deal whose deadline has passed is not offered on /deals: neither listed nor counted', async ({
  newAccount,
  openAs,
}) => {
  const brand = await newAccount('brand', { fullName: `Deadline Brand ${run}` });
  // One amount no other test uses, so the amount filter shows these two deals alone.
  const [past, current] = await seedDeals(brand.email, [`Past deadline ${run}`, `Still open ${run}`], {
    amountCents: 31_337,
  });
  await withE2eDatabase(async (db) => {
    // Published before the deadline rule existed: the rule refuses such a day now, so it is set as the server.
    await db.query('begin');
    await db.query('alter table public.deals disable trigger b_deadline');
    await db.query(`update public.deals set deadline = '2020-05-01' where id = $1`, [past!.id]);
    await db.query(`update public.deals set deadline = '2099-05-01' where id = $1`, [current!.id]);
    await db.query('alter table public.deals enable trigger b_deadline');
    await db.query('commit');
  });
  const creator = await newAccount('creator');
  const { page } = await openAs(creator, '/deals?min=313.37&max=313.37');
  const all = page.getByRole('region', { name: /All deals/ });
  await expect(all.getByText(`Still open ${run}`)).toBeVisible({ timeout: 20_000 });
  await expect(page.getByText(`Past deadline ${run}`)).toHaveCount(0);
  await expect(all.locator('.deals-count')).toHaveText('(1)');
});

test('a creator’s menu bar links Earnings at 1280 px with Sign Out still on screen; on a phone the menu lists it once', async ({
  creatorPage: page,
}) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  const bar = page.getByRole('navigation', { name: 'Main' });
  const earnings = bar.getByRole('link', { name: 'Earnings', exact: true });
  await expect(earnings).toBeInViewport({ ratio: 1 });
  await expect(page.getByRole('button', { name: 'Sign Out' })).toBeInViewport({ ratio: 1 });
  // The narrowest desktop that shows the creator's row still has Sign Out on screen; below, the menu.
  await page.setViewportSize({ width: 1001, height: 800 });
  await expect(page.getByRole('button', { name: 'Sign Out' })).toBeInViewport({ ratio: 1 });
  await page.setViewportSize({ width: 1000, height: 800 });
  await expect(page.getByRole('button', { name: 'Open menu' })).toBeVisible();
  await page.setViewportSize({ width: 1280, height: 800 });
  await earnings.click();
  await expect(page).toHaveURL(/\/earnings$/);
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(earnings).toBeHidden();
  await page.getByRole('button', { name: 'Open menu' }).click();
  await expect(page.locator('#mobile-menu').getByRole('link', { name: 'Earnings', exact: true })).toHaveCount(1);
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

/** Whether the focused element shows a ring: its own outline, its ::after's (a stretched card link) or its card's. */
function focusRingShown(page: Page): Promise<{ name: string; ring: boolean }> {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement;
    const ringOf = (style: CSSStyleDeclaration) =>
      (style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0) || style.boxShadow !== 'none';
    const card = el.closest('.deal-card');
    const ring =
      ringOf(getComputedStyle(el)) ||
      ringOf(getComputedStyle(el, '::after')) ||
      (card !== null && ringOf(getComputedStyle(card)));
    return { name: `${el.tagName} ${(el.textContent ?? '').trim().slice(0, 40)}`, ring };
  });
}

test('axe finds nothing serious on /deals and /inbox/{id}; every /deals tab stop shows a focus ring; a half-typed message survives a reload', async ({
  newAccount,
  openAs,
}) => {
  test.setTimeout(120_000);
  const brand = await newAccount('brand', { fullName: `Focus Brand ${run}` });
  const creator = await newAccount('creator', { fullName: `Focus Creator ${run}` });
  const [deal] = await seedDeals(brand.email, [`Focus deal ${run}`, `Focus deal two ${run}`]);
  await seedApplication(deal!.id, creator.email);

  const { page } = await openAs(creator, '/deals');
  await expect(page.getByRole('link', { name: `Focus deal two ${run}` }).first()).toBeVisible({ timeout: 20_000 });
  expect(await blockingAxeViolations(page)).toEqual([]);
  const missing: string[] = [];
  await page.locator('main').focus();
  for (let i = 0; i < 30; i++) {
    await page.keyboard.press('Tab');
    const inMain = await page.evaluate(() => !!document.activeElement?.closest('main'));
    if (!inMain) continue;
    const stop = await focusRingShown(page);
    if (!stop.ring) missing.push(stop.name);
  }
  expect(missing, 'tab stops on /deals without a focus ring').toEqual([]);

  // Saved Campaigns on the dashboard takes deals only, once each, linked to the deal.
  await page.goto('/dashboard');
  const saved = page.getByRole('region', { name: 'Saved Campaigns' });
  const entry = saved.getByLabel('Add a saved campaign');
  await entry.fill('abc');
  await saved.getByRole('button', { name: 'Add' }).click();
  await expect(saved.getByText('No deal with that title or link.', { exact: false })).toBeVisible();
  await entry.fill(`focus DEAL ${run}`);
  await saved.getByRole('button', { name: 'Add' }).click();
  await expect(saved.getByRole('link', { name: `Focus deal ${run}` })).toHaveAttribute('href', `/deals/${deal!.id}`);
  await entry.fill(`${page.url().replace(/\/dashboard$/, '')}/deals/${deal!.id}`);
  await saved.getByRole('button', { name: 'Add' }).click();
  await expect(saved.getByText('Already in your Saved Campaigns.')).toBeVisible();
  await expect(saved.getByRole('listitem')).toHaveCount(1);

  await page.goto(`/deals/${deal!.id}`);
  await page.getByRole('link', { name: 'Message brand' }).click();
  await expect(page).toHaveURL(/\/inbox\/[0-9a-f-]{36}$/);
  const inbox = new InboxPage(page);
  await inbox.input.fill('Hi! About the shoot on');
  const log = page.getByRole('list', { name: /^Messages with/ });
  await expect(log).toHaveAttribute('tabindex', '0');
  expect(await blockingAxeViolations(page)).toEqual([]);
  await page.reload();
  await expect(inbox.input).toHaveValue('Hi! About the shoot on');
  await inbox.input.press('Enter');
  await expect(inbox.messages).toHaveCount(1);
  await page.reload();
  await expect(inbox.input).toHaveValue('');

  // A ticket about the deal names it.
  await page.goto('/support/new');
  await page.getByRole('combobox', { name: 'About a deal (optional)' }).selectOption({ label: `Focus deal ${run}` });
  await page.getByRole('textbox', { name: 'Subject' }).fill('Question about the brief');
  await page.getByRole('textbox', { name: 'Message' }).fill('Which colour should the shoes be?');
  await page.getByRole('button', { name: 'Create Ticket' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Question about the brief');
  await expect(page.getByRole('link', { name: `About “Focus deal ${run}”` })).toHaveAttribute(
    'href',
    `/deals/${deal!.id}`,
  );

  // The creator withdraws the application, after a second look; the server records it.
  await page.goto(`/deals/${deal!.id}`);
  await page.getByRole('button', { name: 'Withdraw application' }).click();
  await page.getByRole('button', { name: 'Yes, withdraw' }).click();
  await expect(page.getByTestId('my-application-status')).toContainText('Withdrawn');
  await expect
    .poll(
      async () =>
        (
          await withE2eDatabase((db) =>
            db.query<{ status: string }>('select status from public.applications where deal_id = $1', [deal!.id]),
          )
        ).rows[0]?.status,
      { timeout: 20_000 },
    )
    .toBe('withdrawn');
});

test('deal filters refuse "abc" and a minimum above the maximum, and are kept in the URL across a reload', async ({
  creatorPage: page,
}) => {
  await page.goto('/deals');
  const filters = page.getByRole('region', { name: 'Filters' });
  const min = filters.getByLabel('Minimum amount ($)');
  const max = filters.getByLabel('Maximum amount ($)');
  await min.fill('abc');
  await expect(filters.getByRole('alert')).toHaveText('Enter an amount in dollars, for example 250.');
  await expect(min).toHaveAttribute('aria-invalid', 'true');
  await min.fill('500');
  await max.fill('100');
  await expect(filters.getByRole('alert')).toHaveText('The maximum must be at least the minimum.');
  await max.fill('900');
  await expect(filters.getByRole('alert')).toHaveCount(0);
  await filters.getByLabel('Category').selectOption('Giveaway');
  await expect(page).toHaveURL(/[?&]min=500&max=900|[?&]category=Giveaway/);
  await page.reload();
  await expect(min).toHaveValue('500');
  await expect(max).toHaveValue('900');
  await expect(filters.getByLabel('Category')).toHaveValue('Giveaway');
});

test('on a phone, Reject stays on the line of Accept in the applicants list', async ({ newAccount, openAs }) => {
  const brand = await newAccount('brand', { fullName: `Phone Brand ${run}` });
  const creator = await newAccount('creator', { fullName: `Phone Applicant ${run}` });
  const [deal] = await seedDeals(brand.email, [`Phone applicants ${run}`]);
  await seedApplication(deal!.id, creator.email);
  const { page } = await openAs(brand, `/deals/${deal!.id}`);
  await page.setViewportSize({ width: 390, height: 844 });
  const accept = page.getByRole('button', { name: `Accept ${creator.fullName}` });
  const reject = page.getByRole('button', { name: `Reject ${creator.fullName}` });
  await expect(reject).toBeVisible({ timeout: 20_000 });
  const [a, r] = [(await accept.boundingBox())!, (await reject.boundingBox())!];
  expect(Math.abs(a.y - r.y)).toBeLessThan(2);
  expect(r.x).toBeGreaterThan(a.x);
});

test('a new creator’s dashboard leads to niches, a bio and a photo before swiping, and ticks each step; a new brand’s to its first deal', async ({
  newAccount,
  openAs,
}) => {
  const creator = await newAccount('creator', { fullName: `First Run Creator ${run}` });
  const { page } = await openAs(creator, '/dashboard');
  const card = page.getByRole('region', { name: 'Get started' });
  await expect(card).toContainText('0 of 4 done', { timeout: 20_000 });
  await expect(card.getByRole('listitem')).toHaveText([
    'Choose at least 2 niches',
    'Write a short bio for brands',
    'Add a photo',
    'Swipe deals and apply to one',
  ]);
  // The profile filled in (here by the server, as another device would): the steps tick themselves.
  await withE2eDatabase((client) =>
    client.query(
      `update public.profiles set niches = '{Outdoors,Fitness}', bio = $2
        where id = (select id from auth.users where email = $1)`,
      [creator.email, 'Trail runner and gear reviewer, posting a new video from the Alps every week.'],
    ),
  );
  await expect(card).toContainText('2 of 4 done', { timeout: 20_000 });
  await expect(card.getByRole('link', { name: 'Choose at least 2 niches' })).toHaveCount(0);
  await card.getByRole('link', { name: 'Swipe deals and apply to one' }).click();
  await expect(page).toHaveURL(/\/swipe$/);

  const brand = await newAccount('brand', { fullName: `First Run Brand ${run}` });
  const b = await openAs(brand, '/dashboard');
  const brandCard = b.page.getByRole('region', { name: 'Get started' });
  await expect(brandCard).toContainText('0 of 3 done', { timeout: 20_000 });
  await brandCard.getByRole('link', { name: 'Publish your first deal' }).click();
  await expect(b.page).toHaveURL(/\/deals\/new$/);
});
