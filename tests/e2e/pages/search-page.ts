import { expect, type Locator, type Page } from '@playwright/test';

/** The search on /deals: the box, its live count, the results (deal cards or creator cards). */
export class SearchPage {
  readonly box: Locator;
  readonly status: Locator;
  readonly results: Locator;

  constructor(
    readonly page: Page,
    kind: 'deals' | 'creators',
  ) {
    this.box = page.getByRole('searchbox', { name: kind === 'deals' ? 'Search deals' : 'Search creators' });
    this.status = page.locator('.search-summary [role="status"]');
    this.results =
      kind === 'deals'
        ? page.getByRole('region', { name: 'Search results' })
        : page.getByRole('list', { name: 'Creators found' });
  }

  /** Types the query a key at a time, as a person does. */
  async type(query: string) {
    await this.box.click();
    await this.box.pressSequentially(query);
  }

  dealCard(title: string): Locator {
    return this.results.getByRole('article').filter({ has: this.page.getByRole('link', { name: title }) });
  }

  creatorCard(name: string): Locator {
    return this.results.getByRole('listitem').filter({ has: this.page.getByRole('link', { name }) });
  }

  async expectMarked(card: Locator, text: string) {
    await expect(
      card
        .locator('mark')
        .filter({ hasText: new RegExp(`^${text}$`, 'i') })
        .first(),
    ).toBeVisible();
  }
}
