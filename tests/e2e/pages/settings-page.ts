import { expect, type Locator, type Page } from '@playwright/test';
import { withE2eDatabase } from '../support/e2e-server-info.ts';

/** /settings */
export class SettingsPage {
  readonly fullName: Locator;
  readonly email: Locator;
  readonly bio: Locator;
  readonly save: Locator;
  readonly currentPassword: Locator;
  readonly newPassword: Locator;
  readonly confirmPassword: Locator;
  readonly updatePassword: Locator;

  constructor(readonly page: Page) {
    this.fullName = page.getByLabel(/^(Full Name|Company Name)$/);
    this.email = page.getByLabel('Email', { exact: true });
    this.bio = page.getByLabel('Bio');
    this.save = page.getByRole('button', { name: 'Save changes' });
    this.currentPassword = page.getByLabel('Current password');
    this.newPassword = page.getByLabel('New password', { exact: true });
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

/**
 * A profile row as the server has it, read straight from the e2e server's database (to prove a change
 * made in the browser reached the server, not just the local database).
 */
export async function serverProfile(
  email: string,
): Promise<{ full_name: string; bio: string; niches: string[]; social_links: Record<string, string> } | null> {
  return withE2eDatabase(async (client) => {
    const { rows } = await client.query(
      `select p.full_name, p.bio, p.niches, p.social_links from public.profiles p join auth.users u on u.id = p.id where u.email = $1`,
      [email],
    );
    return rows[0] ?? null;
  });
}
