import { expect, type Locator, type Page } from '@playwright/test';

/** /campaign/new: the brief wizard, its drafts and the assistant. */
export class CampaignBriefPage {
  readonly drafts: Locator;
  readonly next: Locator;
  readonly previous: Locator;
  readonly create: Locator;

  constructor(readonly page: Page) {
    this.drafts = page.getByRole('region', { name: 'Your drafts' }).getByTestId('brief-draft');
    this.next = page.getByRole('button', { name: 'Next', exact: true });
    this.previous = page.getByRole('button', { name: 'Previous', exact: true });
    this.create = page.getByRole('button', { name: /^Create Campaign|^Creating Campaign/ });
  }

  async goto() {
    await this.page.goto('/campaign/new');
    await expect(this.page.getByRole('heading', { level: 1, name: 'Create a Campaign Brief' })).toBeVisible();
  }

  draft(title: string): Locator {
    return this.drafts.filter({ hasText: title });
  }

  /** A field by its label (the label may add " (optional)"). */
  field(label: string): Locator {
    return this.page.getByLabel(label);
  }

  chip(name: string): Locator {
    return this.page.getByRole('button', { name, exact: true });
  }

  async expectStep(n: number, name: string) {
    await expect(this.page.getByRole('heading', { level: 2, name: `Step ${n} of 4: ${name}` })).toBeVisible();
  }

  /** Starts a new brief whether or not the page first offers to continue a draft. */
  async startNew() {
    const startNew = this.page.getByRole('button', { name: 'Start a new brief' });
    const title = this.field('Campaign title');
    await expect(startNew.or(title)).toBeVisible();
    if (await startNew.isVisible()) await startNew.click();
    await expect(title).toBeVisible();
  }

  /** Waits until the debounced autosave has written the draft (it shows in the list as the open draft). */
  async expectSaved(title: string, step: number) {
    await expect(this.draft(title)).toContainText(`Step ${step} of 4`);
  }
}
