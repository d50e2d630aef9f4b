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

/**
 * A money or closing action's confirmation (an alert dialog): it must say what will move where
 * (`says`); then the action is confirmed in it and the dialog closes.
 */
export async function confirmInDialog(page: Page, action: string, says: (string | RegExp)[]) {
  const dialog = page.getByRole('alertdialog');
  await expect(dialog).toBeVisible();
  for (const text of says) await expect(dialog).toContainText(text);
  await dialog.getByRole('button', { name: action }).click();
  await expect(dialog).toHaveCount(0);
}

/** The brand's Mark as Completed on the deal page, confirmed. */
export async function markAsCompleted(page: Page) {
  await page
    .getByRole('region', { name: 'Complete the deal' })
    .getByRole('button', { name: 'Mark as Completed' })
    .click();
  await confirmInDialog(page, 'Mark as Completed', ['will be recorded as having done the work']);
}
