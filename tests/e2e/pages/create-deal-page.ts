import { expect, type Locator, type Page } from '@playwright/test';

export type NewDeal = {
  title: string;
  description: string;
  amount: string;
  niches: string[];
  requirements?: string;
  category?: string;
};

/** /deals/new: the create-deal form. */
export class CreateDealPage {
  readonly submit: Locator;
  readonly error: Locator;

  constructor(readonly page: Page) {
    this.submit = page.getByRole('button', { name: 'Create Deal' });
    this.error = page.locator('main').getByRole('alert');
  }

  async goto() {
    await this.page.goto('/deals/new');
    await expect(this.page.getByRole('heading', { level: 1, name: 'Create a deal' })).toBeVisible();
  }

  async fill(deal: NewDeal) {
    const form = this.page.locator('main form');
    await form.getByLabel('Title').fill(deal.title);
    await form.getByLabel('Description').fill(deal.description);
    await form.getByLabel('Amount ($)').fill(deal.amount);
    const niches = form.getByRole('group', { name: 'Niches' });
    for (const niche of deal.niches) await niches.getByRole('button', { name: niche, exact: true }).click();
    if (deal.requirements) await form.getByLabel('Requirements').fill(deal.requirements);
    if (deal.category) await form.getByLabel('Category').selectOption(deal.category);
  }
}
