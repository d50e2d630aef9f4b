import type { Page } from '@playwright/test';
import { TERMS_VERSION } from '../../src/domain/terms.ts';
import { AUTH_STORAGE_KEY } from '../../src/lib/supabase-events.ts';
import { createConfirmedAccount, createUnconfirmedAccount, latestEmail, uniqueEmail } from './pages/auth-mailbox.ts';
import { PasswordResetPages, SignInPage, SignUpPage, type SignUpDetails } from './pages/auth-pages.ts';
import { DashboardPage } from './pages/dashboard-page.ts';
import { serverProfile, SettingsPage } from './pages/settings-page.ts';
import { expect, test } from './support/console-errors.ts';
import { withE2eDatabase } from './support/e2e-server-info.ts';
import { blockingAxeViolations } from './support/axe.ts';

// Accounts and sessions against the built app and the real server, which
// runs with e-mail confirmation on: every confirmation and reset link is read from the dev mailbox.

// Refused sign-ins and the routed failures below make Chromium log the failed responses; those are the point.
test.use({
  allowedConsoleErrors: [/Failed to load resource: the server responded with a status of (400|401|403|422|500)/],
});

test('the auth screens have no serious accessibility problems', async ({ page }) => {
  for (const [path, heading] of [
    ['/auth/signin', 'Sign In'],
    ['/auth/signup?ref=ABC123', 'Join Pacta'],
    ['/forgot-password', 'Forgot Password'],
    ['/reset-password', 'Reset Password'],
  ] as const) {
    await page.goto(path);
    await expect(page.getByRole('heading', { name: heading })).toBeVisible();
    expect(await blockingAxeViolations(page), page.url()).toEqual([]);
  }
  await page.goto('/auth/callback#error=access_denied&error_description=Email+link+is+invalid+or+has+expired');
  await expect(page.getByRole('link', { name: 'Return to Sign In' })).toBeVisible();
  expect(await blockingAxeViolations(page), page.url()).toEqual([]);
});

test.describe('sign-up', () => {
  test('a creator signs up, confirms from the e-mail and lands on /swipe', async ({ page, request }) => {
    const signUp = new SignUpPage(page);
    const email = uniqueEmail('creator');
    await signUp.goto();
    await signUp.fill({
      fullName: 'Cora Creator',
      email,
      password: 'creator-pass-1',
      role: 'creator',
      links: { Instagram: 'https://instagram.com/cora' },
    });
    await signUp.submit.click();
    await expect(page.locator('main').getByRole('status')).toHaveText(
      'Account created! Please check your email to confirm your account, then sign in.',
    );

    const mail = await latestEmail(request, email, 'signup');
    expect(mail.action_link).toContain(encodeURIComponent('/auth/callback'));
    await page.goto(mail.action_link);
    await expect(page).toHaveURL(/\/swipe$/);
  });

  test('a brand signs up, confirms from the e-mail and lands on /dashboard', async ({ page, request }) => {
    const signUp = new SignUpPage(page);
    const email = uniqueEmail('brand');
    await signUp.goto();
    // A brand is asked for its company's name (the name its deals carry), a creator for their own.
    await expect(page.getByRole('textbox', { name: 'Full Name' })).toBeVisible();
    await page.getByLabel('Business owner').check();
    await expect(page.getByRole('textbox', { name: 'Full Name' })).toHaveCount(0);
    await expect(page.getByRole('textbox', { name: 'Company Name' })).toHaveAttribute('autocomplete', 'organization');
    await signUp.fill({
      fullName: 'Bram Brand',
      email,
      password: 'brand-pass-12',
      role: 'brand',
      links: { LinkedIn: 'https://linkedin.com/company/bram' },
    });
    await signUp.submit.click();
    await expect(page.locator('main').getByRole('status')).toContainText('check your email');

    const mail = await latestEmail(request, email, 'signup');
    await page.goto(mail.action_link);
    await expect(page).toHaveURL(/\/dashboard$/);
    // The Terms ticked on the form are recorded by the server: which version, at the server's time.
    const accepted = await withE2eDatabase((client) =>
      client.query(
        `select t.terms_version from pacta_private.terms_acceptances t join auth.users u on u.id = t.user_id
          where u.email = $1 and t.accepted_at > now() - interval '10 minutes'`,
        [email],
      ),
    );
    expect(accepted.rows).toEqual([{ terms_version: TERMS_VERSION }]);
  });

  test('every sign-up validation message', async ({ page }) => {
    const signUp = new SignUpPage(page);
    await signUp.goto();
    const valid: SignUpDetails = {
      fullName: 'Val Idation',
      email: uniqueEmail('validation'),
      password: 'long-enough-1',
      role: 'creator',
      links: { TikTok: 'https://tiktok.com/@val' },
    };
    // Every required field says so before anything is typed.
    for (const label of ['Full Name', 'Email Address']) {
      await expect(page.getByRole('textbox', { name: label })).toHaveAttribute('required', '');
      await expect(page.locator('label', { hasText: label }).locator('.required')).toHaveText('*');
    }
    await signUp.expectError({ ...valid, fullName: '   ' }, 'Please fill in all fields');
    await signUp.expectError(
      { ...valid, acceptTerms: false },
      'Please accept the Terms of Service and the Privacy Policy to create an account.',
    );
    await signUp.expectError(
      { ...valid, password: 'short1', confirmPassword: 'short1' },
      'Password must be at least 8 characters long',
    );
    await signUp.expectError({ ...valid, confirmPassword: 'long-enough-2' }, 'Passwords do not match');
    await signUp.expectError(
      { ...valid, role: 'brand', links: { Instagram: 'https://instagram.com/val' } },
      'LinkedIn is required for brand accounts',
    );
    await signUp.expectError(
      { ...valid, role: 'creator', links: {} },
      'At least one social link is required for creators',
    ); // The server's refusal of a common password, in the form's words.
    await signUp.expectError(
      { ...valid, password: 'iloveyou', confirmPassword: 'iloveyou' },
      'This password is too common and easy to guess. Please choose a different one.',
    );
  });

  test('a referral link shows the invitation badge', async ({ page }) => {
    const signUp = new SignUpPage(page);
    await signUp.goto('?ref=ABC123');
    await expect(page.getByText('You were invited to join')).toBeVisible();
    await page.goto('/signup');
    await expect(page.getByRole('heading', { name: 'Join Pacta' })).toBeVisible();
    await expect(page.getByText('You were invited to join')).toHaveCount(0);
  });
});

test.describe('sign-in and sign-out', () => {
  test('sign in, a signed-in visitor of /signin goes to /dashboard, sign out goes to /auth/signin', async ({
    page,
    request,
  }) => {
    const account = await createConfirmedAccount(request, { role: 'brand' });
    const signIn = new SignInPage(page);
    await signIn.goto();
    // Hold the password grant so the busy label can be seen.
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/auth/v1/token?grant_type=password', async (route) => {
      await held;
      await route.continue();
    });
    await signIn.signIn(account.email, account.password);
    await expect(page.getByRole('button', { name: 'Signing in...' })).toBeDisabled();
    release();
    await expect(page).toHaveURL(/\/dashboard$/);
    await page.unroute('**/auth/v1/token?grant_type=password');

    await page.goto('/signin');
    await expect(page).toHaveURL(/\/dashboard$/);
    await page.goto('/auth/signup');
    await expect(page).toHaveURL(/\/dashboard$/);

    await page.getByRole('button', { name: 'Sign Out' }).first().click();
    await expect(page).toHaveURL(/\/auth\/signin$/);
    await page.goto('/dashboard');
    await expect(page).toHaveURL(/\/auth\/signin$/);
  });

  test('wrong password reads the credentials message', async ({ page, request }) => {
    const account = await createConfirmedAccount(request, { role: 'creator' });
    const signIn = new SignInPage(page);
    await signIn.goto();
    await signIn.signIn(account.email, 'not-the-password');
    await expect(signIn.error).toHaveText('Sign in failed. Please check your credentials and try again.');
  });

  test('an unconfirmed e-mail asks for verification and resends the e-mail', async ({ page, request }) => {
    const account = await createUnconfirmedAccount(request);
    const signIn = new SignInPage(page);
    await signIn.goto();
    await signIn.signIn(account.email, account.password);
    await expect(signIn.error).toHaveText('Please verify your email before signing in');
    await page.getByRole('button', { name: 'Resend verification email' }).click();
    await expect(page.getByText('Verification email sent. Please check your inbox.')).toBeVisible();
  });

  test('without Remember me the session is kept in sessionStorage only', async ({ page, request }) => {
    const account = await createConfirmedAccount(request, { role: 'creator' });
    const signIn = new SignInPage(page);
    await signIn.goto();
    await signIn.signIn(account.email, account.password, { rememberMe: false });
    await expect(page).toHaveURL(/\/dashboard$/);
    const stored = await page.evaluate(
      (key) => ({ local: localStorage.getItem(key), session: sessionStorage.getItem(key) }),
      AUTH_STORAGE_KEY,
    );
    expect(stored.local).toBeNull();
    expect(stored.session).toContain('access_token');
  });
});

test.describe('password reset', () => {
  test('forgot → e-mail → reset (with its validation) → sign in with the new password', async ({ page, request }) => {
    const account = await createConfirmedAccount(request, { role: 'brand' });
    const reset = new PasswordResetPages(page);
    await reset.requestReset(account.email);
    await expect(page.getByRole('link', { name: 'Back to Sign In' })).toHaveAttribute('href', '/signin');

    const mail = await latestEmail(request, account.email, 'recovery');
    expect(decodeURIComponent(mail.action_link)).toContain('/auth/callback?type=recovery');
    // The e-mail offers the link only: no screen takes a typed code.
    expect(mail.text).toContain(mail.action_link);
    expect(mail.text).not.toMatch(/enter this code/i);
    expect(mail.html).not.toMatch(/enter this code/i);
    await page.goto(mail.action_link);
    await expect(page).toHaveURL(/\/reset-password$/);

    await reset.setNewPassword('short');
    await expect(page.locator('main').getByRole('alert')).toHaveText('Password must be at least 8 characters long');
    await reset.setNewPassword('brand-new-password', 'brand-new-passwort');
    await expect(page.locator('main').getByRole('alert')).toHaveText('Passwords do not match');
    await reset.setNewPassword('password123');
    await expect(page.locator('main').getByRole('alert')).toHaveText(
      'This password is too common and easy to guess. Please choose a different one.',
    );
    await reset.setNewPassword('brand-new-password');
    await expect(page.getByText('Password updated successfully')).toBeVisible();
    await expect(page).toHaveURL(/\/signin$/, { timeout: 5_000 });
    // The sign-in page says why the user is there.
    await expect(
      page.locator('main').getByText('Your password was changed. Sign in with your new password.'),
    ).toBeVisible();

    const signIn = new SignInPage(page);
    await signIn.signIn(account.email, account.password);
    await expect(signIn.error).toHaveText('Sign in failed. Please check your credentials and try again.');
    await signIn.password.fill('brand-new-password');
    await signIn.submit.click();
    await expect(page).toHaveURL(/\/dashboard$/);
  });

  test('a used or broken link shows the error with Return to Sign In', async ({ page }) => {
    await page.goto(
      '/auth/callback#error=access_denied&error_code=otp_expired&error_description=Email+link+is+invalid+or+has+expired',
    );
    await expect(page.getByRole('alert')).toHaveText('Email link is invalid or has expired');
    await page.getByRole('link', { name: 'Return to Sign In' }).click();
    await expect(page).toHaveURL(/\/auth\/signin$/);
  });
});

/** Signs a fresh brand in and returns on the dashboard. */
async function signedInBrand(page: Page, request: Parameters<typeof createConfirmedAccount>[0]) {
  const account = await createConfirmedAccount(request, { role: 'brand' });
  await new SignInPage(page).signInToDashboard(account.email, account.password);
  return account;
}

test.describe('session', () => {
  test('a session check that hangs shows the 8-second overlay; Try Again recovers', async ({ page, request }) => {
    await signedInBrand(page, request);
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/auth/v1/user', async (route) => {
      await held;
      await route.continue().catch(() => {});
    });
    await page.reload();
    const overlay = page.getByRole('alertdialog', { name: 'Taking longer than expected...' });
    await expect(overlay).toBeVisible({ timeout: 12_000 });
    await expect(overlay.getByRole('button', { name: 'Try Again', exact: true })).toBeVisible();
    await expect(overlay.getByRole('button', { name: 'Refresh Session' })).toBeVisible();
    await expect(overlay.getByRole('button', { name: 'Sign out and try again' })).toBeVisible();
    // (No axe run here: a hung check falls back to the cached session after 15 s, and the overlay is the
    // same dialog component the session-error test checks with axe.)

    // Try Again starts a new attempt (the overlay goes away); then the connection comes back.
    await overlay.getByRole('button', { name: 'Try Again', exact: true }).click();
    await expect(overlay).toBeHidden();
    release();
    await page.unroute('**/auth/v1/user');
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByRole('alertdialog')).toHaveCount(0);
  });

  test("the overlay's Sign out and try again ends the session", async ({ page, request }) => {
    await signedInBrand(page, request);
    await page.route('**/auth/v1/user', () => {
      // Never answered: the session check hangs.
    });
    await page.reload();
    const overlay = page.getByRole('alertdialog', { name: 'Taking longer than expected...' });
    await expect(overlay).toBeVisible({ timeout: 12_000 });
    await overlay.getByRole('button', { name: 'Sign out and try again' }).click();
    await expect(page).toHaveURL(/\/auth\/signin$/);
  });

  test('the session-error dialog counts retries to 2, then reads Max Retries Reached', async ({ page, request }) => {
    await signedInBrand(page, request);
    await page.route('**/auth/v1/user', (route) =>
      route.fulfill({
        status: 500,
        contentType: 'application/json',
        body: JSON.stringify({ code: 'unexpected_failure', message: 'boom' }),
      }),
    );
    await page.reload();
    const dialog = page.getByRole('alertdialog', { name: 'Session problem' });
    await expect(dialog).toBeVisible();
    await expect(dialog).toContainText('Server error. Please try again later.');
    await expect(dialog).toContainText('Retry attempt: 0/2');
    // Focus starts on an action (Try Again is disabled while the first check runs) and stays inside the
    // dialog: Tab from the last action wraps to the first, Shift+Tab back. Escape does not dismiss it.
    await expect(dialog.locator(':focus')).toHaveCount(1);
    await expect(dialog.getByRole('button', { name: 'Try Again', exact: true })).toBeEnabled();
    await dialog.getByRole('button', { name: 'Sign Out' }).focus();
    await page.keyboard.press('Tab');
    await expect(dialog.getByRole('button', { name: 'Try Again', exact: true })).toBeFocused();
    await page.keyboard.press('Shift+Tab');
    await expect(dialog.getByRole('button', { name: 'Sign Out' })).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(dialog).toBeVisible();
    await dialog.getByRole('button', { name: 'Try Again', exact: true }).click();
    await expect(dialog).toContainText('Retry attempt: 1/2');
    await dialog.getByRole('button', { name: 'Try Again', exact: true }).click();
    await expect(dialog).toContainText('Retry attempt: 2/2');
    await expect(dialog.getByRole('button', { name: 'Max Retries Reached' })).toBeDisabled();
    expect(await blockingAxeViolations(page), page.url()).toEqual([]);

    await dialog.getByRole('button', { name: 'Sign Out' }).click();
    await expect(page).toHaveURL(/\/auth\/signin$/);
  });

  test('a 401 refreshes the session and retries; the user stays signed in', async ({ page, request }) => {
    await signedInBrand(page, request);
    let refreshed = false;
    page.on('request', (req) => {
      if (req.url().includes('/auth/v1/token?grant_type=refresh_token')) refreshed = true;
    });
    let first = true;
    await page.route('**/auth/v1/user', async (route) => {
      if (first) {
        first = false;
        await route.fulfill({
          status: 401,
          contentType: 'application/json',
          body: JSON.stringify({ code: 'bad_jwt', message: 'invalid JWT' }),
        });
      } else await route.continue();
    });
    await page.reload();
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect.poll(() => refreshed).toBe(true);
    await expect(page.getByRole('alertdialog')).toHaveCount(0);
  });

  test('a 401 whose refresh is refused signs out with "Session expired. Please sign in again."', async ({
    page,
    request,
  }) => {
    await signedInBrand(page, request);
    await page.route('**/auth/v1/user', (route) =>
      route.fulfill({
        status: 401,
        contentType: 'application/json',
        body: JSON.stringify({ code: 'bad_jwt', message: 'invalid JWT' }),
      }),
    );
    await page.route('**/auth/v1/token?grant_type=refresh_token', (route) =>
      route.fulfill({
        status: 400,
        contentType: 'application/json',
        headers: { 'x-supabase-api-version': '2024-01-01' },
        body: JSON.stringify({
          code: 'refresh_token_not_found',
          message: 'Invalid Refresh Token: Refresh Token Not Found',
        }),
      }),
    );
    await page.reload();
    await expect(page).toHaveURL(/\/auth\/signin$/);
    await expect(page.locator('main').getByRole('alert')).toHaveText('Session expired. Please sign in again.');
    expect(await page.evaluate((key) => localStorage.getItem(key), AUTH_STORAGE_KEY)).toBeNull();
  });

  test('offline is not an error: a signed-in user reopening the app offline stays signed in', async ({
    page,
    request,
    context,
  }) => {
    await signedInBrand(page, request);
    // The service worker must have the app shell before the connection goes.
    await page.evaluate(() => navigator.serviceWorker?.ready.then(() => true));
    await context.setOffline(true);
    await page.reload().catch(() => {});
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByRole('alertdialog')).toHaveCount(0);
    await context.setOffline(false);
  });
});

async function serverUserId(email: string): Promise<string> {
  return withE2eDatabase(async (client) => {
    const { rows } = await client.query<{ id: string }>('select id from auth.users where email = $1', [email]);
    return rows[0]!.id;
  });
}

/** Rows kept in IndexedDB for this user's local database (RxDB's Dexie storage empties its stores on removal). */
function localRowCount(page: Page, userId: string): Promise<number> {
  return page.evaluate(async (id) => {
    const names = (await indexedDB.databases()).map((d) => d.name ?? '').filter((name) => name.includes(id));
    let rows = 0;
    for (const name of names) {
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const open = indexedDB.open(name);
        open.onsuccess = () => resolve(open.result);
        open.onerror = () => reject(open.error);
      });
      for (const store of Array.from(db.objectStoreNames)) {
        rows += await new Promise<number>((resolve, reject) => {
          const count = db.transaction(store).objectStore(store).count();
          count.onsuccess = () => resolve(count.result);
          count.onerror = () => reject(count.error);
        });
      }
      db.close();
    }
    return rows;
  }, userId);
}

test.describe('sign-out never drops unsynced changes silently', () => {
  // Switching the network back logs ERR_NETWORK_CHANGED for requests cut mid-way.
  // (One pattern: Playwright reads a two-element array option as [value, fixture options].)
  test.use({
    allowedConsoleErrors: [
      /net::ERR_NETWORK_CHANGED|Failed to load resource: the server responded with a status of (400|401|403|500)/,
    ],
  });

  test('an offline change makes Sign Out warn with the count; waiting for sync pushes it, then signs out', async ({
    page,
    context,
    request,
  }) => {
    test.setTimeout(120_000);
    const account = await createConfirmedAccount(request, { role: 'creator', fullName: 'Sid Signout' });
    await new SignInPage(page).signInToDashboard(account.email, account.password);
    await new DashboardPage(page).expectSynced();
    const userId = await serverUserId(account.email);
    expect(await localRowCount(page, userId)).toBeGreaterThan(0);
    const settings = new SettingsPage(page);
    await settings.goto();
    await expect(settings.fullName).toHaveValue('Sid Signout');

    await context.setOffline(true);
    const bio = 'Typed offline, must survive sign-out.';
    const prompt = page.getByRole('alertdialog', { name: 'Unsynced changes' });
    let releasePush: () => void = () => {};
    const pushHeld = new Promise<void>((resolve) => (releasePush = resolve));
    try {
      await settings.bio.fill(bio);
      await settings.save.click();
      await expect(settings.toast('Settings updated successfully')).toBeVisible();

      await page.getByRole('button', { name: 'Sign Out' }).first().click();
      await expect(prompt).toContainText('You have 1 change that has not synced yet.');
      // Offline, waiting cannot finish: the prompt says so and the user stays signed in.
      await prompt.getByRole('button', { name: 'Wait for sync, then sign out' }).click();
      await expect(prompt.getByRole('alert')).toContainText('Sync could not finish');
      await prompt.getByRole('button', { name: 'Cancel' }).click();
      await expect(prompt).toBeHidden();
      await expect(page).toHaveURL(/\/settings$/);

      await page.getByRole('button', { name: 'Sign Out' }).first().click();
      await expect(prompt).toBeVisible();
    } finally {
      // Back online, but the push is held so the wait can be seen.
      await page.route('**/sync/v1/profiles/push', async (route) => {
        await pushHeld;
        await route.continue();
      });
      await context.setOffline(false);
    }
    await expect(new DashboardPage(page).syncLabel).not.toHaveText('Offline');
    await prompt.getByRole('button', { name: 'Wait for sync, then sign out' }).click();
    await expect(prompt.getByRole('button', { name: 'Waiting for sync...' })).toBeDisabled();
    await expect(page).toHaveURL(/\/settings$/);
    releasePush();
    await expect(page).toHaveURL(/\/auth\/signin$/, { timeout: 20_000 });
    expect((await serverProfile(account.email))?.bio).toBe(bio);
    // Signed out: nothing of the user's local database is left on this device.
    await expect.poll(() => localRowCount(page, userId)).toBe(0);
  });
});
