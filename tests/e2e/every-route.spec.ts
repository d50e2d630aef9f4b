import fs from 'node:fs/promises';
import type { Browser, BrowserContext, Page, TestInfo } from '@playwright/test';
import { createConfirmedAccount } from './pages/auth-mailbox.ts';
import { blockingAxeViolations } from './support/axe.ts';
import { seedDeals, signIn, userId, waitForSynced } from './pages/deals-page.ts';
import { expect, test } from './support/console-errors.ts';
import { promoteToAdmin, withE2eDatabase } from './support/e2e-server-info.ts';
import { setDeviceOffline } from './support/offline.ts';

// Every route, for each role (signed out, creator, brand, admin), online and offline: no console error
// and no failed request unless it is listed below with its reason. Then screenshots of the main
// screens at phone and desktop width, with the visual checks a designer would make first.

// Each role's sweep is its own journey with its own accounts: they share no state, so the workers
// split them instead of one worker walking all eight.
test.describe.configure({ mode: 'parallel' });

type Role = 'signed-out' | 'creator' | 'brand' | 'admin';
type Network = 'online' | 'offline';

/**
 * What may show up, and why. Everything else fails the test: a page that logs an error or sends a
 * request that fails is something a user (or their browser's console) sees.
 */
const EXPECTED: { what: RegExp; when: Network | 'any'; reason: string }[] = [
  {
    what: /^request failed: GET \S+\/storage\/v1\/object\/public\/\S+ \(net::ERR_INTERNET_DISCONNECTED\)$/,
    when: 'offline',
    reason: 'a public picture this device never loaded online is not on it: the page shows initials instead',
  },
  {
    // Chromium's console line for that request names no address; the request itself is judged above.
    what: /^console error: Failed to load resource: net::ERR_INTERNET_DISCONNECTED$/,
    when: 'offline',
    reason: 'the console line of a picture not on this device',
  },
];

/**
 * Screens the same for every role but for the header, which each role's own screens show: axe checks
 * them signed out only.
 */
const SAME_FOR_EVERYONE = [
  '/about',
  '/contact',
  '/careers',
  '/blog',
  '/blog/pricing-your-first-sponsorship',
  '/commission-policy',
  '/terms',
  '/privacy',
  '/cookies',
  '/no-such-page',
];

/** The app's route table (src/app/routes.tsx) with real ids; `:deal` etc. are filled in per run. */
const ROUTES = [
  '/',
  '/auth/signin',
  '/signin',
  '/auth/signup',
  '/signup',
  '/forgot-password',
  '/reset-password',
  '/auth/callback',
  '/dashboard',
  '/settings',
  '/settings?section=security',
  '/upgrade',
  '/pro',
  '/pricing',
  '/pro/success',
  '/admin',
  '/admin/ledger',
  '/earnings',
  '/growth',
  '/analytics',
  '/campaign-brief-builder',
  '/suggestions',
  '/performance',
  '/brand-matching',
  '/content-calendar',
  '/referrals/leaderboard',
  '/referrals/payouts',
  '/deals',
  '/deals/new',
  '/deals/:deal',
  '/deals/:deal/edit',
  '/deals/00000000-0000-4000-8000-000000000000',
  '/campaign/new',
  '/swipe',
  '/my-deals',
  '/profile',
  '/profile/me',
  '/profile/:me',
  '/creator/:me',
  '/creators/:me',
  '/inbox',
  '/inbox/new',
  '/inbox/00000000-0000-4000-8000-000000000000',
  '/notifications',
  '/support',
  '/support/new',
  '/support/00000000-0000-4000-8000-000000000000',
  ...SAME_FOR_EVERYONE,
];

/** Paths the route table renders with another path's screen: axe checks that screen once. */
const SAME_SCREEN_AS: Record<string, string> = {
  '/signin': '/auth/signin',
  '/signup': '/auth/signup',
  '/upgrade': '/pro',
};

const run = Date.now().toString(36);

type Session = { context: BrowserContext; page: Page; problems: string[]; network: { current: Network } };

/** A browser context that records console errors and failed requests, signed in as `role`. */
async function openSession(browser: Browser, request: import('@playwright/test').APIRequestContext, role: Role) {
  const context = await browser.newContext();
  const page = await context.newPage();
  const network = { current: 'online' as Network };
  const problems: string[] = [];
  const note = (text: string) => {
    if (!EXPECTED.some((e) => (e.when === 'any' || e.when === network.current) && e.what.test(text)))
      problems.push(`${network.current} ${page.url()}: ${text}`);
  };
  page.on('console', (msg) => {
    if (msg.type() === 'error') note(`console error: ${msg.text()}`);
    // RxDB's advert for its paid storages is for developers, not for every user's console.
    if (msg.type() === 'warning' && msg.text().includes('RxDB Open Core'))
      note(`console warning: ${msg.text().slice(0, 80)}`);
  });
  page.on('pageerror', (err) => note(`uncaught: ${err.message}`));
  page.on('requestfailed', (req) => {
    // Leaving a page cancels what it was still loading (its change stream among them): not a failure.
    if (req.failure()?.errorText === 'net::ERR_ABORTED') return;
    note(`request failed: ${req.method()} ${req.url()} (${req.failure()?.errorText})`);
  });
  page.on('response', (res) => {
    if (res.status() >= 400) note(`HTTP ${res.status()}: ${res.request().method()} ${res.url()}`);
  });

  let me = '';
  let email = '';
  if (role !== 'signed-out') {
    const account = await createConfirmedAccount(request, {
      role: role === 'admin' ? 'brand' : role,
      fullName: `Route ${role} ${run}`,
    });
    if (role === 'admin') await promoteToAdmin(account.email);
    me = await userId(account.email);
    email = account.email;
    await signIn(page, account);
    await page.goto('/dashboard');
    await waitForSynced(page);
  } else {
    await page.goto('/');
  }
  // Offline visits need the service worker controlling the page, as on a second visit.
  await page.evaluate(async () => (await navigator.serviceWorker.ready).active?.state);
  if (!(await page.evaluate(() => Boolean(navigator.serviceWorker.controller)))) await page.reload();
  await expect.poll(() => page.evaluate(() => Boolean(navigator.serviceWorker.controller))).toBe(true);
  return { context, page, problems, network, me, email } satisfies Session & { me: string; email: string };
}

let dealId = '';
test.beforeAll(async ({ request }) => {
  const brand = await createConfirmedAccount(request, { role: 'brand', fullName: `Route Deals ${run}` });
  const [deal] = await seedDeals(brand.email, [`Route sweep deal ${run}`]);
  dealId = deal!.id;
});

test('the sweep visits every path of the route table (src/app/routes.tsx)', async () => {
  const table = await fs.readFile('src/app/routes.tsx', 'utf8');
  const paths = [...table.matchAll(/path: '([^']+)'/g)].map((m) => m[1]!).filter((p) => p !== '*');
  const matches = (route: string, visited: string) =>
    new RegExp(`^${route.replace(/:[a-z]+/gi, '[^/]+')}$`).test(visited.split('?')[0]!);
  expect(paths.filter((route) => !ROUTES.some((visited) => matches(route, visited)))).toEqual([]);
});

for (const role of ['signed-out', 'creator', 'brand', 'admin'] as const) {
  test(`every route as ${role}, online then offline: no unexpected console error or failed request; online, no serious accessibility issue`, async ({
    browser,
    request,
    baseURL,
  }) => {
    // Some 50 routes twice, and axe on each online: about 5 minutes on a 2-core machine.
    test.setTimeout(600_000);
    const session = await openSession(browser, request, role);
    const paths = ROUTES.map((p) =>
      p.replace(':deal', dealId).replace(':me', session.me || '00000000-0000-4000-8000-000000000001'),
    );
    // Serious or critical axe findings, route by route (checked online: offline shows the same screens).
    const inaccessible: string[] = [];
    const checkedScreens = new Set<string>();
    for (const network of ['online', 'offline'] as const) {
      // The network drops between pages: a request still in flight when it drops (the last page's
      // change stream connecting) fails for anyone; the sweep judges what each page sends itself.
      await session.page.goto('about:blank');
      session.network.current = network;
      await setDeviceOffline(session.context, baseURL!, network === 'offline');
      for (const path of paths) {
        await session.page.goto(path);
        // Every screen has one main heading; it shows once the route has rendered (and, signed in, its data).
        await expect(session.page.locator('main h1').first(), `${network} ${path} shows its heading`).toBeVisible({
          timeout: 15_000,
        });
        await session.page.waitForLoadState('load');
        // A route that sends this role elsewhere (a wrong-role page lands on the dashboard) shows a
        // screen already checked: axe runs once per screen a role reaches, and once in all for a
        // screen that is the same for everyone.
        const { pathname, search } = new URL(session.page.url());
        const screen = (SAME_SCREEN_AS[pathname] ?? pathname) + search;
        const checkedSignedOut = role !== 'signed-out' && SAME_FOR_EVERYONE.includes(path);
        if (network === 'online' && !checkedSignedOut && !checkedScreens.has(screen)) {
          checkedScreens.add(screen);
          inaccessible.push(...(await blockingAxeViolations(session.page)).map((v) => `${path}: ${v}`));
        }
      }
    }
    // Closed while still offline: coming back online is another journey (the offline specs cover it).
    await session.context.close();
    expect(session.problems, `unexpected console errors or failed requests as ${role}`).toEqual([]);
    expect(inaccessible, `serious or critical accessibility issues as ${role}`).toEqual([]);
  });
}

/** Nothing wider than the window, and (on a desktop) the navigation bar on a single line. */
async function checkLayout(page: Page, width: number, label: string) {
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow, `${label}: no horizontal overflow`).toBeLessThanOrEqual(0);
  if (width < 1024) return;
  const lines = await page.evaluate(() => {
    const items = [
      ...document.querySelectorAll<HTMLElement>('header nav a, header nav button, header nav select'),
    ].filter((el) => el.offsetParent !== null && el.getBoundingClientRect().width > 0);
    // An item wraps when its text runs over more than one line (icons beside the text do not count).
    const textLines = (el: HTMLElement) => {
      const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
      const bottoms: number[] = [];
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        if (!node.textContent?.trim()) continue;
        const range = document.createRange();
        range.selectNodeContents(node);
        for (const rect of range.getClientRects()) if (rect.width > 0) bottoms.push(rect.bottom);
      }
      bottoms.sort((a, b) => a - b);
      return bottoms.filter((b, i) => i === 0 || b - bottoms[i - 1]! > 4).length;
    };
    const wrapped = items.filter((el) => textLines(el) > 1).map((el) => el.textContent?.trim());
    const centres = items.map((el) => {
      const r = el.getBoundingClientRect();
      return r.top + r.height / 2;
    });
    return { wrapped, spread: centres.length ? Math.max(...centres) - Math.min(...centres) : 0 };
  });
  expect(lines.wrapped, `${label}: no header item wraps onto two lines`).toEqual([]);
  expect(lines.spread, `${label}: header items sit on one line`).toBeLessThanOrEqual(16);
}

async function shoot(page: Page, testInfo: TestInfo, name: string, width: number) {
  await page.setViewportSize({ width, height: width < 600 ? 844 : 900 });
  // Let layout settle at the new width before measuring.
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
  await checkLayout(page, width, `${name} at ${width}px`);
  const file = testInfo.outputPath(`${name}-${width}.png`);
  await page.screenshot({ path: file, fullPage: true });
  await testInfo.attach(`${name}-${width}`, { path: file, contentType: 'image/png' });
}

/**
 * Every screen a user reaches, per role: the landing and auth pages, each role's dashboard, and the
 * screens the features added (swipe, inbox, notifications, support and the staff desk, briefs,
 * portfolio, growth, leaderboard, payouts, Pro, the ledger, create and edit deal with an applicant).
 */
const SCREENS: Record<Role, [name: string, path: string][]> = {
  'signed-out': [
    ['landing', '/'],
    ['sign-in', '/auth/signin'],
    ['sign-up', '/auth/signup'],
    ['pricing', '/pricing'],
    ['about', '/about'],
  ],
  creator: [
    ['dashboard-creator', '/dashboard'],
    ['deals', '/deals'],
    ['deal-detail', '/deals/:deal'],
    ['swipe', '/swipe'],
    ['my-deals', '/my-deals'],
    ['inbox', '/inbox'],
    ['notifications', '/notifications'],
    ['support', '/support'],
    ['growth', '/growth'],
    ['leaderboard', '/referrals/leaderboard'],
    ['payouts', '/referrals/payouts'],
    ['earnings', '/earnings'],
    ['portfolio', '/creator/:me'],
    ['pro', '/pro'],
    ['settings', '/settings'],
  ],
  brand: [
    ['dashboard-brand', '/dashboard'],
    ['available-creators', '/deals'],
    ['create-deal', '/deals/new'],
    ['deal-detail-brand', '/deals/:own'],
    ['edit-deal', '/deals/:own/edit'],
    ['brief', '/campaign/new'],
  ],
  admin: [
    ['dashboard-admin', '/dashboard'],
    ['staff-home', '/admin'],
    ['ledger', '/admin/ledger'],
    ['support-desk', '/support'],
  ],
};

for (const role of ['signed-out', 'creator', 'brand', 'admin'] as const) {
  test(`screenshots as ${role} at 390 and 1280 px, light and dark: no overflow, header on one line`, async ({
    browser,
    request,
  }, testInfo) => {
    test.setTimeout(600_000);
    const session = await openSession(browser, request, role);
    let own = '';
    if (role === 'brand') {
      // The brand's own deal, with an applicant, so the deal page shows the brand's actions.
      const [deal] = await seedDeals(session.email, [`Screenshot deal ${run}`]);
      const creator = await createConfirmedAccount(request, {
        role: 'creator',
        fullName: `Screenshot Applicant ${run}`,
      });
      await withE2eDatabase((client) =>
        client.query(
          'insert into public.applications (id, deal_id, creator_id) select gen_random_uuid(), $1, id from auth.users where email = $2',
          [deal!.id, creator.email],
        ),
      );
      own = deal!.id;
    }
    for (const theme of ['warm', 'dark']) {
      // The theme is the user's choice, kept in localStorage (src/lib/theme.ts): light, then dark.
      await session.page.evaluate((t) => localStorage.setItem('pacta.theme', t), theme);
      for (const [name, path] of SCREENS[role]) {
        await session.page.setViewportSize({ width: 1280, height: 900 });
        await session.page.goto(path.replace(':deal', dealId).replace(':own', own).replace(':me', session.me));
        await expect(session.page.locator('main h1').first()).toBeVisible({ timeout: 15_000 });
        if (path === '/deals/:own')
          await expect(session.page.getByText('Screenshot Applicant', { exact: false }).first()).toBeVisible({
            timeout: 15_000,
          });
        await expect(session.page.locator('html')).toHaveAttribute('data-theme', theme);
        for (const width of [390, 1280])
          await shoot(session.page, testInfo, theme === 'dark' ? `${name}-dark` : name, width);
      }
    }
    await session.context.close();
    expect(session.problems).toEqual([]);
    await fs.access(testInfo.outputPath(`${SCREENS[role][0]![0]}-1280.png`));
  });
}
