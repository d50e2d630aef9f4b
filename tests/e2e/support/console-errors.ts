import { test as base, expect } from '@playwright/test';

/**
 * Every e2e test fails on an unexpected console error or uncaught page error.
 * A test that provokes one on purpose lists it: `test.use({ allowedConsoleErrors: [/Failed to load/] })`.
 */
export const test = base.extend<{ allowedConsoleErrors: RegExp[]; failOnConsoleErrors: void }>({
  allowedConsoleErrors: [[], { option: true }],
  failOnConsoleErrors: [
    async ({ context, allowedConsoleErrors }, use) => {
      const errors: string[] = [];
      // Offline tests make the browser log failed network fetches; those are the point of the test.
      const expected = [/net::ERR_INTERNET_DISCONNECTED/, ...allowedConsoleErrors];
      const watch = (page: import('@playwright/test').Page) => {
        page.on('console', (msg) => {
          if (msg.type() === 'error' && !expected.some((re) => re.test(msg.text())))
            errors.push(`${page.url()}: ${msg.text()}`);
        });
        page.on('pageerror', (err) => errors.push(`${page.url()}: uncaught ${err.message}`));
      };
      context.pages().forEach(watch);
      context.on('page', watch);
      await use();
      expect(errors, 'unexpected console errors').toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };
