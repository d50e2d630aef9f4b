import { confirmInDialog, markAsCompleted } from './pages/deal-detail-page.ts';
import { seedAcceptedApplication, seedDeals } from './pages/deals-page.ts';
import {
  completePayoutOnboarding,
  disputeTickets,
  HostedCheckoutPage,
  ledgerOf,
  PaymentPanel,
} from './pages/money-pages.ts';
import type { Page } from '@playwright/test';
import { expect, test } from './support/fixtures.ts';

// Money on the local Stripe `npm start` runs: Pro checkout, escrow funding, payouts, release, disputes.

const run = Date.now().toString(36);

test('a free creator upgrades to Pro (monthly) with 4242, sees the Pro badge and Pro-only deals without reloading, then cancels at period end', async ({
  newAccount,
  openAs,
}) => {
  test.setTimeout(120_000);
  const brand = await newAccount('brand', { fullName: `Pro Brand ${run}` });
  const creator = await newAccount('creator', { fullName: `Pro Creator ${run}` });
  const [proDeal] = await seedDeals(brand.email, [`Pro only ${run}`], { proOnly: true });

  const { context, page } = await openAs(creator, '/deals');
  await expect(page.getByRole('heading', { name: proDeal!.title })).toHaveCount(0);
  await page.goto('/pro');
  // The page and the session are ready (its lazy chunk loaded) before the connection drops.
  await expect(page.getByRole('button', { name: 'Upgrade to Pro' })).toBeEnabled();
  // Offline, checkout cannot start and the page says why.
  await context.setOffline(true);
  await expect(page.getByRole('button', { name: 'Upgrade to Pro' })).toBeDisabled();
  await expect(page.getByText('Checkout needs a connection: you are offline.')).toBeVisible();
  await context.setOffline(false);
  await page.getByLabel(/Monthly/).check();
  await page.getByRole('button', { name: 'Upgrade to Pro' }).click();
  await new HostedCheckoutPage(page).pay('4242 4242 4242 4242');

  await expect(page).toHaveURL(/\/pro\/success\?session_id=/);
  await expect(page.getByRole('heading', { name: 'Welcome to Pro!' })).toBeVisible({ timeout: 20_000 });
  await expect(page.getByText('Your Pro badge and Pro-only deals are ready.')).toBeVisible({ timeout: 20_000 });
  // Its two buttons stand apart (the page is loaded fresh from checkout, with no other screen's styles).
  const browse = await page.getByRole('main').getByRole('link', { name: 'Browse deals' }).boundingBox();
  const manage = await page.getByRole('main').getByRole('link', { name: 'Manage subscription' }).boundingBox();
  expect(Math.max(manage!.x - (browse!.x + browse!.width), manage!.y - (browse!.y + browse!.height))).toBeGreaterThan(
    8,
  );
  // No reload from here on: in-app navigation only.
  await page.getByRole('main').getByRole('link', { name: 'Browse deals' }).click();
  await expect(page.getByRole('heading', { name: proDeal!.title })).toBeVisible({ timeout: 20_000 });
  await page.getByRole('navigation').getByRole('link', { name: 'Dashboard' }).first().click();
  await expect(page.locator('main .badge-pro').first()).toBeVisible();

  await page.getByRole('navigation').getByRole('link', { name: 'Settings' }).first().click();
  await page.getByRole('link', { name: 'Pro', exact: true }).click();
  await expect(page.getByTestId('subscription-state')).toContainText('Free trial until');
  await page.getByRole('button', { name: 'Manage subscription' }).click();
  await expect(page.getByRole('heading', { name: 'Manage your plan' })).toBeVisible();
  await page.getByRole('button', { name: 'Cancel plan' }).click();
  await expect(page.getByText(/Cancels on/)).toBeVisible();
  await page.getByRole('link', { name: '← Return to Pacta' }).click();
  await expect(page.getByTestId('subscription-state')).toContainText('Cancelled: Pro stays active until', {
    timeout: 20_000,
  });
  await expect(page.getByText('You are a Pro member.')).toBeVisible();
});

test('a brand funds the deal, the creator sets up payouts, the brand completes and releases; the creator sees the net payout; a second click pays nothing more', async ({
  newAccount,
  openAs,
}) => {
  test.setTimeout(150_000);
  const brand = await newAccount('brand', { fullName: `Escrow Brand ${run}` });
  const creator = await newAccount('creator', { fullName: `Escrow Creator ${run}` });
  const [deal] = await seedDeals(brand.email, [`Escrow deal ${run}`], { amountCents: 25_000 });
  await seedAcceptedApplication(deal!.id, creator.email);

  const b = await openAs(brand, `/deals/${deal!.id}`);
  const brandPanel = new PaymentPanel(b.page);
  await expect(brandPanel.root).toContainText('Not funded yet.');
  await brandPanel.button('Fund deal ($280.00)').click();
  await new HostedCheckoutPage(b.page).pay('4242 4242 4242 4242');
  await expect(b.page).toHaveURL(new RegExp(`/deals/${deal!.id}\\?funding=success`));
  await expect(brandPanel.root).toContainText('Funded and held in escrow.', { timeout: 20_000 });

  const c = await openAs(creator, `/deals/${deal!.id}`);
  const creatorPanel = new PaymentPanel(c.page);
  await expect(creatorPanel.root).toContainText('Funded — you will be paid once the deal is completed.');
  await expect(creatorPanel.root).not.toContainText('released');

  // Mark as Completed is on the deal page, behind a confirmation that says what happens to the escrow.
  await b.page
    .getByRole('region', { name: 'Complete the deal' })
    .getByRole('button', { name: 'Mark as Completed' })
    .click();
  await confirmInDialog(b.page, 'Mark as Completed', [
    `${creator.fullName} will be recorded as having done the work`,
    'The $250.00 in escrow will stay there until it is released',
  ]);
  // The creator has no payout account yet: Release payout now cannot succeed, so it is not offered, and says why.
  await expect(brandPanel.button('Release payout now')).toBeDisabled({ timeout: 20_000 });
  await expect(brandPanel.root).toContainText('The creator has to set up payouts before the payout can be released.');
  // Both sides are told what will happen and when, in the future tense; nothing promises "on completion" any more.
  await expect(brandPanel.root).toContainText(/Payout on hold until \w+ \d+, \d{4}/);
  await expect(brandPanel.root).toContainText(
    'It will then be released to the creator automatically unless a dispute is opened.',
  );
  await expect(creatorPanel.root).toContainText(/Payout on hold until \w+ \d+, \d{4}/, { timeout: 20_000 });
  await expect(creatorPanel.root).not.toContainText('on completion');
  await expect(creatorPanel.root).not.toContainText('Released automatically');

  await creatorPanel.button('Set up payouts').click();
  await completePayoutOnboarding(c.page, creator.fullName);
  await expect(c.page).toHaveURL(new RegExp(`/deals/${deal!.id}\\?payouts=done`));
  await expect(creatorPanel.root).toContainText('Payouts are set up');

  await b.page.reload();
  await expect(brandPanel.button('Release payout now')).toBeEnabled({ timeout: 20_000 });
  await brandPanel.button('Release payout now').click();
  const dialog = b.page.getByRole('alertdialog', { name: 'Release the payout now?' });
  await expect(dialog).toContainText("$237.50 will move from escrow to the creator's payout account");
  // A double click on the confirmation pays once.
  await dialog.getByRole('button', { name: 'Release payout now' }).dblclick();
  await expect(brandPanel.root.getByText('Payout released to creator!')).toBeVisible();
  await expect(brandPanel.root).toContainText('Payout released to the creator: $237.50.', { timeout: 20_000 });

  await expect(creatorPanel.root).toContainText('Payout released: $237.50 sent to your payout account.', {
    timeout: 20_000,
  });
  await expect(creatorPanel.creatorPayout).toHaveText('$237.50');
  const ledger = await ledgerOf(deal!.id);
  expect(ledger.transfers).toBe(1);
  expect(ledger.kinds).toMatchObject({ charge: 28_000, fee: 3_000, commission: 1_250, transfer: 23_750 });
  expect(ledger.held).toBe(0);
});

test('a dispute opened by the creator freezes the release and reaches staff; the admin refunds half; the ledger balances', async ({
  newAccount,
  openAs,
}) => {
  test.setTimeout(150_000);
  const brand = await newAccount('brand', { fullName: `Dispute Brand ${run}` });
  const creator = await newAccount('creator', { fullName: `Dispute Creator ${run}` });
  const admin = await newAccount('admin', { fullName: `Staff ${run}` });
  const [deal] = await seedDeals(brand.email, [`Disputed deal ${run}`], { amountCents: 40_000 });
  await seedAcceptedApplication(deal!.id, creator.email);

  const b = await openAs(brand, `/deals/${deal!.id}`);
  const brandPanel = new PaymentPanel(b.page);
  await brandPanel.button(/^Fund deal/).click();
  await new HostedCheckoutPage(b.page).pay('4242424242424242');
  await expect(brandPanel.root).toContainText('Funded and held in escrow.', { timeout: 20_000 });

  const c = await openAs(creator, `/deals/${deal!.id}`);
  const creatorPanel = new PaymentPanel(c.page);
  await creatorPanel.button('Set up payouts').click();
  await completePayoutOnboarding(c.page, creator.fullName);
  await expect(creatorPanel.root).toContainText('Payouts are set up');
  await creatorPanel.button('Open dispute').click();
  await c.page
    .getByLabel('What went wrong?')
    .fill('The brand asked for three extra videos that were not in the brief.');
  await creatorPanel.button('Open dispute').click();
  await expect(creatorPanel.root).toContainText('Disputed — the payout is on hold', { timeout: 20_000 });

  await b.page.reload();
  await markAsCompleted(b.page);
  await expect(brandPanel.root).toContainText('Disputed — the payout is on hold', { timeout: 20_000 });
  await expect(brandPanel.button('Release payout now')).toHaveCount(0);
  const tickets = await disputeTickets(deal!.id);
  expect(tickets).toHaveLength(1);
  expect(tickets[0]!.subject).toBe(`Dispute: ${deal!.title}`);

  // Staff find it in the support queue and follow it to the deal's dispute panel.
  const a = await openAs(admin, '/support');
  await a.page
    .getByRole('list', { name: 'Support queue' })
    .getByRole('link', { name: new RegExp(`Dispute: ${deal!.title}`) })
    .click();
  await a.page.getByRole('link', { name: /^About (a deal|“)/ }).click();
  await expect(a.page).toHaveURL(new RegExp(`/deals/${deal!.id}`));
  const adminPanel = new PaymentPanel(a.page);
  await expect(adminPanel.root).toContainText('The brand asked for three extra videos');
  await a.page.getByLabel(/Refund to the brand/).fill('200');
  await adminPanel.button('Resolve dispute').click();
  await confirmInDialog(a.page, 'Resolve dispute', [
    '$200.00 will be refunded to the brand',
    '$200.00 will be released to the creator, less the commission',
  ]);
  await expect(adminPanel.root).toContainText(
    'Dispute resolved: $224.00 refunded to the brand, $190.00 paid to the creator.',
  );
  await a.page.getByRole('link', { name: 'Ledger of this deal' }).click();
  await expect(a.page.getByRole('heading', { name: 'Ledger', level: 1 })).toBeVisible();
  await expect(a.page.getByTestId('held')).toHaveText('$0.00');

  const ledger = await ledgerOf(deal!.id);
  expect(ledger.kinds).toMatchObject({
    charge: 44_800,
    refund: 22_400,
    fee: 2_400,
    commission: 1_000,
    transfer: 19_000,
  });
  expect(ledger.held).toBe(0);
  await expect(creatorPanel.root).toContainText('Payout released: $190.00', { timeout: 20_000 });
});

test('the amount is frozen while a checkout is open; the panels show what was charged; the brand asks to cancel and the refund waits for the creator', async ({
  newAccount,
  openAs,
}) => {
  test.setTimeout(150_000);
  const brand = await newAccount('brand', { fullName: `Consent Brand ${run}` });
  const creator = await newAccount('creator', { fullName: `Consent Creator ${run}` });
  const [deal] = await seedDeals(brand.email, [`Consent deal ${run}`], { amountCents: 25_000 });
  await seedAcceptedApplication(deal!.id, creator.email);
  /** The payment panel at phone and desktop widths (kept with the test's output). */
  const snap = async (page: Page, name: string) => {
    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      await new PaymentPanel(page).root.screenshot({ path: test.info().outputPath(`${name}-${width}.png`) });
    }
  };

  const b = await openAs(brand, `/deals/${deal!.id}`);
  const brandPanel = new PaymentPanel(b.page);
  await brandPanel.button('Fund deal ($280.00)').click();
  await expect(b.page.getByText('Local Stripe — a stand-in')).toBeVisible();
  await b.page.getByRole('link', { name: '← Back without paying' }).click();
  await expect(brandPanel.root).toContainText('Amount frozen at $250.00.', { timeout: 20_000 });
  await expect(brandPanel.root).toContainText("the deal's amount cannot change until it is paid or cancelled");
  await snap(b.page, 'amount-frozen');
  await brandPanel.button('Cancel checkout').click();
  await expect(brandPanel.root).not.toContainText('Amount frozen');

  await brandPanel.button('Fund deal ($280.00)').click();
  await new HostedCheckoutPage(b.page).pay('4242 4242 4242 4242');
  await expect(brandPanel.root).toContainText('Funded and held in escrow.', { timeout: 20_000 });
  await expect(brandPanel.root.getByTestId('brand-charged')).toHaveText('$280.00');

  const c = await openAs(creator, `/deals/${deal!.id}`);
  const creatorPanel = new PaymentPanel(c.page);
  await expect(creatorPanel.root).toContainText('Funded — you will be paid once the deal is completed.');
  await expect(creatorPanel.root.getByTestId('escrow-amount')).toHaveText('$250.00');
  await expect(creatorPanel.root.getByTestId('brand-charged')).toHaveText('$280.00');
  await snap(c.page, 'charged');

  await brandPanel.button('Ask to cancel and refund').click();
  await expect(brandPanel.root).toContainText("waiting for the creator's consent", { timeout: 20_000 });
  await snap(b.page, 'cancel-waiting');
  await c.page.reload();
  await expect(creatorPanel.root).toContainText('The brand asks to cancel this deal', { timeout: 20_000 });
  await snap(c.page, 'cancel-consent');
  await creatorPanel.button('Agree to cancel').click();
  await expect(creatorPanel.root).toContainText('Refunded to the brand: $280.00.', { timeout: 20_000 });
  await b.page.reload();
  await expect(brandPanel.root).toContainText('Refunded to the brand: $280.00.', { timeout: 20_000 });
  const ledger = await ledgerOf(deal!.id);
  expect(ledger.kinds).toMatchObject({ charge: 28_000, refund: 28_000 });
  expect(ledger.held).toBe(0);
});

test.describe('a declined card', () => {
  // The local Stripe answers a declined card with 402, as Stripe's hosted page does.
  test.use({ allowedConsoleErrors: [/status of 402/] });

  test('after a declined card and a cancelled checkout, the payment panel says one thing: the checkout was cancelled', async ({
    newAccount,
    openAs,
  }) => {
    test.setTimeout(120_000);
    const brand = await newAccount('brand', { fullName: `Declined Brand ${run}` });
    const creator = await newAccount('creator', { fullName: `Declined Creator ${run}` });
    const [deal] = await seedDeals(brand.email, [`Declined deal ${run}`], { amountCents: 25_000 });
    await seedAcceptedApplication(deal!.id, creator.email);

    const b = await openAs(brand, `/deals/${deal!.id}`);
    const brandPanel = new PaymentPanel(b.page);
    await brandPanel.button('Fund deal ($280.00)').click();
    await new HostedCheckoutPage(b.page).pay('4000 0000 0000 0002');
    await expect(b.page.getByText('Your card was declined.')).toBeVisible();
    await b.page.getByRole('link', { name: '← Back without paying' }).click();
    await brandPanel.button('Cancel checkout').click();
    await expect(brandPanel.root).toContainText('Checkout was cancelled: the deal is not funded.');
    await expect(brandPanel.root).not.toContainText('Not funded yet.');
    await expect(brandPanel.root).not.toContainText('declined');
  });
});
