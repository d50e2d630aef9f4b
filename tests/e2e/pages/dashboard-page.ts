import { expect, type Locator, type Page } from '@playwright/test';
import { withE2eDatabase } from '../support/e2e-server-info.ts';

/** /dashboard */
export class DashboardPage {
  readonly welcome: Locator;
  readonly syncStatus: Locator;
  readonly syncLabel: Locator;

  constructor(readonly page: Page) {
    this.welcome = page.getByRole('heading', { level: 1 });
    this.syncStatus = page.locator('.sync-status');
    this.syncLabel = page.getByTestId('sync-status-label');
  }

  async goto() {
    await this.page.goto('/dashboard');
    await this.expectLoaded();
  }

  async expectLoaded(fullName?: string) {
    // A brand-new account is welcomed ('Welcome to Pacta, …'), a returning one welcomed back.
    await expect(this.welcome).toHaveText(
      fullName ? new RegExp(`^Welcome (back|to Pacta), ${fullName}$`) : /^Welcome (back|to Pacta), /,
      { timeout: 20_000 },
    );
  }

  section(name: string): Locator {
    return this.page.getByRole('region', { name });
  }

  /** Waits until the first sync of every collection is done and nothing waits to be pushed. */
  async expectSynced() {
    await expect(this.syncLabel).toHaveText('Synced', { timeout: 20_000 });
  }

  async openSyncDetails() {
    const button = this.syncStatus.getByRole('button').first();
    if ((await button.getAttribute('aria-expanded')) !== 'true') await button.click();
  }
}

/**
 * Marketplace rows a brand and a creator would have made through the deal and inbox screens, written
 * server-side (as the server may: the rules treat a connection without user claims as the server):
 * `deals` open deals by the brand (newest last), one application by the creator to the newest deal, and
 * a conversation with one message from the brand to the creator.
 */
export async function seedMarketplace(opts: { brandEmail: string; creatorEmail: string; deals: number }) {
  return withE2eDatabase(async (client) => {
    const ids = async (email: string) =>
      (await client.query<{ id: string }>('select id from auth.users where email = $1', [email])).rows[0]!.id;
    const brandId = await ids(opts.brandEmail);
    const creatorId = await ids(opts.creatorEmail);
    // One statement per deal: created_at is stamped by the server with the transaction time.
    const deals: { id: string; title: string }[] = [];
    for (let n = 1; n <= opts.deals; n++) {
      const { rows } = await client.query<{ id: string; title: string }>(
        `insert into public.deals (id, brand_id, title, description, amount_cents, niches)
         values (gen_random_uuid(), $1, $2, 'A sponsorship brief for the dashboard test.', $3, '{Travel}') returning id, title`,
        [brandId, `Deal number ${n}`, 10_000 + n],
      );
      deals.push(rows[0]!);
    }
    const newest = deals.find((d) => d.title === `Deal number ${opts.deals}`)!;
    await client.query(
      `insert into public.applications (id, deal_id, creator_id, pitch) values (gen_random_uuid(), $1, $2, 'I would love to.')`,
      [newest.id, creatorId],
    );
    const { rows } = await client.query<{ id: string }>(
      `insert into public.conversations (id, user1_id, user2_id, title) values (gen_random_uuid(), $1, $2, 'Hello') returning id`,
      [brandId, creatorId],
    );
    await client.query(
      `insert into public.messages (id, conversation_id, sender_id, recipient_id, body) values (gen_random_uuid(), $1, $2, $3, 'Thanks for applying!')`,
      [rows[0]!.id, brandId, creatorId],
    );
    return { brandId, creatorId, newestDeal: newest };
  });
}
