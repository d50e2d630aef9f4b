import { expect, type Locator, type Page } from '@playwright/test';
import { SignInPage } from './auth-pages.ts';
import { withE2eDatabase } from '../support/e2e-server-info.ts';

/** /deals as a creator sees it: filters, Recommended for You, all deal cards. */
export class DealsPage {
  readonly heading: Locator;
  readonly recommended: Locator;
  readonly allDeals: Locator;
  readonly clearFilters: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole('heading', { level: 1, name: 'Deals' });
    this.recommended = page.getByRole('region', { name: 'Recommended for You' });
    this.allDeals = page.getByRole('region', { name: /All deals/ });
    this.clearFilters = page.getByRole('button', { name: 'Clear Filters' });
  }

  async goto() {
    await this.page.goto('/deals');
    await expect(this.heading).toBeVisible();
  }

  card(title: string): Locator {
    return this.allDeals
      .getByRole('article')
      .filter({ has: this.page.getByRole('link', { name: title, exact: true }) });
  }
}

/** Signs in through the real sign-in screen and waits until the app has left it. */
export async function signIn(page: Page, account: { email: string; password: string }): Promise<void> {
  const signInPage = new SignInPage(page);
  await signInPage.goto();
  await signInPage.signIn(account.email, account.password);
  await expect(page).not.toHaveURL(/\/auth\/signin/);
}

/** Waits until the navigation's sync indicator says everything is synced. */
export async function waitForSynced(page: Page): Promise<void> {
  await expect(page.getByRole('banner').getByText('Synced', { exact: true })).toBeVisible({ timeout: 20_000 });
}

export async function userId(email: string): Promise<string> {
  return withE2eDatabase(async (client) => {
    const { rows } = await client.query<{ id: string }>('select id from auth.users where email = $1', [email]);
    if (!rows[0]) throw new Error(`no user ${email}`);
    return rows[0].id;
  });
}

export type SeededDeal = { id: string; title: string };

/**
 * Publishes open deals for a brand straight in the server's database (as the server, so the rules'
 * server path applies), for journeys whose subject is not creating deals.
 */
export async function seedDeals(
  brandEmail: string,
  titles: readonly string[],
  opts: { amountCents?: number; niches?: string[]; proOnly?: boolean } = {},
): Promise<SeededDeal[]> {
  const brandId = await userId(brandEmail);
  return withE2eDatabase(async (client) => {
    const { rows } = await client.query<SeededDeal>(
      `insert into public.deals (id, brand_id, title, description, amount_cents, niches, deliverables, category, pro_only)
       select gen_random_uuid(), $1, t, 'Show the product in real use, in your own voice.', $3, $4, '{Instagram Post}', 'Sponsored Post', $5
       from unnest($2::text[]) as t
       returning id, title`,
      [brandId, titles, opts.amountCents ?? 25_000, opts.niches ?? ['Fitness'], opts.proOnly ?? false],
    );
    return rows;
  });
}

/** The brand turns a deal Pro-only (as the server). */
export async function makeDealProOnly(dealId: string): Promise<void> {
  await withE2eDatabase((client) => client.query('update public.deals set pro_only = true where id = $1', [dealId]));
}

/** Another creator's application, accepted by the brand (as the server), so the deal can be completed. */
export async function seedAcceptedApplication(dealId: string, creatorEmail: string): Promise<void> {
  const creatorId = await userId(creatorEmail);
  await withE2eDatabase(async (client) => {
    await client.query(`insert into public.applications (id, deal_id, creator_id) values (gen_random_uuid(), $1, $2)`, [
      dealId,
      creatorId,
    ]);
    await client.query(`update public.applications set status = 'accepted' where deal_id = $1 and creator_id = $2`, [
      dealId,
      creatorId,
    ]);
  });
}
