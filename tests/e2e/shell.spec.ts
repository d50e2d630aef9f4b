import { createConfirmedAccount } from './pages/auth-mailbox.ts';
import { SignInPage } from './pages/auth-pages.ts';
import { signIn } from './pages/deals-page.ts';
import { ShellPage } from './pages/shell-page.ts';
import { expect, test } from './support/fixtures.ts';

test('the landing page promises escrow, warns about off-platform deals and has no footer', async ({ page }) => {
  const shell = new ShellPage(page);
  await shell.goto('/');
  await expect(shell.heading).toHaveText('Sponsorship deals, safely made.');
  await expect(page.getByRole('heading', { name: 'Built-in escrow and dispute resolution' })).toBeVisible();
  await expect(shell.main).toContainText('Safe transactions');
  await expect(page.getByRole('note')).toContainText('Deals made outside Pacta are not protected.');
  await expect(shell.footer).toHaveCount(0);
  // Signed out: the bar offers Sign In and Sign Up only.
  expect(await shell.navLinkTexts()).toEqual(['Sign In', 'Sign Up']);
});

test("a signed-out visitor's landing page loads neither RxDB nor supabase-js", async ({ page }) => {
  const scripts: Promise<string>[] = [];
  page.on('response', (response) => {
    if (response.request().resourceType() === 'script') scripts.push(response.text());
  });
  await new ShellPage(page).goto('/');
  await page.waitForLoadState('networkidle');
  const bodies = await Promise.all(scripts);
  expect(bodies.length).toBeGreaterThan(0);
  expect(
    bodies.filter((body) => /rxdb/i.test(body)),
    'scripts containing RxDB',
  ).toHaveLength(0);
  expect(
    bodies.filter((body) => body.includes('GoTrueClient')),
    'scripts containing supabase-js auth',
  ).toHaveLength(0);
});

test('every other page has the three-column footer with the exact links', async ({ page }) => {
  const shell = new ShellPage(page);
  await shell.goto('/about');
  await expect(shell.footer).toBeVisible();
  expect(await shell.footerLinks('Company')).toEqual([
    { text: 'About', href: '/about' },
    { text: 'Contact', href: '/contact' },
    { text: 'Careers', href: '/careers' },
    { text: 'Blog', href: '/blog' },
  ]);
  expect(await shell.footerLinks('Support')).toEqual([
    { text: 'Help Center', href: '/support' },
    { text: 'Terms', href: '/terms' },
    { text: 'Privacy', href: '/privacy' },
    { text: 'Cookies', href: '/cookies' },
  ]);
  expect(await shell.footerLinks('Legal')).toEqual([
    { text: 'Commission Policy', href: '/commission-policy' },
    { text: 'Referral Program', href: '/referrals/leaderboard' },
  ]);
  await shell.footer.getByRole('link', { name: 'Careers' }).click();
  await expect(page).toHaveURL(/\/careers$/);
  await expect(shell.heading).toHaveText('Careers');
});

test('signed-out visitors on guarded routes go to /auth/signin; wrong paths get a 404 page', async ({ page }) => {
  for (const path of [
    '/dashboard',
    '/settings',
    '/deals',
    '/campaign/new',
    '/swipe',
    '/inbox',
    '/support',
    '/growth',
  ]) {
    await page.goto(path);
    await expect(page, `${path} redirects`).toHaveURL(/\/auth\/signin$/);
  }
  await page.goto('/creators/abc');
  await expect(page).toHaveURL(/\/auth\/signin$/);
  await page.goto('/no-such-page');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Page not found');
});

test('the skip link and the menu are reachable and usable by keyboard', async ({ page }) => {
  const shell = new ShellPage(page);
  await shell.goto('/about');
  await page.keyboard.press('Tab');
  const skip = page.getByRole('link', { name: 'Skip to content' });
  await expect(skip).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/#main$/);
  // From the top: home link, then Sign In; Enter follows it. Once the page shows: a Tab pressed before
  // the shell renders lands nowhere.
  await shell.goto('/about');
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  await expect(page.getByRole('link', { name: 'Pacta home' }).first()).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(shell.nav.getByRole('link', { name: 'Sign In' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/auth\/signin$/);
  // After an in-app navigation, focus moves to the new page's content.
  await expect(shell.main).toBeFocused();
});

test('the mobile menu mirrors the bar and adds Quick Actions; Escape closes it', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 800 });
  const shell = new ShellPage(page);
  await shell.goto('/about');
  await expect(shell.nav.getByRole('link', { name: 'Sign In' })).toBeHidden();
  await shell.menuButton.focus();
  await page.keyboard.press('Enter');
  const menu = page.locator('#mobile-menu');
  await expect(menu.getByRole('heading', { name: 'Quick Actions' })).toBeVisible();
  await expect(menu.getByRole('link', { name: 'Sign Up' })).toBeVisible();
  await expect(shell.menuButton).toHaveAttribute('aria-expanded', 'true');
  await page.keyboard.press('Escape');
  await expect(menu).toHaveCount(0);
  await expect(shell.menuButton).toBeFocused();
  await shell.menuButton.click();
  await menu.getByRole('link', { name: 'Contact us' }).click();
  await expect(page).toHaveURL(/\/contact$/);
  await expect(menu).toHaveCount(0);
});

test('the chosen theme applies at once and survives a reload', async ({ page }) => {
  const shell = new ShellPage(page);
  await shell.goto('/about');
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'warm');
  await shell.themeSelect.selectOption('dark');
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  expect(await background()).toBe('rgb(18, 20, 26)');
  await page.reload();
  await expect(shell.heading).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await expect(shell.themeSelect).toHaveValue('dark');
  expect(await background()).toBe('rgb(18, 20, 26)');
});

test.describe('signed in', () => {
  test('a brand sees Deals, Dashboard, Profile, Settings, Support, the icons and Sign Out', async ({
    brandPage: page,
  }) => {
    const shell = new ShellPage(page);
    await expect.poll(() => shell.navLinkTexts()).toEqual(['Deals', 'Dashboard', 'Profile', 'Settings', 'Support']);
    await expect(shell.nav.getByRole('button', { name: 'Notifications' })).toBeVisible();
    // The inbox dot shows only when something is unread (docs/design.md "inbox dot"): a new account has nothing.
    await expect(shell.nav.getByRole('link', { name: 'Inbox' })).toBeVisible();
    await expect(shell.nav.locator('.unread-dot')).toHaveCount(0);
    await expect(shell.nav.getByRole('group', { name: 'Admin view' })).toHaveCount(0);
    await shell.nav.getByRole('button', { name: 'Sign Out' }).click();
    await expect(page).toHaveURL(/\/auth\/signin$/);
    await expect.poll(() => shell.navLinkTexts()).toEqual(['Sign In', 'Sign Up']);
  });

  test("a brand's Pro page is Brand Pro", async ({ brandPage: page }) => {
    const shell = new ShellPage(page);
    for (const path of ['/upgrade', '/pro']) {
      await page.goto(path);
      await expect(shell.heading).toHaveText('Brand Pro');
      await expect(shell.main).toContainText('Unlimited shortlists');
      await expect(shell.main).toContainText('$35/month or $315/year');
    }
  });

  test('a creator sees Browse Deals; role guards send a creator away from brand pages', async ({
    creatorPage: page,
  }) => {
    const shell = new ShellPage(page);
    await expect
      .poll(() => shell.navLinkTexts())
      .toEqual(['Browse Deals', 'Dashboard', 'Earnings', 'Profile', 'Settings', 'Support']);
    await shell.nav.getByRole('link', { name: 'Profile' }).click();
    await expect(page).toHaveURL(/\/profile\/me$/);
    await page.goto('/campaign/new');
    await expect(page).toHaveURL(/\/dashboard$/);
    await page.goto('/swipe');
    await expect(page).toHaveURL(/\/swipe$/);
  });

  test('the mobile menu of a creator has its Quick Actions', async ({ creatorPage: page }) => {
    await page.setViewportSize({ width: 390, height: 800 });
    const shell = new ShellPage(page);
    await shell.menuButton.click();
    const menu = page.locator('#mobile-menu');
    await expect(menu.getByRole('link', { name: 'Swipe Deals' })).toBeVisible();
    await expect(menu.getByRole('link', { name: 'Browse Deals' })).toBeVisible();
    await expect(menu.getByRole('button', { name: 'Sign Out' })).toBeVisible();
  });

  test.describe('while the next page is still loading', () => {
    // The page's script must come from the network (not the service worker's cache) to be held back.
    test.use({ serviceWorkers: 'block' });

    test('a mobile menu opened right after sign-in stays open when the dashboard arrives', async ({
      page,
      request,
    }) => {
      const account = await createConfirmedAccount(request, { role: 'creator' });
      await page.setViewportSize({ width: 390, height: 800 });
      // The dashboard's script is held until the menu is open: the moment a quick tap lands in on a
      // slow phone, when the address already reads /dashboard and the screen still shows sign-in.
      let release = () => {};
      const held = new Promise<void>((resolve) => (release = resolve));
      await page.route(/\/assets\/dashboard-page-[^/]+\.js$/, async (route) => {
        await held;
        await route.continue();
      });
      const signInPage = new SignInPage(page);
      await signInPage.goto();
      await signInPage.signIn(account.email, account.password);
      await expect(page).toHaveURL(/\/dashboard$/);
      const shell = new ShellPage(page);
      await expect(shell.heading).toHaveCount(0);
      await shell.menuButton.click();
      const menu = page.locator('#mobile-menu');
      await expect(menu.getByRole('link', { name: 'Swipe Deals' })).toBeVisible();

      release();
      await expect(shell.heading).toHaveText(/^Welcome to Pacta, /, { timeout: 20_000 });
      await expect(menu.getByRole('link', { name: 'Swipe Deals' })).toBeVisible();
      await expect(shell.menuButton).toHaveAttribute('aria-expanded', 'true');
      // Going somewhere else still closes it.
      await menu.getByRole('link', { name: 'Settings' }).click();
      await expect(page).toHaveURL(/\/settings$/);
      await expect(menu).toHaveCount(0);
    });
  });

  test('an admin toggles Brand View / Creator View (default brand) and passes every role check', async ({
    adminPage: page,
  }) => {
    const shell = new ShellPage(page);
    // One toggle per screen: the dashboard's own (beside Create New Deal), the bar's everywhere else.
    await expect(page.getByRole('group', { name: 'Dashboard view' })).toBeVisible();
    await expect(page.getByRole('group', { name: 'Admin view' })).toHaveCount(0);
    // Staff are not sold Pro or asked to complete a member profile.
    await expect(page.getByRole('heading', { name: 'Quick Stats' })).toBeVisible();
    await expect(page.getByRole('complementary', { name: 'Sponsored' })).toHaveCount(0);
    await expect(page.getByText('Complete your profile')).toHaveCount(0);
    await shell.nav.getByRole('link', { name: 'Settings' }).click();
    await expect(page).toHaveURL(/\/settings$/);
    const toggle = shell.nav.getByRole('group', { name: 'Admin view' });
    await expect(toggle.getByRole('button', { name: 'Brand View' })).toHaveAttribute('aria-pressed', 'true');
    // Staff's own home comes first, whichever view they take.
    await expect
      .poll(() => shell.navLinkTexts())
      .toEqual(['Staff', 'Deals', 'Dashboard', 'Profile', 'Settings', 'Support']);
    await toggle.getByRole('button', { name: 'Creator View' }).click();
    await expect
      .poll(() => shell.navLinkTexts())
      .toEqual(['Staff', 'Browse Deals', 'Dashboard', 'Profile', 'Settings', 'Support']);
    for (const path of ['/deals/new', '/swipe', '/campaign/new']) {
      await page.goto(path);
      await expect(page, `${path} is open to an admin`).toHaveURL(new RegExp(`${path}$`));
    }
  });
});

test.describe('a page whose code cannot be fetched', () => {
  // The service worker would answer from its cache; the test takes the network away from the page.
  test.use({
    serviceWorkers: 'block',
    // One pattern: Playwright reads a two-item array as [value, options].
    allowedConsoleErrors: [/Failed to load resource|Failed to fetch dynamically imported module/],
  });

  test('says so inside the shell, keeps the navigation, and Reload brings the page back', async ({ page }) => {
    const shell = new ShellPage(page);
    await shell.goto('/about');
    await page.route('**/assets/careers-page-*.js', (route) => route.abort('failed'));
    await shell.footer.getByRole('link', { name: 'Careers' }).click();
    await expect(page.getByRole('alert')).toContainText('This page could not be loaded');
    await expect(page.getByRole('alert')).toContainText('Reload to try again.');
    await expect(shell.footer).toBeVisible();
    expect(await shell.navLinkTexts()).toEqual(['Sign In', 'Sign Up']);

    await page.unroute('**/assets/careers-page-*.js');
    await page.getByRole('button', { name: 'Reload' }).click();
    await expect(shell.heading).toHaveText('Careers');
  });

  test('a page whose code fails to load once opens after one automatic reload, without the error screen', async ({
    page,
  }) => {
    const shell = new ShellPage(page);
    await shell.goto('/about');
    let aborted = 0;
    await page.route('**/assets/careers-page-*.js', (route) =>
      aborted++ === 0 ? route.abort('failed') : route.fallback(),
    );
    await shell.footer.getByRole('link', { name: 'Careers' }).click();
    await expect(shell.heading).toHaveText('Careers');
    await expect(page.getByRole('alert')).toHaveCount(0);
    // The page asked twice: a failed import is never requested again by the same document.
    expect(aborted).toBe(2);
  });

  test('a signed-in start whose session code cannot be fetched says so instead of loading for good; Reload signs back in', async ({
    page,
    request,
  }) => {
    await signIn(page, await createConfirmedAccount(request, { role: 'creator' }));
    const shell = new ShellPage(page);
    await expect(shell.heading).toHaveText(/^Welcome to Pacta, /, { timeout: 20_000 });

    await page.route(/\/assets\/session-[^/]+\.js$/, (route) => route.abort('failed'));
    await page.reload();
    await expect(page.getByRole('alert')).toContainText('Pacta could not finish starting');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Pacta could not finish starting');

    await page.unroute(/\/assets\/session-[^/]+\.js$/);
    await page.getByRole('button', { name: 'Reload' }).click();
    await expect(shell.heading).toHaveText(/^Welcome to Pacta, /, { timeout: 20_000 });
  });
});
