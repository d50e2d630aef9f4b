import type { BrowserContext } from '@playwright/test';

const COOKIE = 'pacta-e2e-offline';
const prepared = new WeakSet<BrowserContext>();

/**
 * Takes a browser context off the network, or back on, as a device losing its connection.
 *
 * Playwright's `setOffline` cuts the network and turns `navigator.onLine` false in the documents
 * already open. A document loaded while offline (a reload, a route served from the service worker's
 * cache) still reads `navigator.onLine === true` in Chromium 150 under Playwright 1.65 (checked with a
 * bare page: reload offline → true), where a real offline browser reads false and the app sends
 * nothing it knows cannot go out. A cookie carries the state into those documents: the init script
 * answers `navigator.onLine` false while it is set, and the browser's own answer otherwise.
 */
export async function setDeviceOffline(context: BrowserContext, origin: string, offline: boolean): Promise<void> {
  if (!prepared.has(context)) {
    prepared.add(context);
    await context.addInitScript((cookie) => {
      const browserAnswer = Object.getOwnPropertyDescriptor(Navigator.prototype, 'onLine')!.get!;
      Object.defineProperty(Navigator.prototype, 'onLine', {
        configurable: true,
        get(this: Navigator) {
          if (!document.cookie.split('; ').includes(`${cookie}=1`)) return browserAnswer.call(this) as boolean;
          // Offline by the cookie alone: Chromium will not tell this document when the network returns.
          if (browserAnswer.call(this)) (window as { __offlineByCookie?: boolean }).__offlineByCookie = true;
          return false;
        },
      });
    }, COOKIE);
  }
  if (offline) await context.addCookies([{ name: COOKIE, value: '1', url: origin }]);
  else await context.clearCookies({ name: COOKIE });
  await context.setOffline(offline);
  // Back online, a real browser fires `online` in every document that read itself offline; Chromium
  // fires it only in those it took offline itself, so the others hear it from here.
  if (!offline)
    for (const page of context.pages())
      await page
        .evaluate(() => {
          const w = window as { __offlineByCookie?: boolean };
          if (!w.__offlineByCookie) return;
          delete w.__offlineByCookie;
          window.dispatchEvent(new Event('online'));
        })
        .catch(() => {
          // A page closing or navigating meanwhile: its next document reads the browser's answer.
        });
}
