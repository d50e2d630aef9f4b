import { expect, type Locator, type Page } from '@playwright/test';

/** The app shell around every page: navigation bar, main content, footer, theme picker. */
export class ShellPage {
  readonly nav: Locator;
  readonly main: Locator;
  readonly footer: Locator;
  readonly heading: Locator;
  readonly themeSelect: Locator;
  readonly menuButton: Locator;

  constructor(readonly page: Page) {
    this.nav = page.getByRole('navigation', { name: 'Main' });
    this.main = page.locator('main#main');
    this.footer = page.getByRole('contentinfo');
    this.heading = this.main.getByRole('heading', { level: 1 });
    this.themeSelect = this.footer.getByLabel('Theme');
    this.menuButton = page.getByRole('button', { name: /open menu|close menu/i });
  }

  async goto(path: string): Promise<void> {
    await this.page.goto(path);
    await expect(this.heading).toBeVisible();
  }

  footerColumn(name: 'Company' | 'Support' | 'Legal'): Locator {
    return this.footer.getByRole('navigation', { name });
  }

  async footerLinks(name: 'Company' | 'Support' | 'Legal'): Promise<{ text: string; href: string | null }[]> {
    const links = this.footerColumn(name).getByRole('link');
    return links.evaluateAll((els) =>
      els.map((a) => ({ text: a.textContent?.trim() ?? '', href: a.getAttribute('href') })),
    );
  }

  async navLinkTexts(): Promise<string[]> {
    return this.nav.locator('.nav-links a').allTextContents();
  }

  /** Waits until the service worker is active (the app shell is precached). */
  async waitForServiceWorker(): Promise<void> {
    await this.page.evaluate(async () => {
      const registration = await navigator.serviceWorker.ready;
      return registration.active?.state;
    });
  }
}
