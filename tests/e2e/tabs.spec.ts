import type { Browser, BrowserContext, Page } from '@playwright/test';
import { createConfirmedAccount } from './pages/auth-mailbox.ts';
import { DealDetailPage } from './pages/deal-detail-page.ts';
import { seedDeals, signIn, waitForSynced } from './pages/deals-page.ts';
import { withE2eDatabase } from './support/e2e-server-info.ts';
import { expect, test } from './support/console-errors.ts';

// Several tabs of one user share one local database; one tab (the elected leader) replicates. Closing
// or freezing the leader hands replication to another tab, and writes made offline in two tabs both land.

// Offline, Chromium logs failed fetches; switching the network back logs cut requests.
test.use({ allowedConsoleErrors: [/net::ERR_NETWORK_CHANGED/] });

type Account = { email: string; password: string; fullName: string };

/** A signed-in context whose pages the service worker controls (so they work offline). */
async function signedInContext(browser: Browser, account: Account): Promise<{ context: BrowserContext; first: Page }> {
  const context = await browser.newContext();
  const first = await context.newPage();
  await signIn(first, account);
  await waitForSynced(first);
  await first.evaluate(async () => (await navigator.serviceWorker.ready).active?.state);
  if (!(await first.evaluate(() => Boolean(navigator.serviceWorker.controller)))) {
    await first.reload();
    await waitForSynced(first);
  }
  return { context, first };
}

async function applicationsOf(email: string): Promise<string[]> {
  return withE2eDatabase(async (client) => {
    const { rows } = await client.query<{ deal_id: string }>(
      `select a.deal_id from public.applications a join auth.users u on u.id = a.creator_id where u.email = $1 order by 1`,
      [email],
    );
    return rows.map((r) => r.deal_id);
  });
}

test('closing the leader tab hands replication to another tab: server changes still arrive, its writes still land', async ({
  browser,
  request,
}) => {
  test.setTimeout(150_000);
  const run = Date.now().toString(36);
  const brand = await createConfirmedAccount(request, { role: 'brand', fullName: `Tab Brand ${run}` });
  const creator = await createConfirmedAccount(request, { role: 'creator', fullName: `Tab Creator ${run}` });
  await seedDeals(brand.email, [`Before the handover ${run}`]);
  const { context, first } = await signedInContext(browser, creator);
  const second = await context.newPage();
  await second.goto('/deals');
  await waitForSynced(second);
  await expect(second.getByText(`Before the handover ${run}`).first()).toBeVisible();

  // The first tab (the leader) goes away; the second must now replicate on its own.
  await first.close();
  const [later] = await seedDeals(brand.email, [`After the handover ${run}`]);
  await expect(second.getByText(`After the handover ${run}`).first()).toBeVisible({ timeout: 45_000 });

  await second.goto(`/deals/${later!.id}`);
  await new DealDetailPage(second).applyButton.click();
  await expect(second.getByText('Application submitted!').first()).toBeVisible();
  await expect.poll(() => applicationsOf(creator.email), { timeout: 45_000 }).toEqual([later!.id]);
  await context.close();
});

test('a frozen leader tab hands replication to another tab, and sends nothing itself once it wakes', async ({
  browser,
  request,
}) => {
  test.setTimeout(180_000);
  const run = Date.now().toString(36);
  const brand = await createConfirmedAccount(request, { role: 'brand', fullName: `Freeze Brand ${run}` });
  const creator = await createConfirmedAccount(request, { role: 'creator', fullName: `Freeze Creator ${run}` });
  const [woken] = await seedDeals(brand.email, [`Applied from the woken tab ${run}`]);
  const { context, first } = await signedInContext(browser, creator);
  await first.goto(`/deals/${woken!.id}`);
  await expect(new DealDetailPage(first).applyButton).toBeVisible();
  const second = await context.newPage();
  await second.goto('/deals');
  await waitForSynced(second);
  // The leader is paused only once it has written what the second tab's arrival made it pull: paused
  // inside an IndexedDB transaction, it would hold the deals store from every other tab, which a frozen
  // tab never does (the browser does not freeze a page holding IndexedDB locks).
  await waitForSynced(first);

  // Headless Chromium ignores Page.setWebLifecycleState 'frozen' for a page that is on screen (no
  // freeze event, timers keep running), so the leader is frozen the way a hung page is: paused in the
  // debugger it runs no script, answers no message and keeps its Web Lock, exactly like a frozen tab.
  const cdp = await context.newCDPSession(first);
  await cdp.send('Debugger.enable');
  const paused = new Promise((resolve) => cdp.once('Debugger.paused', resolve));
  await cdp.send('Debugger.pause');
  await paused;

  const [later] = await seedDeals(brand.email, [`After the freeze ${run}`]);
  await expect(second.getByText(`After the freeze ${run}`).first()).toBeVisible({ timeout: 45_000 });
  await second.goto(`/deals/${later!.id}`);
  await new DealDetailPage(second).applyButton.click();
  await expect(second.getByText('Application submitted!').first()).toBeVisible();
  await expect.poll(() => applicationsOf(creator.email), { timeout: 45_000 }).toEqual([later!.id]);

  // The frozen tab wakes: it finds the lock gone and leaves syncing to the new leader, which also sends
  // the write made in the woken tab.
  const sentByWoken: string[] = [];
  first.on('request', (r) => {
    if (r.url().includes('/sync/v1/')) sentByWoken.push(`${r.method()} ${r.url()}`);
  });
  await cdp.send('Debugger.resume');
  await cdp.send('Debugger.disable');
  await new DealDetailPage(first).applyButton.click();
  await expect(first.getByText('Application submitted!').first()).toBeVisible();
  await expect.poll(() => applicationsOf(creator.email), { timeout: 45_000 }).toEqual([later!.id, woken!.id].sort());
  await waitForSynced(first);
  expect(sentByWoken).toEqual([]);
  await context.close();
});

test('two tabs writing offline: both writes land once the device is back online', async ({ browser, request }) => {
  test.setTimeout(150_000);
  const run = Date.now().toString(36);
  const brand = await createConfirmedAccount(request, { role: 'brand', fullName: `Offline Brand ${run}` });
  const creator = await createConfirmedAccount(request, { role: 'creator', fullName: `Offline Creator ${run}` });
  const deals = await seedDeals(brand.email, [`Tab one deal ${run}`, `Tab two deal ${run}`]);
  const { context, first } = await signedInContext(browser, creator);
  const second = await context.newPage();
  await first.goto(`/deals/${deals[0]!.id}`);
  await second.goto(`/deals/${deals[1]!.id}`);
  await expect(new DealDetailPage(first).applyButton).toBeVisible();
  await expect(new DealDetailPage(second).applyButton).toBeVisible();

  await context.setOffline(true);
  await new DealDetailPage(first).applyButton.click();
  await expect(first.getByText('Application submitted!').first()).toBeVisible();
  await new DealDetailPage(second).applyButton.click();
  await expect(second.getByText('Application submitted!').first()).toBeVisible();
  expect(await applicationsOf(creator.email)).toEqual([]);

  await context.setOffline(false);
  await expect.poll(() => applicationsOf(creator.email), { timeout: 60_000 }).toEqual(deals.map((d) => d.id).sort());
  await context.close();
});
