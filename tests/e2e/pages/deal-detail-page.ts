import { expect, type Locator, type Page } from '@playwright/test';

/** /deals/{id}: the creator's application, the brand's applicants. */
export class DealDetailPage {
  readonly heading: Locator;
  readonly applyButton: Locator;
  readonly myApplicationStatus: Locator;
  readonly applicants: Locator;
  readonly waitingToSync: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole('heading', { level: 1 });
    this.applyButton = page.getByRole('button', { name: 'Apply to this deal' });
    this.myApplicationStatus = page.getByTestId('my-application-status');
    this.applicants = page.getByRole('region', { name: 'Applicants' }).getByTestId('applicant');
    this.waitingToSync = page.locator('.deal-detail-meta').getByText('Waiting to sync');
  }

  async goto(id: string) {
    await this.page.goto(`/deals/${id}`);
    await expect(this.heading).toBeVisible();
  }
}
