import { test as base, expect, type BrowserContext, type Page } from '@playwright/test';

/**
 * Every e2e test fails on an unexpected console error or uncaught page error, in its own page and in
 * every device (browser context) the shared fixtures open for it (`tests/e2e/support/fixtures.ts`).
 * A test that provokes one on purpose lists it: `test.use({ allowedConsoleErrors: [/Failed to load/] })`.
 */
export const test = base.extend<{
  allowedConsoleErrors: RegExp[];
  watchConsoleErrors: (context: BrowserContext) => void;
  failOnConsoleErrors: void;
}>({
  allowedConsoleErrors: [[], { option: true }],
  watchConsoleErrors: async ({ allowedConsoleErrors }, use) => {
    const errors: string[] = [];
    // Offline tests make the browser log failed network fetches; those are the point of the test.
    const expected = [/net::ERR_INTERNET_DISCONNECTED/, ...allowedConsoleErrors];
    const watch = (page: Page) => {
      page.on('console', (msg) => {
        if (msg.type() === 'error' && !expected.some((re) => re.test(msg.text())))
          errors.push(`${page.url()}: ${msg.text()}`);
      });
      page.on('pageerror', (err) => errors.push(`${page.url()}: uncaught ${err.message}`));
    };
    await use((context) => {
      context.pages().forEach(watch);
      context.on('page', watch);
    });
    expect(errors, 'unexpected console errors').toEqual([]);
  },
  failOnConsoleErrors: [
    async ({ context, watchConsoleErrors }, use) => {
      watchConsoleErrors(context);
      await use();
    },
    { auto: true },
  ],
});

export { expect };
