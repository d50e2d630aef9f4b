import type { Locator, Page } from '@playwright/test';
import { seedDeals } from './pages/deals-page.ts';
import { HostedCheckoutPage, ledgerOf, PaymentPanel } from './pages/money-pages.ts';
import { withE2eDatabase } from './support/e2e-server-info.ts';
import { expect, test } from './support/fixtures.ts';

// A funded deal takes a second creator, whose agreed price the brand funds with a top-up
// (docs/decisions/048-escrow-top-ups.md): the brand sees what to fund, that creator sees why the work
// waits, and their draft is offered once the top-up is paid.

const run = Date.now().toString(36);

async function snap(part: Locator, name: string) {
  for (const width of [390, 1280]) {
    await part.page().setViewportSize({ width, height: 900 });
    await part.screenshot({ path: test.info().outputPath(`${name}-${width}.png`) });
  }
}

/** The brand's work panel with one applicant ("Work with {name}"). */
const workWith = (page: Page, name: string) =>
  page.getByTestId('deal-work').filter({ has: page.getByRole('heading', { name: `Work with ${name}` }) });

async function applyAt(page: Page, dollars: string) {
  await page.getByLabel('Your price ($)').fill(dollars);
  await page.getByRole('button', { name: 'Apply to this deal' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
}

test("a funded deal takes a second creator: the brand funds that creator's price with a top-up, and their draft waits until it is paid", async ({
  newAccount,
  openAs,
}) => {
  test.setTimeout(180_000);
  const brand = await newAccount('brand', { fullName: `Top-up Brand ${run}` });
  const first = await newAccount('creator', { fullName: `First Creator ${run}` });
  const second = await newAccount('creator', { fullName: `Second Creator ${run}` });
  const [deal] = await seedDeals(brand.email, [`Team reel ${run}`], { amountCents: 25_000 });
  await withE2eDatabase((client) => client.query('update public.deals set max_creators = 2 where id = $1', [deal!.id]));
  const dealPath = `/deals/${deal!.id}`;

  // Both apply while the deal is open; the brand accepts the first and funds the deal.
  const c1 = await openAs(first, dealPath);
  await applyAt(c1.page, '250');
  const c2 = await openAs(second, dealPath);
  await applyAt(c2.page, '300');
  const b = await openAs(brand, dealPath);
  await workWith(b.page, first.fullName).getByRole('button', { name: 'Accept offer', exact: true }).click();
  const brandPanel = new PaymentPanel(b.page);
  await brandPanel.button('Fund deal ($280.00)').click();
  await new HostedCheckoutPage(b.page).pay('4242 4242 4242 4242');
  await expect(brandPanel.root).toContainText('Funded and held in escrow.', { timeout: 20_000 });

  // The brand accepts the second creator on the funded deal: their price waits for a top-up.
  const secondWork = workWith(b.page, second.fullName);
  await secondWork.getByRole('button', { name: 'Accept offer', exact: true }).click();
  await secondWork.getByRole('button', { name: 'Accept terms', exact: true }).click();
  const topUp = brandPanel.root.getByTestId('top-up');
  await expect(topUp).toContainText(`${second.fullName} joined after the deal was funded`, { timeout: 20_000 });
  await expect(topUp).toContainText('You pay $336.00: $300.00 plus the 12% service fee ($36.00)');
  await snap(brandPanel.root, 'brand-funds-second-creator');

  // The second creator is told why the work waits, on the panel and in place of 'Submit draft'.
  await c2.page.goto(dealPath);
  const creatorPanel = new PaymentPanel(c2.page);
  await expect(creatorPanel.root).toContainText('Not funded yet: the brand funds the deal before the work starts.', {
    timeout: 20_000,
  });
  await expect(creatorPanel.root).toContainText('Your price of $300.00 is not in escrow yet.');
  await expect(creatorPanel.root.locator('.badge')).toHaveText('Not funded');
  await expect(creatorPanel.root.getByTestId('escrow-amount')).toHaveText('$300.00');
  const creatorWork = c2.page.getByTestId('deal-work');
  await creatorWork.getByRole('button', { name: 'Accept terms', exact: true }).click();
  await expect(creatorWork).toContainText(
    'The brand funds the deal before the work starts: submit the draft once it is funded.',
    { timeout: 20_000 },
  );
  await snap(creatorPanel.root, 'second-creator-waits');

  // The brand pays the top-up: $300 + 12%.
  await brandPanel.button(`Fund ${second.fullName}'s $300.00`).click();
  await new HostedCheckoutPage(b.page).pay('4242 4242 4242 4242');
  await expect(brandPanel.root).toContainText('Funded and held in escrow.', { timeout: 20_000 });
  await expect(brandPanel.root.getByTestId('top-up')).toHaveCount(0);
  await expect(brandPanel.root.getByTestId('escrow-amount')).toHaveText('$550.00');
  await expect(brandPanel.root.getByTestId('brand-charged')).toHaveText('$616.00');

  // The second creator's draft is offered now.
  await expect(creatorPanel.root).toContainText('Funded — you will be paid once the deal is completed.', {
    timeout: 20_000,
  });
  await expect(creatorWork.getByRole('form', { name: 'Submit draft: Instagram Post' })).toBeVisible({
    timeout: 20_000,
  });
  const ledger = await ledgerOf(deal!.id);
  expect(ledger.kinds).toMatchObject({ charge: 28_000 + 33_600, fee: 3_000 + 3_600 });
  expect(ledger.held).toBe(55_000);
});
