import type { BrowserContext } from '@playwright/test';
import { createConfirmedAccount } from './pages/auth-mailbox.ts';
import { SignInPage } from './pages/auth-pages.ts';
import { DashboardPage } from './pages/dashboard-page.ts';
import { withE2eDatabase } from './support/e2e-server-info.ts';
import { expect, test } from './support/console-errors.ts';

type PushSeen = { collection: string; status: number; ids: string[] };

/** Records every push the context sends (what it pushed and what the server answered). */
async function recordPushes(context: BrowserContext): Promise<PushSeen[]> {
  const seen: PushSeen[] = [];
  await context.route('**/sync/v1/*/push', async (route) => {
    const collection = new URL(route.request().url()).pathname.split('/')[3] ?? '?';
    const body = route.request().postDataJSON() as { rows?: { newDocumentState?: { id?: string } }[] } | null;
    const response = await route.fetch();
    if (process.env.DUMP_PUSHES)
      (await import('node:fs')).appendFileSync('/tmp/hardening-pushes.jsonl', `${route.request().postData()}\n`);
    seen.push({
      collection,
      status: response.status(),
      ids: (body?.rows ?? []).map((r) => r.newDocumentState?.id ?? '?'),
    });
    await route.fulfill({ response });
  });
  return seen;
}

// "The client never pushes what the user did not write": a creator with a big first sync (many deals,
// applications and growth records) reloads the app (navigates to /my-deals) about 0.8 s after landing on
// the dashboard, while the first sync is still writing. The user changed nothing, so nothing may be
// pushed: no growth row (read-only), no pulled deal, application or profile.
test('a reload during the first sync pushes nothing the user did not write', async ({ browser, request }) => {
  test.setTimeout(240_000);
  const creator = await createConfirmedAccount(request, { role: 'creator', fullName: 'Rae Reload' });
  const brand = await createConfirmedAccount(request, { role: 'brand', fullName: 'Reload Brand' });
  await withE2eDatabase(async (client) => {
    const id = async (email: string) =>
      (await client.query<{ id: string }>('select id from auth.users where email = $1', [email])).rows[0]!.id;
    const creatorId = await id(creator.email);
    const brandId = await id(brand.email);
    await client.query(
      `insert into public.deals (id, brand_id, title, description, amount_cents, niches)
       select gen_random_uuid(), $1, 'Reload deal ' || n, 'A sponsorship brief that fills the first sync.', 10000 + n, '{Travel}'
         from generate_series(1, 1500) n`,
      [brandId],
    );
    await client.query(
      `insert into public.applications (id, deal_id, creator_id, pitch)
       select gen_random_uuid(), d.id, $1, 'I would love to.' from public.deals d where d.brand_id = $2 limit 150`,
      [creatorId, brandId],
    );
    await client.query(
      `insert into public.xp_logs (user_id, action, xp_gained, total_xp)
       select $1, 'seeded_' || n, 1, n from generate_series(1, 400) n`,
      [creatorId],
    );
  });

  // The 1,500 open deals would join every later creator's first sync on this shared server: the
  // brand cancels them once the devices are done (cancelled deals leave other creators' feeds).
  const pushes: PushSeen[] = [];
  try {
    // The race is a matter of timing: several fresh devices, each reloading at a different moment.
    for (const delayMs of [500, 800, 800, 1_100, 1_500]) {
      const context = await browser.newContext();
      const seen = await recordPushes(context);
      const page = await context.newPage();
      await new SignInPage(page).signInToDashboard(creator.email, creator.password);
      await page.waitForTimeout(delayMs);
      await page.goto('/my-deals');
      await page.goto('/dashboard');
      const dashboard = new DashboardPage(page);
      await dashboard.expectLoaded('Rae Reload');
      await expect(dashboard.syncLabel).toHaveText('Synced', { timeout: 60_000 });
      // The replication's first push pass runs beside the pulls: give a late one the chance to show.
      await page.waitForTimeout(1_500);
      pushes.push(...seen);
      await context.close();
    }
  } finally {
    await withE2eDatabase((client) =>
      client.query(
        `update public.deals set status = 'cancelled'
          where brand_id = (select id from auth.users where email = $1) and status = 'open'`,
        [brand.email],
      ),
    );
  }
  expect(
    pushes.map((p) => `${p.collection}: ${p.ids.length} row(s), answered ${p.status}`),
    'pushes of documents the user never changed',
  ).toEqual([]);
});
