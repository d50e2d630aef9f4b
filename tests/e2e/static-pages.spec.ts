import AxeBuilder from '@axe-core/playwright';
import {
  COMMISSION_BP,
  PRO_COMMISSION_BP,
  SERVICE_FEE_BP,
  dealPaymentSummary,
  formatRate,
  formatUsd,
} from '../../src/domain/fees.ts';
import { ShellPage } from './pages/shell-page.ts';
import { blockingAxeViolations } from './support/axe.ts';
import { expect, test } from './support/console-errors.ts';

const STATIC_PAGES: [string, string][] = [
  ['/', 'Sponsorship deals, safely made.'],
  ['/about', 'About Pacta'],
  ['/contact', 'Contact us'],
  ['/careers', 'Careers'],
  ['/blog', 'Blog'],
  ['/blog/how-escrow-protects-both-sides', 'How escrow protects both sides of a deal'],
  ['/commission-policy', 'Commission Policy'],
  ['/terms', 'Terms of Service'],
  ['/privacy', 'Privacy Policy'],
  ['/cookies', 'Cookie Policy'],
  ['/pro', 'Creator Pro'],
  ['/pricing', 'Pricing'],
  ['/no-such-page', 'Page not found'],
];

for (const [path, title] of STATIC_PAGES) {
  test(`${path} renders and has no serious or critical accessibility violations`, async ({ page }) => {
    const shell = new ShellPage(page);
    await shell.goto(path);
    await expect(shell.heading).toHaveText(title);
    if (path !== '/') await expect(shell.footer).toBeVisible();
    expect(await blockingAxeViolations(page)).toEqual([]);
  });
}

test('the open mobile menu has no serious or critical accessibility violations', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 800 });
  const shell = new ShellPage(page);
  await shell.goto('/about');
  await shell.menuButton.click();
  await expect(page.locator('#mobile-menu')).toBeVisible();
  expect(await blockingAxeViolations(page, '.site-header')).toEqual([]);
});

test('no serious contrast problems in any of the ten themes', async ({ page }) => {
  const shell = new ShellPage(page);
  await shell.goto('/commission-policy');
  for (const theme of ['warm', 'slate', 'lavender', 'olive', 'dark', 'amber', 'ocean', 'rose', 'forest', 'sunset']) {
    await shell.themeSelect.selectOption(theme);
    await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
    const results = await new AxeBuilder({ page }).withRules(['color-contrast']).analyze();
    expect(results.violations.map((v) => `${theme}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
  }
});

test('commission policy and terms show the fee module figures, so they agree', async ({ page }) => {
  const shell = new ShellPage(page);
  const free = dealPaymentSummary(100_000, { creatorIsPro: false });
  const pro = dealPaymentSummary(100_000, { creatorIsPro: true });
  for (const path of ['/commission-policy', '/terms']) {
    await shell.goto(path);
    await expect(page.locator('[data-fee="service"]')).toHaveText(formatRate(SERVICE_FEE_BP));
    await expect(page.locator('[data-fee="commission"]')).toHaveText(formatRate(COMMISSION_BP));
    await expect(page.locator('[data-fee="pro-commission"]')).toHaveText(formatRate(PRO_COMMISSION_BP));
  }
  await expect(shell.main).toContainText('Payment disputes must be reported within 30 days');
  await expect(shell.main).toContainText('Service fees are non-refundable.');
  await shell.goto('/commission-policy');
  const example = page.getByTestId('fee-example');
  await expect(example.getByRole('row', { name: /Brand pays in total/ })).toContainText(
    formatUsd(free.brandTotalCents),
  );
  await expect(example.getByRole('row', { name: /Platform commission/ })).toContainText(
    formatUsd(free.commissionCents),
  );
  await expect(example.getByRole('row', { name: /Platform commission/ })).toContainText(formatUsd(pro.commissionCents));
  await expect(example.getByRole('row', { name: /Creator receives/ })).toContainText(
    formatUsd(free.creatorPayoutCents),
  );
  await expect(example.getByRole('row', { name: /Creator receives/ })).toContainText(formatUsd(pro.creatorPayoutCents));
  // The figures the spec quotes for a $1,000 deal.
  expect([formatUsd(free.commissionCents), formatUsd(free.creatorPayoutCents)]).toEqual(['$50.00', '$950.00']);
});

test('about shows figures true of any Pacta (its terms), no user counts a demo cannot back; careers lists four roles', async ({
  page,
}) => {
  const shell = new ShellPage(page);
  await shell.goto('/about');
  for (const figure of ['12%', '5%', '26', '100%'])
    await expect(shell.main.getByText(figure, { exact: true })).toBeVisible();
  for (const claim of ['10K+', '500+', '$2M+', '95%'])
    await expect(shell.main.getByText(claim, { exact: true })).toHaveCount(0);
  await shell.goto('/careers');
  await expect(shell.main.getByRole('link', { name: /^Apply Now for / })).toHaveCount(4);
});

test('the blog lists six posts, filters by category chip and opens a post', async ({ page }) => {
  const shell = new ShellPage(page);
  await shell.goto('/blog');
  const posts = page.getByRole('list', { name: 'Posts' }).getByRole('listitem');
  await expect(posts).toHaveCount(6);
  await page.getByRole('button', { name: 'Brands' }).click();
  await expect(page.getByRole('button', { name: 'Brands' })).toHaveAttribute('aria-pressed', 'true');
  await expect(posts).toHaveCount(2);
  await page.getByRole('button', { name: 'All' }).click();
  await expect(posts).toHaveCount(6);
  await page.getByRole('link', { name: 'Pacta now works offline' }).click();
  await expect(page).toHaveURL(/\/blog\/working-offline-with-pacta$/);
  await expect(shell.heading).toHaveText('Pacta now works offline');
});

test('the Pro page shows Creator Pro to a visitor with the price and the yearly saving', async ({ page }) => {
  const shell = new ShellPage(page);
  for (const path of ['/pro', '/upgrade']) {
    await shell.goto(path);
    await expect(shell.heading).toHaveText('Creator Pro');
    await expect(shell.main).toContainText('$35/month or $315/year');
    // 12 × $35 = $420; $315 is 25% less. Nowhere keeps a pitch, so Pro does not promise to keep them.
    await expect(shell.main).toContainText('Save 25%');
    await expect(shell.main).not.toContainText('saved pitches');
  }
  await shell.goto('/pricing');
  await expect(shell.main).toContainText('Save 25%');
});

test.describe('contact form', () => {
  test('requires every field and explains what is wrong', async ({ page }) => {
    const shell = new ShellPage(page);
    await shell.goto('/contact');
    await expect(shell.main).toContainText('Saturday: 10:00 AM – 4:00 PM (Pacific Time)');
    await page.getByRole('button', { name: 'Send Message' }).click();
    await expect(page.getByText('Please enter your name.')).toBeVisible();
    await expect(page.getByText('Please enter your email address.')).toBeVisible();
    await expect(page.getByText('Please choose a subject.')).toBeVisible();
    await expect(page.getByText('Please enter a message.')).toBeVisible();
    await expect(page.getByLabel('Name')).toBeFocused();
    await page.getByLabel('Email').fill('not-an-email');
    await page.getByRole('button', { name: 'Send Message' }).click();
    await expect(page.getByText('Please enter a valid email address.')).toBeVisible();
    await expect(page.getByLabel('Subject')).toHaveAttribute('aria-invalid', 'true');
  });

  test.describe('when the server cannot take the message', () => {
    test.use({ allowedConsoleErrors: [/Failed to load resource/] });
    test('says so clearly and keeps what was typed', async ({ page }) => {
      // Only this test stubs /api/contact; the others run against the real server.
      await page.route('**/api/contact', (route) =>
        route.fulfill({ status: 404, json: { code: 'not_found', message: 'No route' } }),
      );
      const shell = new ShellPage(page);
      await shell.goto('/contact');
      await fillContactForm(page);
      await page.getByRole('button', { name: 'Send Message' }).click();
      await expect(page.getByRole('alert')).toHaveText(/Your message could not be sent right now/);
      await expect(page.getByLabel('Message')).toHaveValue('I would like to sponsor three creators.');
    });
  });

  test('shows Message Sent! when the server stores the message', async ({ page }) => {
    const shell = new ShellPage(page);
    await shell.goto('/contact');
    await fillContactForm(page);
    const stored = page.waitForResponse((r) => r.url().endsWith('/api/contact') && r.request().method() === 'POST');
    await page.getByRole('button', { name: 'Send Message' }).click();
    const response = await stored;
    expect(response.status()).toBe(201);
    expect(response.request().postDataJSON()).toEqual({
      name: 'Ada Brand',
      email: 'ada@example.com',
      subject: 'partnership',
      message: 'I would like to sponsor three creators.',
    });
    await expect(page.getByRole('heading', { name: 'Message Sent!' })).toBeVisible();
    await expect(shell.main).toContainText("Thank you for reaching out! We'll get back to you within 24 hours.");
  });
});

async function fillContactForm(page: import('@playwright/test').Page): Promise<void> {
  await page.getByLabel('Name').fill('Ada Brand');
  await page.getByLabel('Email').fill('ada@example.com');
  await page.getByLabel('Subject').selectOption('partnership');
  await page.getByLabel('Message').fill('I would like to sponsor three creators.');
}
