import { expect, type Locator, type Page } from '@playwright/test';
import { withE2eDatabase } from '../support/e2e-server-info.ts';

/** The local Stripe's hosted checkout page (what a payer fills in). */
export class HostedCheckoutPage {
  constructor(readonly page: Page) {}

  async pay(card: string) {
    await expect(this.page.getByText('Local Stripe — a stand-in')).toBeVisible();
    await this.page.getByLabel('Card number').fill(card);
    await this.page.getByLabel('Expiry (MM / YY)').fill('12 / 34');
    await this.page.getByLabel('CVC').fill('123');
    await this.page.getByRole('button', { name: /^(Start trial|Pay )/ }).click();
  }
}

/** The local Stripe's Connect onboarding page. */
export async function completePayoutOnboarding(page: Page, name: string) {
  await expect(page.getByRole('heading', { name: 'Set up payouts' })).toBeVisible();
  await page.getByLabel('Legal name').fill(name);
  await page.getByRole('button', { name: 'Agree and submit' }).click();
}

/** A deal's payment panel (deal page and Edit page). */
export class PaymentPanel {
  readonly root: Locator;
  readonly creatorPayout: Locator;

  constructor(readonly page: Page) {
    this.root = page.getByTestId('payment-panel');
    this.creatorPayout = this.root.getByTestId('creator-payout');
  }

  button(name: string | RegExp) {
    return this.root.getByRole('button', { name });
  }
}

/** Per-deal ledger sums, read as staff would (charge − refund − fee − commission − transfer = held). */
export async function ledgerOf(
  dealId: string,
): Promise<{ kinds: Record<string, number>; held: number; transfers: number }> {
  return withE2eDatabase(async (client) => {
    const { rows } = await client.query<{ kind: string; total: string; n: string }>(
      `select kind, sum(amount_cents)::text as total, count(*)::text as n from public.ledger_entries where deal_id = $1 group by kind`,
      [dealId],
    );
    const kinds = Object.fromEntries(rows.map((r) => [r.kind, Number(r.total)]));
    const sum = (k: string) => kinds[k] ?? 0;
    return {
      kinds,
      held: sum('charge') - sum('refund') - sum('fee') - sum('commission') - sum('transfer'),
      transfers: Number(rows.find((r) => r.kind === 'transfer')?.n ?? 0),
    };
  });
}

export async function disputeTickets(dealId: string): Promise<{ id: string; subject: string }[]> {
  return withE2eDatabase(
    async (client) =>
      (
        await client.query(`select id, subject from public.support_tickets where kind = 'dispute' and deal_id = $1`, [
          dealId,
        ])
      ).rows,
  );
}
