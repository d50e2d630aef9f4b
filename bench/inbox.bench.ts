/**
 * `npm run bench:messages` (second part): a message sent in one Chromium, until it shows in the other
 * person's open conversation in another Chromium, against the built app (dist/) and the real server.
 *
 * Two devices (each Chromium with its own on-disk profile): a creator who applied to a brand's deal
 * and that brand, both signed in and synced, both with the conversation open. The creator types each
 * message and presses Enter (what a user does); measured from just before the key press (in the
 * creator's page) until the text is in the brand's page (a MutationObserver there), both read as epoch milliseconds
 * of the same machine's clock. Prints median and p95 (goal p95 ≤ 150 ms) with the load average.
 */
import { loadavg } from 'node:os';
import type { Page } from 'playwright-core';
import { withE2eDatabase } from '../tests/e2e/support/e2e-server-info.ts';
import { openDevice } from './support/device-browser.ts';
import { startBenchServer } from './support/e2e-server.ts';
import { confirmedAccount, recordFirstSeen, signInAndSync } from './support/local-data-screens.ts';

const PORT = Number(process.env.BENCH_PORT ?? 4299);
const ORIGIN = `http://127.0.0.1:${PORT}`;
const SAMPLES = Number(process.env.BENCH_MESSAGES ?? 30);
// The e2e fixtures' database helpers find the server through this.
process.env.E2E_PORT = String(PORT);

const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(' / ');
const sorted = (values: number[]) => [...values].sort((a, b) => a - b);
const median = (values: number[]) => sorted(values)[Math.floor(values.length / 2)]!;
const p95 = (values: number[]) => sorted(values)[Math.min(values.length - 1, Math.ceil(values.length * 0.95) - 1)]!;

type Sample = { totalMs: number; toPushMs: number; pushMs: number; toPullMs: number; pullMs: number; screenMs: number };

/** Resource timings of `path` requests in `page`, as wall-clock (Date.now) milliseconds. */
async function requests(page: Page, path: string): Promise<{ start: number; end: number }[]> {
  return page.evaluate((wanted) => {
    const offset = Date.now() - performance.now();
    return (performance.getEntriesByType('resource') as PerformanceResourceTiming[])
      .filter((e) => e.name.includes(wanted))
      .map((e) => ({ start: offset + e.startTime, end: offset + e.responseEnd }));
  }, path);
}

/**
 * One message: typed and sent with Enter by the creator, until it is on the brand's screen. Both pages
 * read the same wall clock (Date.now), so the two browsers' times compare. Where it went: the
 * creator's push of the message, then the brand's pull that brought it.
 */
async function sendAndSee(sender: Page, receiver: Page, body: string): Promise<Sample> {
  await receiver.evaluate((wanted) => {
    const w = window as unknown as { __seenAt?: Record<string, number> };
    const seen = (w.__seenAt ??= {});
    const observer = new MutationObserver(() => {
      if (!(document.querySelector('.message-log')?.textContent ?? '').includes(wanted)) return;
      seen[wanted] = Date.now();
      observer.disconnect();
    });
    observer.observe(document.body, { childList: true, subtree: true, characterData: true });
  }, body);
  const input = sender.getByPlaceholder('Type a message...');
  await input.fill(body);
  // Read just before the key press (a real one, through the browser's input pipeline): what is measured
  // includes the few milliseconds Playwright takes to deliver it, never less than the real latency.
  const sentAt = await sender.evaluate(() => Date.now());
  await input.press('Enter');
  await receiver.waitForFunction(
    (wanted) => (window as unknown as { __seenAt: Record<string, number> }).__seenAt[wanted] !== undefined,
    body,
    { timeout: 30_000, polling: 50 },
  );
  const seenAt = await receiver.evaluate(
    (wanted) => (window as unknown as { __seenAt: Record<string, number> }).__seenAt[wanted]!,
    body,
  );
  const push = (await requests(sender, '/sync/v1/messages/push')).filter((r) => r.start >= sentAt - 5).at(0);
  const pull = (await requests(receiver, '/sync/v1/messages/pull'))
    .filter((r) => r.start >= (push?.end ?? sentAt) - 5 && r.end <= seenAt + 1)
    .at(-1);
  const nan = Number.NaN;
  return {
    totalMs: seenAt - sentAt,
    toPushMs: push ? push.start - sentAt : nan,
    pushMs: push ? push.end - push.start : nan,
    toPullMs: push && pull ? pull.start - push.end : nan,
    pullMs: pull ? pull.end - pull.start : nan,
    screenMs: pull ? seenAt - pull.end : nan,
  };
}

const server = await startBenchServer(PORT);
const creatorDevice = await openDevice();
const brandDevice = await openDevice();
try {
  const brand = await confirmedAccount(ORIGIN, 'brand', 'bench-inbox-brand');
  const creator = await confirmedAccount(ORIGIN, 'creator', 'bench-inbox-creator');
  const dealId = await withE2eDatabase(async (client) => {
    const { rows } = await client.query<{ id: string }>(
      `insert into public.deals (id, brand_id, title, description, amount_cents, niches)
       select gen_random_uuid(), u.id, 'Inbox bench deal', 'A deal to talk about.', 50000, '{Travel}'
         from auth.users u where u.email = $1 returning id`,
      [brand.email],
    );
    await client.query(
      `insert into public.applications (id, deal_id, creator_id, pitch)
       select gen_random_uuid(), $1, u.id, 'I would love to make this.' from auth.users u where u.email = $2`,
      [rows[0]!.id, creator.email],
    );
    return rows[0]!.id;
  });

  const creatorPage = creatorDevice.context.pages()[0] ?? (await creatorDevice.context.newPage());
  const brandPage = brandDevice.context.pages()[0] ?? (await brandDevice.context.newPage());
  // Signed in and synced as a user does (the sign-in screen, then the dashboard with its first card).
  await Promise.all([recordFirstSeen(creatorDevice.context), recordFirstSeen(brandDevice.context)]);
  await signInAndSync(creatorPage, ORIGIN, creator);
  await signInAndSync(brandPage, ORIGIN, brand);
  // The creator opens the conversation from the deal, as a user does; the brand opens the same one.
  await creatorPage.goto(`${ORIGIN}/deals/${dealId}`);
  await creatorPage.getByRole('link', { name: 'Message brand' }).click();
  await creatorPage.waitForURL(/\/inbox\/[0-9a-f-]{36}$/);
  const conversationId = creatorPage.url().split('/').pop()!;
  // The first message creates the conversation on the server; then the brand opens it.
  await sendAndSee(creatorPage, creatorPage, 'Hello! Opening the conversation.');
  await brandPage.goto(`${ORIGIN}/inbox/${conversationId}`);
  await brandPage.locator('.message-log').getByText('Hello! Opening the conversation.').waitFor({ timeout: 60_000 });

  const loadBefore = load();
  const runs: Sample[] = [];
  for (let i = 1; i <= SAMPLES; i++) runs.push(await sendAndSee(creatorPage, brandPage, `Bench message ${i}.`));
  const samples = runs.map((r) => r.totalMs);
  const part = (pick: (r: Sample) => number) => {
    const values = runs.map(pick).filter((v) => !Number.isNaN(v));
    return values.length ? `median ${median(values).toFixed(0)} / p95 ${p95(values).toFixed(0)} ms` : 'none seen';
  };
  console.log(
    `\nMessage sent in one Chromium → shown in the other person's open conversation (${SAMPLES} messages, Enter to screen):`,
  );
  console.log(
    `  median ${median(samples).toFixed(0)} ms, p95 ${p95(samples).toFixed(0)} ms (goal p95 ≤ 150 ms); runs: ${samples.map((s) => s.toFixed(0)).join(', ')}`,
  );
  console.log(
    `  where it went: key → push sent ${part((r) => r.toPushMs)}; push in flight ${part((r) => r.pushMs)}; push answered → the other's pull sent ${part((r) => r.toPullMs)}; pull in flight ${part((r) => r.pullMs)}; pull answered → on screen ${part((r) => r.screenMs)}`,
  );
  console.log(`  load average (1/5/15 min) before: ${loadBefore}; after: ${load()} (2 cores)`);
} finally {
  await creatorDevice.close();
  await brandDevice.close();
  server.stop();
}
