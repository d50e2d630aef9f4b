import { expect, type Locator, type Page } from '@playwright/test';

/** /auth/signin */
export class SignInPage {
  readonly email: Locator;
  readonly password: Locator;
  readonly rememberMe: Locator;
  readonly submit: Locator;
  readonly error: Locator;

  constructor(readonly page: Page) {
    this.email = page.getByLabel('Email', { exact: true });
    this.password = page.getByLabel('Password', { exact: true });
    this.rememberMe = page.getByLabel('Remember me');
    this.submit = page.getByRole('button', { name: 'Sign in', exact: true });
    this.error = page.locator('main').getByRole('alert');
  }

  async goto() {
    await this.page.goto('/auth/signin');
    await expect(this.page.getByRole('heading', { name: 'Sign In' })).toBeVisible();
  }

  async signIn(email: string, password: string, opts: { rememberMe?: boolean } = {}) {
    await this.email.fill(email);
    await this.password.fill(password);
    if (opts.rememberMe === false) await this.rememberMe.uncheck();
    await this.submit.click();
  }

  /** Signs in and waits for the dashboard. */
  async signInToDashboard(email: string, password: string) {
    await this.goto();
    await this.signIn(email, password);
    await expect(this.page).toHaveURL(/\/dashboard$/);
  }
}

export type SignUpDetails = {
  fullName: string;
  email: string;
  password: string;
  confirmPassword?: string;
  role: 'creator' | 'brand';
  links?: Partial<Record<'LinkedIn' | 'Instagram' | 'TikTok' | 'YouTube' | 'Twitter', string>>;
  /** Ticks the Terms box unless false. */
  acceptTerms?: boolean;
};

/** /auth/signup */
export class SignUpPage {
  readonly submit: Locator;
  readonly error: Locator;

  constructor(readonly page: Page) {
    this.submit = page.getByRole('button', { name: 'Create Account' });
    this.error = page.locator('main').getByRole('alert');
  }

  async goto(query = '') {
    await this.page.goto(`/auth/signup${query}`);
    await expect(this.page.getByRole('heading', { name: 'Join Pacta' })).toBeVisible();
  }

  async fill(details: SignUpDetails) {
    const { page } = this;
    // The role first: a brand is asked for its company's name, a creator for their full name.
    await page.getByLabel(details.role === 'creator' ? 'Content creator' : 'Business owner').check();
    await page.getByLabel(details.role === 'creator' ? 'Full Name' : 'Company Name').fill(details.fullName);
    await page.getByLabel('Email Address').fill(details.email);
    // Sign-up marks its required fields with a `*` after the label.
    await page.getByLabel(/^Password( \*)?$/).fill(details.password);
    await page.getByLabel(/^Confirm Password( \*)?$/).fill(details.confirmPassword ?? details.password);
    for (const name of ['LinkedIn', 'Instagram', 'TikTok', 'YouTube', 'Twitter'] as const) {
      await page.getByLabel(new RegExp(`^${name}`)).fill(details.links?.[name] ?? '');
    }
    await page.getByRole('checkbox', { name: /I accept the Terms of Service/ }).setChecked(details.acceptTerms ?? true);
  }

  async expectError(details: SignUpDetails, message: string) {
    await this.fill(details);
    await this.submit.click();
    await expect(this.error).toHaveText(message);
  }
}

/** /forgot-password and /reset-password */
export class PasswordResetPages {
  constructor(readonly page: Page) {}

  async requestReset(email: string) {
    await this.page.goto('/forgot-password');
    await this.page.getByLabel('Email Address').fill(email);
    await this.page.getByRole('button', { name: 'Send Reset Instructions' }).click();
    await expect(this.page.getByText('Password reset instructions have been sent to your email')).toBeVisible();
  }

  async setNewPassword(password: string, confirm = password) {
    await this.page.getByLabel('New Password', { exact: true }).fill(password);
    await this.page.getByLabel('Confirm New Password', { exact: true }).fill(confirm);
    await this.page.getByRole('button', { name: 'Update Password' }).click();
  }
}
