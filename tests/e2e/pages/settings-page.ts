import { expect, type Locator, type Page } from '@playwright/test';

/** /settings */
export class SettingsPage {
  readonly fullName: Locator;
  readonly email: Locator;
  readonly bio: Locator;
  readonly save: Locator;
  readonly newPassword: Locator;
  readonly confirmPassword: Locator;
  readonly updatePassword: Locator;

  constructor(readonly page: Page) {
    this.fullName = page.getByLabel('Full Name');
    this.email = page.getByLabel('Email', { exact: true });
    this.bio = page.getByLabel('Bio');
    this.save = page.getByRole('button', { name: 'Save changes' });
    this.newPassword = page.getByLabel('New password');
    this.confirmPassword = page.getByLabel('Confirm new password');
    this.updatePassword = page.getByRole('button', { name: 'Update password' });
  }

  async goto(section?: string) {
    await this.page.goto(section ? `/settings?section=${section}` : '/settings');
    await expect(this.page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
  }

  niche(name: string): Locator {
    return this.page.getByRole('button', { name, exact: true });
  }

  toast(text: string): Locator {
    return this.page.getByText(text, { exact: true });
  }
}
