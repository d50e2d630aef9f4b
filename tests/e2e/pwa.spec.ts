import { ShellPage } from './pages/shell-page.ts';
import { expect, test } from './support/console-errors.ts';

test('Chromium finds the built app installable', async ({ page, context }) => {
  const shell = new ShellPage(page);
  await shell.goto('/');
  await shell.waitForServiceWorker();
  const manifest = await (await page.request.get('/manifest.webmanifest')).json();
  expect(manifest).toMatchObject({
    name: 'Pacta',
    short_name: 'Pacta',
    display: 'standalone',
    start_url: '/',
    scope: '/',
    id: '/',
  });
  expect(manifest.icons.map((i: { sizes: string; purpose: string }) => `${i.sizes} ${i.purpose}`)).toEqual([
    '192x192 any',
    '512x512 any',
    '512x512 maskable',
  ]);
  expect(manifest.screenshots.map((s: { form_factor: string }) => s.form_factor)).toEqual(['wide', 'narrow']);
  const cdp = await context.newCDPSession(page);
  const { installabilityErrors } = (await cdp.send('Page.getInstallabilityErrors')) as {
    installabilityErrors: { errorId: string }[];
  };
  // Playwright's contexts are incognito-like; that is the test browser, not the app.
  expect(installabilityErrors.map((e) => e.errorId).filter((id) => id !== 'in-incognito')).toEqual([]);
});

test('after one visit the app opens offline, on any route', async ({ page, context }) => {
  const shell = new ShellPage(page);
  await shell.goto('/');
  await shell.waitForServiceWorker();
  await context.setOffline(true);
  try {
    await page.goto('/about');
    await expect(shell.heading).toHaveText('About Pacta');
    await expect(shell.footer).toBeVisible();
    await page.reload();
    await expect(shell.heading).toHaveText('About Pacta');
    // A guarded route still opens the shell offline (signed out: the sign-in screen).
    await page.goto('/deals');
    await expect(shell.nav).toBeVisible();
    await expect(page).toHaveURL(/\/auth\/signin$/);
    await page.goto('/blog/how-escrow-protects-both-sides');
    await expect(shell.heading).toHaveText('How escrow protects both sides of a deal');
    // Every public page's code was precached, not only the pages visited.
    const publicPages: [path: string, title: string][] = [
      ['/', 'Sponsorship deals, safely made.'],
      ['/contact', 'Contact us'],
      ['/careers', 'Careers'],
      ['/blog', 'Blog'],
      ['/terms', 'Terms of Service'],
      ['/privacy', 'Privacy Policy'],
      ['/cookies', 'Cookie Policy'],
      ['/commission-policy', 'Commission Policy'],
      ['/pro', 'Creator Pro'],
      ['/pricing', 'Pricing'],
    ];
    for (const [path, title] of publicPages) {
      await page.goto(path);
      await expect(shell.heading, `${path} offline`).toHaveText(title);
    }
  } finally {
    await context.setOffline(false);
  }
});

test('the service worker never answers server paths with the app shell', async ({ page, context }) => {
  const shell = new ShellPage(page);
  await shell.goto('/');
  await shell.waitForServiceWorker();
  await page.reload();
  await expect.poll(() => page.evaluate(() => Boolean(navigator.serviceWorker.controller))).toBe(true);
  const health = await page.evaluate(async () => {
    const res = await fetch('/api/health');
    return { type: res.headers.get('content-type'), body: await res.json() };
  });
  expect(health.type).toContain('application/json');
  expect(health.body).toMatchObject({ status: 'ok' });
  // A navigation to a server path goes to the server, not to the cached app shell…
  const navigation = await page.goto('/api/health');
  expect(navigation?.headers()['content-type']).toContain('application/json');
  // …and offline it fails instead of showing the app.
  await shell.goto('/about');
  await context.setOffline(true);
  try {
    await expect(page.goto('/auth/v1/settings')).rejects.toThrow(/ERR_INTERNET_DISCONNECTED|ERR_FAILED/);
  } finally {
    await context.setOffline(false);
  }
});

test.describe('a stored file opened on its own (a new tab, a shared link)', () => {
  // The file asked for does not exist: the 404 (its console line names no file) is the answer looked for.
  test.use({ allowedConsoleErrors: [/^Failed to load resource: the server responded with a status of 404/] });

  test('is answered by the server, never by the service worker with the app shell', async ({ page }) => {
    const shell = new ShellPage(page);
    await shell.goto('/');
    await shell.waitForServiceWorker();
    await page.reload();
    await expect.poll(() => page.evaluate(() => Boolean(navigator.serviceWorker.controller))).toBe(true);
    const file = await page.goto('/storage/v1/object/public/avatars/00000000-0000-4000-8000-000000000000/none.webp');
    expect(file?.status()).toBe(404);
    expect(file?.headers()['content-type']).toContain('application/json');
  });
});

test('a new version waits for the user: "A new version is ready" with Reload, never a silent reload', async ({
  page,
  baseURL,
}) => {
  const shell = new ShellPage(page);
  await shell.goto('/about');
  await shell.waitForServiceWorker();
  await page.reload();
  await expect.poll(() => page.evaluate(() => Boolean(navigator.serviceWorker.controller))).toBe(true);
  // Something typed in a form must survive until the user chooses to reload.
  await page.goto('/contact');
  await page.getByLabel('Message').fill('half-written');
  // A new deployment, for this browser only (the e2e server keys it by cookie).
  await page.context().addCookies([{ name: 'pacta-e2e-deployment', value: '1', url: baseURL! }]);
  try {
    await page.evaluate(async () => (await navigator.serviceWorker.getRegistration())?.update());
    const prompt = page.getByRole('alert').filter({ hasText: 'A new version is ready' });
    await expect(prompt).toBeVisible();
    await expect(page.getByLabel('Message')).toHaveValue('half-written');
    await prompt.getByRole('button', { name: 'Reload' }).click();
    await expect(prompt).toBeHidden();
    // The reload happened only now, on request, and the new worker controls the page.
    await expect(page.getByLabel('Message')).toHaveValue('');
    await expect
      .poll(() => page.evaluate(async () => (await navigator.serviceWorker.getRegistration())?.waiting ?? null))
      .toBeNull();
  } finally {
    await page.context().clearCookies({ name: 'pacta-e2e-deployment' });
  }
});

test('the Install app button appears only when the browser offers installation, and uses its prompt', async ({
  page,
}) => {
  const shell = new ShellPage(page);
  await shell.goto('/about');
  const install = shell.nav.getByRole('button', { name: 'Install app' });
  await expect(install).toHaveCount(0);
  // Headless Chromium never fires beforeinstallprompt itself; fire one shaped like Chromium's.
  await page.evaluate(() => {
    const offer = new Event('beforeinstallprompt', { cancelable: true }) as Event & Record<string, unknown>;
    offer.prompt = () => {
      (window as unknown as { promptShown: boolean }).promptShown = true;
      return Promise.resolve();
    };
    offer.userChoice = Promise.resolve({ outcome: 'accepted' });
    window.dispatchEvent(offer);
  });
  await expect(install).toBeVisible();
  await install.click();
  await expect.poll(() => page.evaluate(() => (window as unknown as { promptShown?: boolean }).promptShown)).toBe(true);
  await expect(install).toHaveCount(0);
});

test.describe('when the app code does not load', () => {
  // The blocked script's own console line.
  test.use({ allowedConsoleErrors: [/Failed to load resource/] });

  test('the page says the app is still starting and offers a reload, instead of staying blank', async ({ page }) => {
    let blocked = true;
    await page.route(/\/assets\/index-[^/]+\.js$/, (route) => (blocked ? route.abort() : route.continue()));
    await page.goto('/deals');
    const note = page.getByText('Pacta is still starting.');
    // Hidden while the app may still be on its way, then shown.
    await expect(note).toBeHidden();
    await expect(note).toBeVisible({ timeout: 15_000 });
    blocked = false;
    await page.getByRole('link', { name: 'reload the page' }).click();
    await expect(page.locator('main h1').first()).toBeVisible({ timeout: 15_000 });
    await expect(note).toHaveCount(0);
  });
});
