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
          return document.cookie.split('; ').includes(`${cookie}=1`) ? false : (browserAnswer.call(this) as boolean);
        },
      });
    }, COOKIE);
  }
  if (offline) await context.addCookies([{ name: COOKIE, value: '1', url: origin }]);
  else await context.clearCookies({ name: COOKIE });
  await context.setOffline(offline);
}
