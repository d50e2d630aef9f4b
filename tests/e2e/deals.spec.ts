import { CreateDealPage } from './pages/create-deal-page.ts';
import { confirmInDialog, DealDetailPage } from './pages/deal-detail-page.ts';
import { DealsPage, makeDealProOnly, seedAcceptedApplication, seedDeals } from './pages/deals-page.ts';
import { SwipePage } from './pages/swipe-page.ts';
import { expect, test } from './support/fixtures.ts';
import { withE2eDatabase } from './support/e2e-server-info.ts';
import { blockingAxeViolations } from './support/axe.ts';

// Deals, swipe and applications against the built PWA and the real server: two browser
// contexts for two users, offline via context.setOffline, seeded deals written as the server.

const run = Date.now().toString(36);

test('offline swipe session: 20 deals, 5 applications survive a reload, reach the brand live, and the acceptance comes back', async ({
  newAccount,
  openAs,
}) => {
  test.setTimeout(180_000);
  const brand = await newAccount('brand', { fullName: `Swipe Brand ${run}` });
  const creator = await newAccount('creator', { fullName: `Swipe Creator ${run}` });
  await seedDeals(
    brand.email,
    Array.from({ length: 24 }, (_, i) => `Swipe ${run} #${String(i + 1).padStart(2, '0')}`),
  );

  const c = await openAs(creator, '/swipe', { offlineReady: true });
  const b = await openAs(brand, '/my-deals', { offlineReady: true });
  const swipe = new SwipePage(c.page);
  await expect(swipe.title).toBeVisible();

  await c.context.setOffline(true);
  const applied: string[] = [];
  const skipped: string[] = [];
  // Buttons, keys and drags: every fourth of this brand's cards is applied to (5 of 20). Deals other
  // tests left on the shared e2e server are ordered into the same deck; they are skipped and not counted.
  const ways = ['button', 'key', 'drag'] as const;
  let lastSkipped = '';
  for (let i = 0; i < 20;) {
    if (!(await swipe.currentTitle()).startsWith(`Swipe ${run} `)) {
      lastSkipped = await swipe.act('skip', 'button');
      continue;
    }
    const action = i % 4 === 0 ? 'apply' : 'skip';
    const title = await swipe.act(action, ways[i % 3]!);
    (action === 'apply' ? applied : skipped).push(title);
    if (action === 'skip') lastSkipped = title;
    i++;
  }
  expect(applied).toHaveLength(5);
  const next = await swipe.currentTitle();
  await expect(swipe.announcer).toContainText(`Skipped ${lastSkipped}. Now showing: ${next}`);

  // Reload with no connection: the same deck position, nothing handled comes back.
  await c.page.reload();
  await expect(swipe.title).toHaveText(next);
  await c.page.goto('/my-deals');
  for (const title of applied) await expect(c.page.getByRole('heading', { name: title })).toBeVisible();
  await expect(c.page.locator('main .my-deal')).toHaveCount(5);

  // The brand, online all along, sees nothing yet; then the 5 applications arrive without a reload.
  const counts = b.page.getByTestId('applications-count');
  await expect(counts.filter({ hasText: /^1 application$/ })).toHaveCount(0);
  await c.context.setOffline(false);
  await expect(counts.filter({ hasText: /^1 application$/ })).toHaveCount(5, { timeout: 30_000 });
  for (const title of applied) {
    await expect(
      b.page
        .locator('.my-deal')
        .filter({ has: b.page.getByRole('heading', { name: title }) })
        .getByTestId('applications-count'),
    ).toHaveText('1 application');
  }

  // The brand accepts one (in-app navigation) and the creator sees it accepted.
  const accepted = applied[0]!;
  await b.page.getByRole('link', { name: `View Details: ${accepted}` }).click();
  const brandDetail = new DealDetailPage(b.page);
  await expect(brandDetail.applicants).toHaveCount(1);
  await brandDetail.applicants
    .first()
    .getByRole('button', { name: /^Accept/ })
    .click();
  // The accepted creator stays in the one list of applicants, by status name; nothing says "No applicants yet.".
  await expect(brandDetail.applicants).toHaveCount(1);
  await expect(brandDetail.applicants.first()).toContainText('Accepted');
  await expect(brandDetail.applicants.first().getByRole('combobox')).toHaveValue('accepted');
  await expect(brandDetail.applicants.first().getByRole('option')).toHaveText(['Pending', 'Accepted', 'Rejected']);
  await expect(b.page.getByText('No applicants yet.')).toHaveCount(0);

  await c.page.getByRole('link', { name: `View Details: ${accepted}` }).click();
  await expect(new DealDetailPage(c.page).myApplicationStatus).toContainText('Accepted', { timeout: 30_000 });

  // Skipped deals stay skipped on another device of the same creator (the list replicates).
  const other = await openAs(creator, '/swipe', { offlineReady: true });
  const otherSwipe = new SwipePage(other.page);
  const shown = await otherSwipe.currentTitle();
  expect([...applied, ...skipped]).not.toContain(shown);
  await Promise.all([c.context.close(), b.context.close(), other.context.close()]);
});

test('a deal created offline shows as waiting to sync, publishes on reconnect, and creators find it in the list and in swipe', async ({
  newAccount,
  openAs,
}) => {
  test.setTimeout(150_000);
  const brand = await newAccount('brand', { fullName: `Offline Brand ${run}` });
  const creator = await newAccount('creator', { fullName: `Browsing Creator ${run}` });
  const b = await openAs(brand, '/deals', { offlineReady: true });
  const title = `Offline launch ${run}`;

  await b.context.setOffline(true);
  await b.page.getByRole('link', { name: 'Create Deal' }).click();
  const create = new CreateDealPage(b.page);
  await create.submit.click();
  await expect(create.error).toHaveText('Please fill in all required fields.');
  await create.fill({
    title,
    description: 'Film a 30-second reel with our new bottle.',
    amount: '1,250.50',
    niches: [],
  });
  await create.submit.click();
  await expect(create.error).toHaveText('Please select at least one niche.');
  await create.fill({
    title,
    description: 'Film a 30-second reel with our new bottle.',
    amount: '1250.50',
    niches: ['Fitness', 'Travel'],
    requirements: 'one reel, , two stories ',
    category: 'Giveaway',
  });
  await create.submit.click();
  await expect(b.page).toHaveURL(/\/deals\/[0-9a-f-]{36}$/);
  const detail = new DealDetailPage(b.page);
  await expect(detail.heading).toHaveText(title);
  await expect(detail.waitingToSync).toBeVisible();
  await expect(b.page.getByText('$1,250.50')).toBeVisible();
  await expect(b.page.getByRole('region', { name: 'Requirements' }).getByRole('listitem')).toHaveText([
    'one reel',
    'two stories',
  ]);

  await b.context.setOffline(false);
  await expect(detail.waitingToSync).toHaveCount(0, { timeout: 30_000 });

  const c = await openAs(creator, '/deals', { offlineReady: true });
  const deals = new DealsPage(c.page);
  await expect(deals.card(title)).toBeVisible({ timeout: 30_000 });
  await expect(deals.card(title)).toContainText('$1,250.50');
  const swipe = new SwipePage(c.page);
  await swipe.goto();
  await swipe.skipUntil(title);
  await expect(swipe.card).toContainText('$1,250.50');
  await Promise.all([b.context.close(), c.context.close()]);
});

test('an offline application to a deal completed meanwhile comes back with the reason, without looping or vanishing', async ({
  newAccount,
  openAs,
}) => {
  test.setTimeout(150_000);
  const brand = await newAccount('brand', { fullName: `Closing Brand ${run}` });
  const creator = await newAccount('creator', { fullName: `Late Creator ${run}` });
  const chosen = await newAccount('creator', { fullName: `Chosen Creator ${run}` });
  const [deal] = await seedDeals(brand.email, [`Closing soon ${run}`]);

  const c = await openAs(creator, `/deals/${deal!.id}`, { offlineReady: true });
  const detail = new DealDetailPage(c.page);
  await expect(detail.heading).toHaveText(deal!.title);
  await c.context.setOffline(true);
  await detail.applyButton.click();
  await expect(c.page.getByText('Application submitted!').first()).toBeVisible();
  await expect(c.page).toHaveURL(/\/dashboard$/);

  // Meanwhile the brand accepts another creator and completes the deal.
  await seedAcceptedApplication(deal!.id, chosen.email);
  const b = await openAs(brand, `/deals/${deal!.id}/edit`, { offlineReady: true });
  await b.page.getByRole('button', { name: 'Mark as Completed' }).click();
  await confirmInDialog(b.page, 'Mark as Completed', [
    'will be recorded as having done the work',
    'no money will move',
  ]);
  await expect(b.page.getByRole('button', { name: 'Deal Marked as Completed' })).toBeDisabled();
  await b.page.getByRole('link', { name: 'Back to the deal' }).first().click();
  await expect(b.page.getByRole('region', { name: 'Payment summary' })).toBeVisible({ timeout: 30_000 });

  // Back online, the creator's write is refused by the server and says why.
  let pushes = 0;
  c.page.on('request', (r) => {
    if (r.url().includes('/sync/v1/applications/push')) pushes++;
  });
  await c.context.setOffline(false);
  await c.page.goto(`/deals/${deal!.id}`);
  await expect(
    c.page.getByText('This application did not go through: This deal is no longer open for applications.'),
  ).toBeVisible({ timeout: 30_000 });
  // Never hidden behind "Synced": the sync status counts the refused change.
  await expect(c.page.getByTestId('sync-status-label')).toHaveText('1 not saved');
  const settled = pushes;
  await c.page.waitForTimeout(6_000);
  expect(pushes - settled, 'the refused application is not pushed again').toBe(0);

  // Kept (not silently dropped), also after a reload and on My Deals.
  await c.page.reload();
  await expect(
    c.page.getByText('This application did not go through: This deal is no longer open for applications.'),
  ).toBeVisible();
  await c.page.goto('/my-deals');
  await expect(
    c.page.getByText('This application did not go through: This deal is no longer open for applications.'),
  ).toBeVisible();
  await Promise.all([b.context.close(), c.context.close()]);
});

test('an offline application to a deal that turned Pro-only meanwhile says why, on the deal and on My Deals', async ({
  newAccount,
  openAs,
}) => {
  test.setTimeout(120_000);
  const brand = await newAccount('brand', { fullName: `Upselling Brand ${run}` });
  const creator = await newAccount('creator', { fullName: `Offline Creator ${run}` });
  const [deal] = await seedDeals(brand.email, [`Soon Pro only ${run}`]);
  const reason =
    'This application did not go through: This is a Pro Exclusive Deal: only Pro users can apply. Upgrade to Pro to apply.';

  const c = await openAs(creator, `/deals/${deal!.id}`, { offlineReady: true });
  const detail = new DealDetailPage(c.page);
  await expect(detail.heading).toHaveText(deal!.title);
  await c.context.setOffline(true);
  await detail.applyButton.click();
  await expect(c.page).toHaveURL(/\/dashboard$/);
  await makeDealProOnly(deal!.id);

  await c.context.setOffline(false);
  await c.page.goto(`/deals/${deal!.id}`);
  await expect(c.page.getByRole('heading', { name: 'Pro Exclusive Deal' })).toBeVisible({ timeout: 30_000 });
  await expect(c.page.getByText(reason)).toBeVisible({ timeout: 30_000 });
  await c.page.goto('/my-deals');
  await expect(c.page.getByText(reason)).toBeVisible();
  await c.context.close();
});

test('a non-Pro creator opening a link to a Pro-only deal sees Pro Exclusive Deal with Upgrade to Pro, not its content', async ({
  newAccount,
  openAs,
}) => {
  const brand = await newAccount('brand', { fullName: `Pro Brand ${run}` });
  const creator = await newAccount('creator', { fullName: `Free Creator ${run}` });
  const [deal] = await seedDeals(brand.email, [`Members only ${run}`], { proOnly: true });

  const c = await openAs(creator, `/deals/${deal!.id}`, { offlineReady: true });
  await expect(c.page.getByRole('heading', { name: 'Pro Exclusive Deal' })).toBeVisible();
  await expect(c.page.getByText(deal!.title)).toHaveCount(0);
  await c.page.getByRole('link', { name: 'Upgrade to Pro' }).click();
  await expect(c.page).toHaveURL(/\/pricing$/);

  // A deal that does not exist still says so.
  await c.page.goto('/deals/6f1c1f8e-0000-4000-8000-000000000000');
  await expect(c.page.getByRole('heading', { name: 'Deal not found.' })).toBeVisible();
  await c.context.close();
});

test('deals list, swipe, create, detail and My Deals have no serious accessibility violations', async ({
  newAccount,
  openAs,
}) => {
  test.setTimeout(120_000);
  const brand = await newAccount('brand', { fullName: `Axe Brand ${run}` });
  const creator = await newAccount('creator', { fullName: `Axe Creator ${run}` });
  const [deal] = await seedDeals(brand.email, [`Accessible deal ${run}`, `Second accessible deal ${run}`]);

  const c = await openAs(creator, '/deals', { offlineReady: true });
  await expect(new DealsPage(c.page).recommended).toBeVisible();
  expect(await blockingAxeViolations(c.page)).toEqual([]);
  await new SwipePage(c.page).goto();
  await expect(new SwipePage(c.page).title).toBeVisible();
  expect(await blockingAxeViolations(c.page)).toEqual([]);
  await c.page.goto(`/deals/${deal!.id}`);
  await expect(new DealDetailPage(c.page).applyButton).toBeVisible();
  expect(await blockingAxeViolations(c.page)).toEqual([]);

  await c.page.goto('/my-deals');
  await expect(c.page.getByText('No deals found.')).toBeVisible();
  expect(await blockingAxeViolations(c.page)).toEqual([]);

  const b = await openAs(brand, '/deals', { offlineReady: true });
  await expect(b.page.getByRole('region', { name: 'Available Creators' }).getByRole('listitem').first()).toBeVisible();
  expect(await blockingAxeViolations(b.page)).toEqual([]);
  await b.page.goto('/deals/new');
  expect(await blockingAxeViolations(b.page)).toEqual([]);
  await b.page.goto(`/deals/${deal!.id}`);
  await expect(b.page.getByRole('link', { name: 'Edit / Manage' })).toBeVisible();
  expect(await blockingAxeViolations(b.page)).toEqual([]);
  await Promise.all([b.context.close(), c.context.close()]);
});

test('filters, permission messages, editing and completion rules', async ({ newAccount, openAs, page }) => {
  test.setTimeout(150_000);
  const brand = await newAccount('brand', { fullName: `Editing Brand ${run}` });
  const otherBrand = await newAccount('brand', { fullName: `Other Brand ${run}` });
  const creator = await newAccount('creator', { fullName: `Filtering Creator ${run}` });
  // Older than the deal under test, which stays on the first page of cards (newest first).
  await seedDeals(
    otherBrand.email,
    Array.from({ length: 30 }, (_, i) => `Paged ${i} ${run}`),
    { amountCents: 77_777 },
  );
  const [deal] = await seedDeals(brand.email, [`Editable ${run}`], { amountCents: 40_000, niches: ['Gaming'] });
  // Recommended creators share a niche with the deal: this creator covers Gaming.
  await withE2eDatabase((db) =>
    db.query(`update public.profiles set niches = '{Gaming}' where id = (select id from auth.users where email = $1)`, [
      creator.email,
    ]),
  );

  // Signed out, the create screen asks to sign in.
  await page.goto('/deals/new');
  await expect(page.getByText('Please sign in to create a deal.')).toBeVisible();

  const c = await openAs(creator, '/deals', { offlineReady: true });
  const deals = new DealsPage(c.page);
  await expect(deals.card(deal!.title)).toBeVisible();
  await c.page.getByLabel('Minimum amount ($)').fill('400.01');
  await expect(deals.card(deal!.title)).toHaveCount(0);
  await c.page.getByLabel('Minimum amount ($)').fill('400');
  await c.page.getByText('Niches', { exact: true }).click();
  await c.page.getByRole('group', { name: 'Niches' }).getByRole('button', { name: 'Gaming' }).click();
  await expect(deals.card(deal!.title)).toBeVisible();
  await c.page.getByLabel('Category').selectOption('Giveaway');
  await expect(c.page.getByText('No deals match your filters.')).toBeVisible();
  await deals.clearFilters.click();
  await expect(deals.card(deal!.title)).toBeVisible();
  await expect(c.page.getByLabel('Minimum amount ($)')).toHaveValue('');

  // Cards come a page at a time.
  await c.page.getByLabel('Minimum amount ($)').fill('777.77');
  await c.page.getByLabel('Maximum amount ($)').fill('777.77');
  await expect(c.page.getByText('Showing 24 of 30 deals')).toBeVisible();
  await expect(deals.allDeals.getByRole('article')).toHaveCount(24);
  await c.page.getByRole('button', { name: 'Show more deals' }).click();
  await expect(c.page.getByText('Showing 30 of 30 deals')).toBeVisible();
  await expect(deals.allDeals.getByRole('article')).toHaveCount(30);
  await expect(c.page.getByRole('button', { name: 'Show more deals' })).toHaveCount(0);
  await deals.clearFilters.click();

  // A creator may not create or edit deals.
  await c.page.goto('/deals/new');
  await expect(c.page.getByRole('heading', { name: 'Access Denied' })).toBeVisible();
  await c.page.getByRole('main').getByRole('link', { name: 'Browse Deals' }).click();
  await expect(c.page).toHaveURL(/\/deals$/);
  await c.page.goto(`/deals/${deal!.id}/edit`);
  await expect(c.page.getByText('Only brands can edit deals.')).toBeVisible();

  const o = await openAs(otherBrand, `/deals/${deal!.id}/edit`, { offlineReady: true });
  await expect(o.page.getByText('You do not have permission to edit this deal.')).toBeVisible();
  // Its own 30 deals on My Deals, a page at a time.
  await o.page.goto('/my-deals');
  await expect(o.page.getByText('Showing 20 of 30 deals')).toBeVisible();
  await o.page.getByRole('button', { name: 'Show more deals' }).click();
  await expect(o.page.getByText('Showing 30 of 30 deals')).toBeVisible();
  await expect(o.page.getByRole('listitem').filter({ hasText: 'Paged 0 ' })).toBeVisible();

  // The owner edits, then cannot complete without a selected creator.
  const b = await openAs(brand, `/deals/${deal!.id}`, { offlineReady: true });
  await expect(b.page.getByText('No applicants yet.')).toBeVisible();
  await expect(b.page.getByText('No reviews yet.')).toBeVisible();
  await b.page.getByRole('button', { name: 'Show Recommended Creators' }).click();
  const recommended = b.page.getByRole('region', { name: 'Recommended creators' }).getByRole('listitem');
  await expect(recommended.first()).toBeVisible();
  // Only creators who cover one of the deal's niches (Gaming) are offered.
  for (const item of await recommended.all()) await expect(item).toContainText('Gaming');
  await b.page.getByRole('link', { name: 'Edit / Manage' }).click();
  await b.page.getByLabel('Title').fill(`Edited ${run}`);
  await b.page.getByLabel('Requirements (comma separated)').fill('one reel, , two stories ');
  await b.page.getByLabel('Deadline').fill('End of March');
  await b.page.getByRole('button', { name: 'Save Changes' }).click();
  await expect(b.page.getByText('Deal updated!').first()).toBeVisible();
  await b.page.getByRole('button', { name: 'Mark as Completed' }).click();
  await expect(b.page.getByText('You must select at least one creator before completing the deal.')).toBeVisible();
  await b.page.getByRole('link', { name: 'Back to the deal' }).first().click();
  await expect(b.page.getByRole('heading', { level: 1 })).toHaveText(`Edited ${run}`);
  await expect(b.page.getByRole('region', { name: 'Requirements' }).getByRole('listitem')).toHaveText([
    'Instagram Post',
    'one reel',
    'two stories',
  ]);

  // The creator sees the edit.
  await c.page.goto(`/deals/${deal!.id}`);
  await expect(c.page.getByRole('heading', { level: 1 })).toHaveText(`Edited ${run}`);
  await Promise.all([b.context.close(), c.context.close(), o.context.close()]);
});
