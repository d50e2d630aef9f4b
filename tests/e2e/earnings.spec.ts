import { readFile } from 'node:fs/promises';
import { markAsCompleted } from './pages/deal-detail-page.ts';
import { seedAcceptedApplication, seedDeals } from './pages/deals-page.ts';
import { completePayoutOnboarding, HostedCheckoutPage, ledgerOf, PaymentPanel } from './pages/money-pages.ts';
import { expect, test } from './support/fixtures.ts';
import { blockingAxeViolations } from './support/axe.ts';

// A creator's earnings, from the server's ledger, agree with each deal's payment panel; staff see
// what waits on them on their own home.

const run = Date.now().toString(36);

test('a creator sees what was paid and what escrow holds, per deal, as the payment panels say, and downloads it as CSV; staff see the dispute on their home', async ({
  newAccount,
  openAs,
}) => {
  test.setTimeout(180_000);
  const brand = await newAccount('brand', { fullName: `Earnings Brand ${run}` });
  const creator = await newAccount('creator', { fullName: `Earnings Creator ${run}` });
  const admin = await newAccount('admin', { fullName: `Earnings Staff ${run}` });
  const [paidDeal, heldDeal] = await seedDeals(brand.email, [`Paid reel ${run}`, `Held, "quoted" vlog ${run}`], {
    amountCents: 25_000,
  });
  for (const deal of [paidDeal!, heldDeal!]) await seedAcceptedApplication(deal.id, creator.email);

  // The brand funds both deals.
  const b = await openAs(brand, `/deals/${paidDeal!.id}`);
  const brandPanel = new PaymentPanel(b.page);
  for (const deal of [paidDeal!, heldDeal!]) {
    await b.page.goto(`/deals/${deal.id}`);
    await brandPanel.button(/^Fund deal/).click();
    await new HostedCheckoutPage(b.page).pay('4242 4242 4242 4242');
    await expect(brandPanel.root).toContainText('Funded and held in escrow.', { timeout: 20_000 });
  }

  // The creator finds Earnings from Settings (not only Pro's page) and sets up payouts there.
  const c = await openAs(creator, '/settings?section=pro');
  await c.page.getByRole('link', { name: 'See your earnings' }).click();
  await expect(c.page.getByRole('heading', { name: 'Earnings', level: 1 })).toBeVisible();
  await c.page.getByRole('button', { name: 'Set up payouts' }).click();
  await completePayoutOnboarding(c.page, creator.fullName);
  await expect(c.page).toHaveURL(/\/earnings\?payouts=done/);
  await expect(c.page.getByText('Payouts are set up')).toBeVisible({ timeout: 20_000 });

  // The brand completes and releases the first deal.
  await b.page.goto(`/deals/${paidDeal!.id}`);
  await markAsCompleted(b.page);
  await brandPanel.button('Release payout now').click();
  await b.page.getByRole('alertdialog').getByRole('button', { name: 'Release payout now' }).click();
  await expect(brandPanel.root).toContainText('Payout released to the creator: $237.50.', { timeout: 20_000 });

  await c.page.reload();
  const rows = c.page.getByRole('row');
  const paidRow = rows.filter({ hasText: paidDeal!.title });
  const heldRow = rows.filter({ hasText: heldDeal!.title });
  await expect(paidRow).toContainText('Paid');
  await expect(paidRow).toContainText('$12.50 (5%)');
  await expect(paidRow.getByTestId('earning-payout')).toHaveText('$237.50');
  await expect(paidRow.getByTestId('earning-when')).toHaveText(/^Paid on \w+ \d+, \d{4}$/);
  await expect(heldRow).toContainText('Held in escrow');
  await expect(heldRow.getByTestId('earning-payout')).toHaveText('$237.50');
  await expect(heldRow.getByTestId('earning-when')).toHaveText('Released once the work is done');
  await expect(c.page.getByTestId('total-paid')).toHaveText('$237.50');
  await expect(c.page.getByTestId('total-held')).toHaveText('$237.50');
  expect(await blockingAxeViolations(c.page)).toEqual([]);

  // The same figures on the paid deal's payment panel, its commission rate kept once released.
  await paidRow.getByRole('link', { name: paidDeal!.title }).click();
  const creatorPanel = new PaymentPanel(c.page);
  await expect(creatorPanel.creatorPayout).toHaveText('$237.50', { timeout: 20_000 });
  await expect(creatorPanel.root).toContainText('Platform commission (5%)');
  const ledger = await ledgerOf(paidDeal!.id);
  expect(ledger.kinds.transfer).toBe(23_750);
  await c.page.goBack();

  const [download] = await Promise.all([
    c.page.waitForEvent('download'),
    c.page.getByRole('button', { name: 'Download CSV' }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^pacta-earnings-\d{4}-\d{2}-\d{2}\.csv$/);
  const csv = await readFile((await download.path())!, 'utf8');
  const lines = csv.split(/\r?\n/);
  expect(lines[0]).toBe(
    'Deal,Brand,Status,Deal amount (USD),Commission rate,Commission (USD),Payout (USD),Funded on,Paid on,Release due on,Deal ID',
  );
  expect(csv).toContain(`"Held, ""quoted"" vlog ${run}",Earnings Brand ${run},Held in escrow,250.00,5%,12.50,237.50`);
  expect(csv).toContain(`Paid reel ${run},Earnings Brand ${run},Paid,250.00,5%,12.50,237.50`);

  // The creator disputes the held deal: it stays held, without a date, and staff find it on their home.
  await c.page.goto(`/deals/${heldDeal!.id}`);
  await creatorPanel.button('Open dispute').click();
  await c.page.getByLabel('What went wrong?').fill('The brand changed the brief after I delivered.');
  await creatorPanel.button('Open dispute').click();
  await expect(creatorPanel.root).toContainText('Disputed — the payout is on hold', { timeout: 20_000 });
  await c.page.goto('/earnings');
  await expect(rows.filter({ hasText: heldDeal!.title }).getByTestId('earning-when')).toHaveText(
    'On hold until Pacta staff resolve the dispute',
  );

  const a = await openAs(admin, '/dashboard');
  await a.page.getByRole('navigation').getByRole('link', { name: 'Staff' }).first().click();
  await expect(a.page).toHaveURL(/\/admin$/);
  const disputes = a.page.getByTestId('staff-disputes');
  await expect(disputes.getByRole('link', { name: heldDeal!.title })).toBeVisible({ timeout: 20_000 });
  await expect(a.page.getByTestId('staff-tickets')).toBeVisible();
  await expect(a.page.getByTestId('staff-release')).toBeVisible();
  await expect(a.page.getByTestId('staff-jobs')).toBeVisible();
  expect(await blockingAxeViolations(a.page)).toEqual([]);
  await disputes.getByRole('link', { name: heldDeal!.title }).click();
  await expect(a.page).toHaveURL(new RegExp(`/deals/${heldDeal!.id}$`));
});
