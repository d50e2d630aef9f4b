import type { BrowserContext, Page } from '@playwright/test';
import { createConfirmedAccount } from '../pages/auth-mailbox.ts';
import { signIn, waitForSynced } from '../pages/deals-page.ts';
import { expect, test as consoleErrorsTest } from './console-errors.ts';
import { promoteToAdmin } from './e2e-server-info.ts';

/**
 * The e2e tests' shared set-up (`test.extend`), so no spec writes its own sign-in:
 * - `newAccount(role)`: a data builder — a confirmed account made through the public API; an admin is
 *   a brand promoted as the operator command does (sign-up never grants admin);
 * - `openAs(account, path)`: a new device (browser context) signed in through the real sign-in screen,
 *   on `path` and synced; `{ offlineReady: true }` also waits until the service worker controls the
 *   page, as on a user's second visit, so the device keeps working offline;
 * - `creatorPage`, `brandPage`, `adminPage`: a fresh account of that role signed in on its own device,
 *   on its dashboard and synced; `creatorAccount`, `brandAccount`, `adminAccount` are those accounts.
 * Every device is watched for console errors like the test's own page and closed after the test.
 */

export type Role = 'creator' | 'brand' | 'admin';
export type Account = { email: string; password: string; fullName: string };
export type Device = { context: BrowserContext; page: Page };
export type NewAccount = (role: Role, opts?: { fullName?: string }) => Promise<Account>;
export type OpenAs = (account: Account, path: string, opts?: { offlineReady?: boolean }) => Promise<Device>;

type Fixtures = {
  newAccount: NewAccount;
  openAs: OpenAs;
  creatorAccount: Account;
  brandAccount: Account;
  adminAccount: Account;
  creatorPage: Page;
  brandPage: Page;
  adminPage: Page;
};

export const test = consoleErrorsTest.extend<Fixtures>({
  newAccount: async ({ request }, use) => {
    await use(async (role, opts = {}) => {
      const account = await createConfirmedAccount(request, { role: role === 'admin' ? 'brand' : role, ...opts });
      if (role === 'admin') await promoteToAdmin(account.email);
      return account;
    });
  },
  openAs: async ({ browser, watchConsoleErrors }, use) => {
    const contexts: BrowserContext[] = [];
    await use(async (account, path, opts = {}) => {
      const context = await browser.newContext();
      contexts.push(context);
      watchConsoleErrors(context);
      const page = await context.newPage();
      await signIn(page, account);
      await page.goto(path);
      await waitForSynced(page);
      if (opts.offlineReady) {
        // The service worker controls a page from the next load on (it does not claim the page that
        // installed it), as on a user's second visit.
        await page.evaluate(async () => (await navigator.serviceWorker.ready).active?.state);
        if (!(await page.evaluate(() => Boolean(navigator.serviceWorker.controller)))) {
          await page.reload();
          await waitForSynced(page);
        }
      }
      return { context, page };
    });
    for (const context of contexts) await context.close();
  },
  creatorAccount: async ({ newAccount }, use) => use(await newAccount('creator')),
  brandAccount: async ({ newAccount }, use) => use(await newAccount('brand')),
  adminAccount: async ({ newAccount }, use) => use(await newAccount('admin')),
  creatorPage: async ({ openAs, creatorAccount }, use) => use((await openAs(creatorAccount, '/dashboard')).page),
  brandPage: async ({ openAs, brandAccount }, use) => use((await openAs(brandAccount, '/dashboard')).page),
  adminPage: async ({ openAs, adminAccount }, use) => use((await openAs(adminAccount, '/dashboard')).page),
});

export { expect };
