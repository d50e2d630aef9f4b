import { expect, type Locator, type Page } from '@playwright/test';
import { withE2eDatabase } from '../support/e2e-server-info.ts';

/** /inbox and /inbox/{id}: the conversation list, the open conversation and its composer. */
export class InboxPage {
  readonly list: Locator;
  readonly messages: Locator;
  readonly input: Locator;
  readonly send: Locator;

  constructor(readonly page: Page) {
    this.list = page.getByRole('list', { name: 'Conversations' });
    this.messages = page.locator('.message-log > li');
    this.input = page.getByPlaceholder('Type a message...');
    this.send = page.getByRole('button', { name: 'Send', exact: true });
  }

  async goto(id?: string) {
    await this.page.goto(id ? `/inbox/${id}` : '/inbox');
    await expect(this.page.getByText('Loading inbox...')).toHaveCount(0);
  }

  conversation(name: string): Locator {
    return this.list.getByRole('link').filter({ hasText: name });
  }

  /** Types and sends with Enter (the composer's keyboard path). */
  async write(body: string) {
    await this.input.fill(body);
    await this.input.press('Enter');
    await expect(this.input).toHaveValue('');
  }

  async bodies(): Promise<string[]> {
    return this.page.locator('.message-log .message-body').allInnerTexts();
  }

  pending(): Locator {
    return this.page.locator('.message-log > li.is-pending');
  }
}

/** The nav's bell and its dropdown. */
export class NotificationBell {
  readonly button: Locator;
  readonly count: Locator;
  readonly dropdown: Locator;

  constructor(readonly page: Page) {
    this.button = page.getByRole('banner').getByRole('button', { name: /^Notifications/ });
    this.count = page.getByRole('banner').getByTestId('bell-count');
    this.dropdown = page.getByRole('region', { name: 'Notifications' });
  }

  async open() {
    if (!(await this.dropdown.isVisible())) await this.button.click();
    await expect(this.dropdown).toBeVisible();
  }
}

/** A creator's pending application to a deal, written as the server (the brand is notified as usual). */
export async function seedApplication(dealId: string, creatorEmail: string): Promise<void> {
  await withE2eDatabase((client) =>
    client.query(
      `insert into public.applications (id, deal_id, creator_id, pitch)
       select gen_random_uuid(), $1, u.id, 'I would love to' from auth.users u where u.email = $2`,
      [dealId, creatorEmail],
    ),
  );
}
