import type { Page } from '@playwright/test';
import { CampaignBriefPage } from './pages/campaign-brief-page.ts';
import { DealsPage, seedAcceptedApplication, seedDeals, userId, waitForSynced } from './pages/deals-page.ts';
import { expect, test } from './support/fixtures.ts';
import { withE2eDatabase } from './support/e2e-server-info.ts';

// Campaign briefs whose drafts follow the brand across devices, and blind two-way reviews, against
// the built PWA and the real server: browser contexts are devices, context.setOffline cuts them off.

test.use({ allowedConsoleErrors: [/net::ERR_NETWORK_CHANGED/] });

const run = Date.now().toString(36);

test('a brief drafted offline survives a reload, is finished on a second device, and is created there', async ({
  newAccount,
  openAs,
}) => {
  test.setTimeout(180_000);
  const brand = await newAccount('brand', { fullName: `Brief Brand ${run}` });
  const creator = await newAccount('creator', { fullName: `Brief Creator ${run}` });
  const title = `Trail shoes launch ${run}`;

  const phone = await openAs(brand, '/campaign/new', { offlineReady: true });
  const wizard = new CampaignBriefPage(phone.page);
  await wizard.startNew();
  await phone.context.setOffline(true);
  // Step 1, with the errors the step shows before it can be left.
  await wizard.next.click();
  await expect(phone.page.getByText('Enter a campaign title.')).toBeVisible();
  await expect(phone.page.getByText('Choose at least one niche.')).toBeVisible();
  await wizard.field('Campaign title').fill(title);
  await wizard.chip('Fitness').click();
  await wizard.chip('Outdoors').click();
  await wizard.field('Campaign goals').fill('Show the shoes on real trails, in your own words.');
  await wizard.field('Product URL').fill('not a link');
  await wizard.next.click();
  await expect(phone.page.getByText('Enter a valid URL, like https://example.com.')).toBeVisible();
  await wizard.field('Product URL').fill('https://example.com/trail');
  await wizard.next.click();
  // Step 2.
  await wizard.expectStep(2, 'Content Requirements');
  await wizard.chip('TikTok Video').click();
  await wizard.field('Key messaging').fill('Grip on wet rock.');
  await wizard.expectSaved(title, 2);

  // Reloaded with no connection: the draft is there, open where it was left.
  await phone.page.reload();
  await wizard.expectStep(2, 'Content Requirements');
  await expect(wizard.chip('TikTok Video')).toHaveAttribute('aria-pressed', 'true');
  await expect(wizard.draft(title)).toContainText('Step 2 of 4: Content Requirements');
  await expect(wizard.draft(title)).toContainText('Waiting to sync');
  await phone.context.setOffline(false);
  await waitForSynced(phone.page);
  await expect(wizard.draft(title)).not.toContainText('Waiting to sync');

  // The laptop: the same brand sees the draft, continues it where it was left, and creates the campaign.
  const laptop = await openAs(brand, '/campaign/new', { offlineReady: true });
  const onLaptop = new CampaignBriefPage(laptop.page);
  await expect(onLaptop.draft(title)).toBeVisible();
  await laptop.page.getByRole('button', { name: 'Continue draft' }).click();
  await onLaptop.expectStep(2, 'Content Requirements');
  await expect(onLaptop.chip('TikTok Video')).toHaveAttribute('aria-pressed', 'true');
  await expect(onLaptop.field('Key messaging')).toHaveValue('Grip on wet rock.');
  await onLaptop.next.click();
  await onLaptop.expectStep(3, 'Budget & Timeline');
  await onLaptop.field('Budget per creator ($)').fill('40');
  await laptop.page.getByRole('combobox', { name: 'Timeline' }).selectOption('2 weeks');
  await onLaptop.next.click();
  await expect(laptop.page.getByText('The budget per creator must be at least $50.')).toBeVisible();
  await onLaptop.field('Budget per creator ($)').fill('300');
  await onLaptop.next.click();
  await onLaptop.expectStep(4, 'Review & Submit');
  await expect(laptop.page.getByRole('complementary', { name: 'Brief assistant' })).toContainText(
    'Ready to create (worth adding)',
  );
  await onLaptop.create.click();
  await expect(laptop.page.getByRole('heading', { name: 'Campaign Created Successfully!' })).toBeVisible();
  await expect(laptop.page.getByText('Redirecting you to your campaign page...')).toBeVisible();
  await expect(laptop.page).toHaveURL(/\/deals\/[0-9a-f-]{36}$/, { timeout: 10_000 });
  await expect(laptop.page.getByRole('heading', { level: 1, name: title })).toBeVisible();
  // The deal page keeps the brief: its messaging, timeline and product link, not only the goals.
  const brief = laptop.page.getByRole('region', { name: 'Campaign brief' });
  await expect(brief).toContainText('Key messaging');
  await expect(brief).toContainText('Grip on wet rock.');
  await expect(brief).toContainText('2 weeks');
  await expect(brief.getByRole('link', { name: 'https://example.com/trail' })).toBeVisible();

  // The phone's list no longer shows the draft, and creators see the campaign.
  await expect(wizard.draft(title)).toHaveCount(0, { timeout: 20_000 });
  const server = await withE2eDatabase((c) =>
    c.query(
      `select is_campaign, deliverables, timeline, amount_cents::int as amount_cents, product_url, key_messaging from public.deals where title = $1`,
      [title],
    ),
  );
  expect(server.rows).toEqual([
    {
      is_campaign: true,
      deliverables: ['TikTok Video'],
      timeline: '2 weeks',
      amount_cents: 30_000,
      product_url: 'https://example.com/trail',
      key_messaging: 'Grip on wet rock.',
    },
  ]);
  const c = await openAs(creator, '/deals', { offlineReady: true });
  await expect(new DealsPage(c.page).card(title)).toBeVisible({ timeout: 20_000 });
  for (const x of [phone, laptop, c]) await x.context.close();
});

test('two devices edit different fields of one draft offline; after reconnecting both edits are on both', async ({
  newAccount,
  openAs,
}) => {
  test.setTimeout(180_000);
  const brand = await newAccount('brand', { fullName: `Merge Brand ${run}` });
  const title = `Two devices ${run}`;
  const a = await openAs(brand, '/campaign/new', { offlineReady: true });
  const onA = new CampaignBriefPage(a.page);
  await onA.startNew();
  await onA.field('Campaign title').fill(title);
  await onA.expectSaved(title, 1);
  await waitForSynced(a.page);

  const b = await openAs(brand, '/campaign/new', { offlineReady: true });
  const onB = new CampaignBriefPage(b.page);
  await b.page.getByRole('button', { name: `Continue ${title}` }).click();
  await expect(onB.field('Campaign title')).toHaveValue(title);

  await a.context.setOffline(true);
  await b.context.setOffline(true);
  await onA.field('Campaign goals').fill('Written on device A');
  await onB.field('Target audience').fill('Chosen on device B');
  // Both edits are stored locally (the sync indicator counts them) before the devices reconnect.
  for (const page of [a.page, b.page])
    await expect(page.getByRole('banner').getByLabel(/waiting to sync/)).toBeVisible();
  await a.context.setOffline(false);
  await b.context.setOffline(false);

  for (const page of [a.page, b.page]) {
    const wizard = new CampaignBriefPage(page);
    await expect(wizard.field('Campaign goals')).toHaveValue('Written on device A', { timeout: 30_000 });
    await expect(wizard.field('Target audience')).toHaveValue('Chosen on device B', { timeout: 30_000 });
    await expect(wizard.field('Campaign title')).toHaveValue(title);
  }
  // And after a reload, from the stored draft.
  await b.page.reload();
  await expect(onB.field('Campaign goals')).toHaveValue('Written on device A');
  await expect(onB.field('Target audience')).toHaveValue('Chosen on device B');
  await a.context.close();
  await b.context.close();
});

test("blind reviews: neither side sees the other's review until both have written; then both show and the rating changes", async ({
  newAccount,
  openAs,
}) => {
  test.setTimeout(180_000);
  const brand = await newAccount('brand', { fullName: `Review Brand ${run}` });
  const creator = await newAccount('creator', { fullName: `Review Creator ${run}` });
  const [deal] = await seedDeals(brand.email, [`Reviewed deal ${run}`]);
  await seedAcceptedApplication(deal!.id, creator.email);
  await withE2eDatabase((c) => c.query(`update public.deals set status = 'completed' where id = $1`, [deal!.id]));
  const creatorId = await userId(creator.email);

  const b = await openAs(brand, `/deals/${deal!.id}`, { offlineReady: true });
  const c = await openAs(creator, `/deals/${deal!.id}`, { offlineReady: true });
  const reviewsOf = (page: Page) => page.getByRole('region', { name: 'Reviews', exact: true });

  // The brand reviews first: only the brand sees it.
  await b.page.getByRole('group', { name: 'Rating' }).getByLabel('4 stars').check();
  await b.page.getByLabel('Your review').fill('On brief and early.');
  await b.page.getByRole('button', { name: 'Submit Review' }).click();
  await expect(b.page.getByTestId('review-visibility')).toContainText(
    `Only you can see it until ${creator.fullName} has reviewed you too`,
    { timeout: 20_000 },
  );
  await expect(reviewsOf(b.page).getByText('No reviews yet.')).toBeVisible();
  await waitForSynced(b.page);
  await c.page.reload();
  await waitForSynced(c.page);
  await expect(reviewsOf(c.page).getByText('No reviews yet.')).toBeVisible();
  await expect(c.page.getByText('On brief and early.')).toHaveCount(0);
  await c.page.goto(`/creator/${creatorId}`);
  await expect(c.page.getByRole('heading', { level: 1, name: creator.fullName })).toBeVisible();
  await expect(c.page.getByText('No reviews yet.')).toBeVisible();
  await expect(c.page.getByTestId('portfolio-rating')).toHaveText('No rating yet');

  // The creator reviews: both reviews show for both, and on the portfolio with the new rating.
  await c.page.goto(`/deals/${deal!.id}`);
  await c.page.getByRole('group', { name: 'Rating' }).getByLabel('5 stars').check();
  await c.page.getByLabel('Your review').fill('Clear brief, quick approvals.');
  await c.page.getByRole('button', { name: 'Submit Review' }).click();
  for (const page of [b.page, c.page]) {
    await expect(reviewsOf(page).getByText('On brief and early.')).toBeVisible({ timeout: 30_000 });
    await expect(reviewsOf(page).getByText('Clear brief, quick approvals.')).toBeVisible({ timeout: 30_000 });
  }
  await expect(b.page.getByTestId('review-visibility')).toHaveText('Published: both reviews are visible.');
  await b.page.goto(`/creator/${creatorId}`);
  await expect(b.page.getByTestId('portfolio-review')).toHaveCount(1);
  await expect(b.page.getByTestId('portfolio-review')).toContainText('On brief and early.');
  await expect(b.page.getByTestId('portfolio-rating')).toContainText('4.00', { timeout: 20_000 });
  await expect(b.page.getByTestId('past-deal')).toContainText(`Reviewed deal ${run}`);
  await b.context.close();
  await c.context.close();
});
