/**
 * The screens of `npm run bench:web` with big local data: what a brand and a creator wait for when
 * their device holds 10,000 deals and (the brand's) 50,000 applications. Seeding, and the timings
 * taken in the page itself (performance.now(), from the navigation start or from the click).
 */
import { loadavg } from 'node:os';
import pg from 'pg';
import type { BrowserContext, CDPSession, Page } from 'playwright-core';
import { AUTH_HEADERS } from './confirmed-brand.ts';

export const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(' / ');
export const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
export const ms = (values: number[]) => values.map((v) => v.toFixed(0)).join(', ');

/** The categories a deal can be given (the create form's list); the bench spreads its deals over them. */
const CATEGORIES = [
  'Sponsored Post',
  'Product Review',
  'Brand Ambassador',
  'Giveaway',
  'Tutorial',
  'Unboxing',
  'Event Coverage',
  'Affiliate',
];
const NICHES = ['Fitness', 'Travel', 'Food', 'Gaming', 'Beauty', 'Tech'];

/** An account signed up through the public auth API and confirmed from the dev mailbox. */
export async function confirmedAccount(
  origin: string,
  role: 'brand' | 'creator',
  prefix: string,
): Promise<{ email: string; password: string }> {
  const email = `${prefix}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 7)}@example.test`;
  const password = 'correct-horse-battery';
  const signUp = await fetch(`${origin}/auth/v1/signup`, {
    method: 'POST',
    headers: AUTH_HEADERS,
    body: JSON.stringify({
      email,
      password,
      data: {
        full_name: `Bench ${role} ${prefix}`,
        role,
        niches: ['Fitness', 'Travel'],
        social_links:
          role === 'brand'
            ? { linkedin: 'https://linkedin.com/company/bench' }
            : { instagram: 'https://instagram.com/bench' },
      },
    }),
  });
  if (!signUp.ok) throw new Error(`sign-up failed: ${signUp.status} ${await signUp.text()}`);
  const mailbox = (await (
    await fetch(`${origin}/auth/v1/dev/mailbox.json?email=${encodeURIComponent(email)}`)
  ).json()) as { messages: { kind: string; action_link: string }[] };
  const link = mailbox.messages.find((m) => m.kind === 'signup')?.action_link;
  if (!link) throw new Error('no confirmation e-mail in the dev mailbox');
  await fetch(link, { redirect: 'manual' });
  return { email, password };
}

async function onServerDatabase<T>(databaseUrl: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/**
 * One new deal of the brand's, committed on the server (the kind of change a notice announces); returns
 * the epoch ms the commit returned (not after the connection closed).
 */
export async function publishDeal(databaseUrl: string, brandEmail: string, title: string): Promise<number> {
  return onServerDatabase(databaseUrl, async (client) => {
    await client.query(
      `insert into public.deals (id, brand_id, title, description, amount_cents, niches)
       select gen_random_uuid(), u.id, $2, 'Published while the dashboard is open.', 30000, '{Travel}' from auth.users u where u.email = $1`,
      [brandEmail, title],
    );
    return Date.now();
  });
}

/**
 * The brand's `deals` open deals (spread over the categories, amounts and niches, none Pro-only so a
 * free creator's device holds every one), and `perDeal` pending applications to each from the
 * creators (each creator applying to deals / creators × perDeal of them).
 */
export async function seedBigLocalData(
  databaseUrl: string,
  opts: { brandEmail: string; creatorEmails: string[]; deals: number; perDeal: number },
): Promise<{ deals: number; applications: number; seedMs: number }> {
  const started = Date.now();
  return onServerDatabase(databaseUrl, async (client) => {
    await client.query(
      `insert into public.deals (id, brand_id, title, description, amount_cents, niches, category, deliverables)
       select gen_random_uuid(), u.id, 'Bench deal ' || n, 'A sponsorship brief used by the local-data benchmark.',
              100 * (50 + (n * 37) % 5000), array[($3::text[])[1 + n % cardinality($3::text[])]], ($4::text[])[1 + n % cardinality($4::text[])], '{Instagram Post}'
         from auth.users u, generate_series(1, $2) n where u.email = $1`,
      [opts.brandEmail, opts.deals, NICHES, CATEGORIES],
    );
    // Creator k applies to the deals n with n ≡ k (mod groups): perDeal creators per deal. The rules
    // check each application (b_rules: an open deal, a creator, once); its effects (z_effects: the
    // deal's count, XP, a notification to the brand) are left out here and the counts set after:
    // 50,000 notifications and profile updates are not what this bench reads, and would take minutes
    // to write (and double the brand's first sync).
    const groups = opts.creatorEmails.length / opts.perDeal;
    await client.query('alter table public.applications disable trigger z_effects');
    let applications = 0;
    try {
      const { rowCount } = await client.query(
        `with d as (select d.id, row_number() over (order by d.id) as n from public.deals d join auth.users u on u.id = d.brand_id where u.email = $1),
              c as (select u.id, row_number() over (order by u.email) as k from auth.users u where u.email = any($2::text[]))
         insert into public.applications (id, deal_id, creator_id, pitch)
         select gen_random_uuid(), d.id, c.id, 'I would love to make this.' from d join c on d.n % $3 = c.k % $3`,
        [opts.brandEmail, opts.creatorEmails, groups],
      );
      applications = rowCount ?? 0;
    } finally {
      await client.query('alter table public.applications enable trigger z_effects');
    }
    await client.query(
      `update public.deals d set applications_count = a.n
         from (select deal_id, count(*)::int as n from public.applications group by deal_id) a
        where a.deal_id = d.id`,
    );
    return { deals: opts.deals, applications, seedMs: Date.now() - started };
  });
}

/**
 * Signs in through the sign-in screen; answers when every collection's first pull is done (`syncMs`,
 * from the click) and when the dashboard first showed a deal card (`firstCardMs`, from the click; the
 * sign-in screen and the dashboard are one page load, so both are read from the same clock).
 */
export async function signInAndSync(
  page: Page,
  origin: string,
  account: { email: string; password: string },
  /** Runs once the dashboard shows its first card, while the first sync goes on. */
  duringFirstSync?: () => Promise<void>,
): Promise<{ syncMs: number; firstCardMs: number; marks: string }> {
  await page.goto(`${origin}/auth/signin`);
  await page.getByLabel('Email', { exact: true }).fill(account.email);
  await page.getByLabel('Password', { exact: true }).fill(account.password);
  const start = Date.now();
  const clickedAt = await page.evaluate(() => performance.now());
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.waitForURL(/\/dashboard$/);
  if (duringFirstSync) {
    await page.locator(READY.dashboard).first().waitFor({ timeout: 60_000 });
    await duringFirstSync();
  }
  await page
    .getByTestId('sync-status-label')
    .filter({ hasText: /^Synced$/ })
    .waitFor({ timeout: 900_000 });
  const syncMs = Date.now() - start;
  await page.locator(READY.dashboard).first().waitFor({ timeout: 60_000 });
  const cardAt = await page.evaluate(
    () => (window as unknown as { __firstSeen: Record<string, number> }).__firstSeen.dashboard ?? Number.NaN,
  );
  await page.evaluate(() => navigator.serviceWorker.ready);
  return { syncMs, firstCardMs: cardAt - clickedAt, marks: marksFrom(await bootMarks(page), clickedAt) };
}

/** The app's boot marks of a page load (src/lib/boot-marks.ts), in ms from `from`, in the order they happened. */
export function marksFrom(marks: BootMarks, from: number): string {
  return Object.entries(marks as Record<string, number>)
    .sort((a, b) => a[1] - b[1])
    .map(([name, at]) => `${name} ${(at - from).toFixed(0)}`)
    .join(', ');
}

/** What "usable" means per screen: a selector that appears once the screen shows its data. */
export const READY = {
  // A real deal card: not an application whose deal has not reached the device yet.
  dashboard: '.dashboard .item-card:not(.item-card-no-deal)',
  deals: 'section[aria-labelledby="all-deals-heading"] article',
  myDeals: '.my-deals .my-deal',
  swipe: 'article.swipe-card',
  // The inbox once its conversations (or that there are none) are read.
  inbox: '.inbox-layout',
  // A page that reads no local data: the yardstick for the same run.
  terms: 'main h1',
} as const;

/**
 * Records, in every page of the context, when each READY selector first matches (performance.now(),
 * from the navigation start). The dashboard also needs its welcome heading.
 */
export async function recordFirstSeen(context: BrowserContext): Promise<void> {
  // tsx (esbuild, keepNames) wraps the functions declared inside the bench's page functions in
  // `__name(…)`; the page has no such helper.
  await context.addInitScript({ content: 'window.__name = (fn) => fn;' });
  await context.addInitScript((ready: Record<string, string>) => {
    const w = window as unknown as { __firstSeen: Record<string, number> };
    w.__firstSeen = {};
    const observer = new MutationObserver(() => {
      for (const [name, selector] of Object.entries(ready)) {
        if (w.__firstSeen[name] !== undefined || !document.querySelector(selector)) continue;
        if (name === 'dashboard' && !(document.querySelector('h1')?.textContent ?? '').startsWith('Welcome back'))
          continue;
        w.__firstSeen[name] = performance.now();
      }
      if (Object.keys(w.__firstSeen).length > 0 && performance.now() > 60_000) observer.disconnect();
    });
    observer.observe(document, { childList: true, subtree: true, characterData: true });
  }, READY);
}

/** A full page load of `path` until its screen is usable (ms from the navigation start). */
export async function loadUntilUsable(
  page: Page,
  origin: string,
  path: string,
  screen: keyof typeof READY,
): Promise<number> {
  if (new URL(page.url()).pathname === path) await page.reload();
  else await page.goto(`${origin}${path}`);
  await page.waitForFunction(
    (name) => (window as unknown as { __firstSeen: Record<string, number> }).__firstSeen[name] !== undefined,
    screen,
    { timeout: 120_000 },
  );
  return page.evaluate(
    (name) => (window as unknown as { __firstSeen: Record<string, number> }).__firstSeen[name]!,
    screen,
  );
}

/** An in-app navigation (the router, no page load) to `path` until `selector` shows (ms from the navigation). */
export async function navigateUntil(page: Page, path: string, selector: string): Promise<number> {
  return page.evaluate(
    ({ path, selector }) =>
      new Promise<number>((resolve, reject) => {
        const start = performance.now();
        const done = () => {
          if (!document.querySelector(selector)) return false;
          observer.disconnect();
          resolve(performance.now() - start);
          return true;
        };
        const observer = new MutationObserver(done);
        observer.observe(document, { childList: true, subtree: true, characterData: true });
        history.pushState({}, '', path);
        dispatchEvent(new PopStateEvent('popstate'));
        setTimeout(() => {
          observer.disconnect();
          reject(new Error(`${selector} did not show after navigating to ${path}`));
        }, 60_000);
      }),
    { path, selector },
  );
}

export type FilterChange = { cardsMs: number; countMs: number };

/**
 * On /deals: chooses `category` in the filter bar ('' = all) and times until the cards are the filtered ones
 * (the first three cards changed) and until the heading's total is the filtered one.
 */
export async function changeCategory(page: Page, category: string): Promise<FilterChange> {
  // The total is counted after the first cards show: a change made before it arrives would take its
  // arrival for the filtered total.
  await page.waitForSelector('section[aria-labelledby="all-deals-heading"] .deals-count');
  return page.evaluate(
    (category) =>
      new Promise<FilterChange>((resolve, reject) => {
        const region = document.querySelector('section[aria-labelledby="all-deals-heading"]')!;
        const cards = () =>
          [...region.querySelectorAll('article h3, article h2')]
            .slice(0, 3)
            .map((h) => h.textContent)
            .join('|');
        const count = () => region.querySelector('.deals-count')?.textContent ?? '';
        const beforeCards = cards();
        const beforeCount = count();
        const select = document.querySelector<HTMLSelectElement>('.deal-filters select')!;
        let cardsMs: number | undefined;
        const start = performance.now();
        const check = () => {
          cardsMs ??= cards() !== beforeCards && cards() !== '' ? performance.now() - start : undefined;
          if (cardsMs !== undefined && count() !== beforeCount && count() !== '') {
            observer.disconnect();
            resolve({ cardsMs, countMs: performance.now() - start });
          }
        };
        const observer = new MutationObserver(check);
        observer.observe(region, { childList: true, subtree: true, characterData: true });
        Object.getOwnPropertyDescriptor(HTMLSelectElement.prototype, 'value')!.set!.call(select, category);
        select.dispatchEvent(new Event('change', { bubbles: true }));
        setTimeout(() => {
          observer.disconnect();
          reject(
            new Error(
              `the deals did not change for '${category}': cards ${beforeCards} → ${cards()}, count ${beforeCount} → ${count()}`,
            ),
          );
        }, 60_000);
      }),
    category,
  );
}

/**
 * The filter changes timed on /deals: a category, then back to all categories, five times (each
 * change alters the cards and the total; every category holds as many deals as the others).
 */
export const FILTER_CHANGES = ['Tutorial', '', 'Giveaway', '', 'Unboxing', '', 'Affiliate', '', 'Event Coverage', ''];

/**
 * The JS heap of the tab after each of five rounds of in-app navigations through `route`, each
 * measured after a full garbage collection (MB).
 */
export async function heapAcrossNavigations(
  page: Page,
  cdp: CDPSession,
  route: readonly { path: string; ready: string }[],
): Promise<number[]> {
  const heap: number[] = [];
  for (let i = 0; i < 5; i++) {
    for (const step of route) await navigateUntil(page, step.path, step.ready);
    await cdp.send('HeapProfiler.collectGarbage');
    const { usedSize } = (await cdp.send('Runtime.getHeapUsage')) as { usedSize: number };
    heap.push(usedSize / 1024 / 1024);
  }
  return heap;
}

/**
 * How many records each of the user's IndexedDB databases holds (its largest object store), by the
 * name's last part: the collections, and RxDB's replication meta stores (`rx-replication-meta-…`),
 * where a full replication keeps a second copy of every pulled document and a pull-only one none.
 */
export async function storedRecords(page: Page): Promise<string> {
  return (await recordCounts(page))
    .sort((a, b) => b[1] - a[1])
    .map(([name, n]) => `${name} ${n}`)
    .join(', ');
}

/** The records of one collection on the device (its largest store: documents, or their server states). */
export async function storedIn(page: Page, collection: string): Promise<number> {
  return (await recordCounts(page, `--${collection}`))[0]?.[1] ?? 0;
}

/**
 * Each of the user's IndexedDB databases (RxDB's, one per collection or meta store), or only those whose
 * name ends with `suffix`, with its largest store's count.
 */
async function recordCounts(page: Page, suffix = ''): Promise<[string, number][]> {
  await page.evaluate('globalThis.__name ??= (fn) => fn');
  const counts = await page.evaluate(async (suffix) => {
    const request = <T>(r: IDBRequest<T>) =>
      new Promise<T>(
        (resolve, reject) => ((r.onsuccess = () => resolve(r.result)), (r.onerror = () => reject(r.error))),
      );
    const out: [string, number][] = [];
    for (const { name } of await indexedDB.databases()) {
      if (!name?.startsWith('rxdb-dexie-pacta-') || !name.endsWith(suffix)) continue;
      const db = await request(indexedDB.open(name));
      let most = 0;
      for (const store of Array.from(db.objectStoreNames))
        most = Math.max(most, await request(db.transaction(store).objectStore(store).count()));
      db.close();
      if (most > 0) out.push([name.split('--').slice(1).join('--'), most]);
    }
    return out;
  }, suffix);
  return counts;
}

/** The app's boot marks (src/lib/boot-marks.ts) of the page loaded last, in ms from its navigation start. */
export type BootMarks = Partial<
  Record<'database-opening' | 'session-restored' | 'database-open' | 'page-code-loaded' | 'first-local-result', number>
>;

export async function bootMarks(page: Page): Promise<BootMarks> {
  return page.evaluate(() =>
    Object.fromEntries(
      performance
        .getEntriesByType('mark')
        .filter((m) => m.name.startsWith('pacta:'))
        .map((m) => [m.name.slice('pacta:'.length), m.startTime]),
    ),
  );
}

/** "Where a warm start went": the median of each boot mark over `runs`, in the order they happen. */
export function bootReport(runs: BootMarks[]): string {
  const names = [
    'database-opening',
    'session-restored',
    'database-open',
    'page-code-loaded',
    'first-local-result',
  ] as const;
  return names
    .map((name) => {
      const values = runs.map((r) => r[name]).filter((v): v is number => v !== undefined);
      return `${name} ${values.length ? median(values).toFixed(0) : '—'}`;
    })
    .join(', ');
}
