import AxeBuilder from '@axe-core/playwright';
import { expect, type Locator, type Page } from '@playwright/test';

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
    await expect(this.welcome).toHaveText(fullName ? `Welcome back, ${fullName}` : /^Welcome back, /, { timeout: 20_000 });
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

/** Serious or critical axe violations on the current page (empty when accessible). */
export async function blockingAxeViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}
