/**
 * npm run bench:web (fourth part) — a message sent in one Chromium until it shows in another, against
 * the built app (dist/) and the real server on its own embedded Postgres.
 *
 * A creator and a brand, each on a device of its own (Chromium with an on-disk profile), signed in and
 * synced, both with their conversation open. The creator types a message and presses Enter; measured
 * from that key press until the message's text is in the brand's open conversation (a
 * MutationObserver in the brand's page; both browsers read the same system clock). Goal: p95 ≤ 150 ms.
 * Printed beside it, where the time went, each from Enter: the creator's push sent (local write, the
 * replication's push) and answered (the server's transaction); the brand's change stream's next bytes
 * (Postgres NOTIFY, the server's read of the brand's new rows, SSE); for a message that came by a notice
 * rather than as rows, the brand's pull sent and in flight, and its answer → on screen (RxDB write,
 * live query, React render). And, as the yardstick of the same run, a round trip to the server
 * (GET /api/health) from the creator's tab.
 */
import { readFileSync } from 'node:fs';
import pg from 'pg';
import type { Page } from 'playwright-core';
import { e2eServerInfoFile } from '../tests/e2e/support/e2e-server-info.ts';
import { openDevice, type Device } from './support/device-browser.ts';
import { startBenchServer } from './support/e2e-server.ts';
import { liveSample, p95, watchChangeStream } from './support/live-latency.ts';
import { confirmedAccount, load, median, recordFirstSeen, signInAndSync } from './support/local-data-screens.ts';

const PORT = Number(process.env.BENCH_PORT ?? 4296);
const ORIGIN = `http://127.0.0.1:${PORT}`;
const SAMPLES = Number(process.env.BENCH_MESSAGES ?? 40);
const GOAL_P95_MS = 150;

const server = await startBenchServer(PORT);
const databaseUrl = () =>
  (JSON.parse(readFileSync(e2eServerInfoFile(PORT), 'utf8')) as { databaseUrl: string }).databaseUrl;

/** A deal of the brand's, the creator's application to it and their conversation, written as the server. */
async function seedConversation(brandEmail: string, creatorEmail: string): Promise<string> {
  const client = new pg.Client({ connectionString: databaseUrl() });
  await client.connect();
  try {
    const { rows } = await client.query<{ id: string }>(
      `with b as (select id from auth.users where email = $1),
            c as (select id from auth.users where email = $2),
            d as (insert into public.deals (id, brand_id, title, description, amount_cents, niches)
                  select gen_random_uuid(), b.id, 'Message bench deal', 'A deal to talk about.', 30000, '{Travel}' from b
                  returning id, brand_id),
            a as (insert into public.applications (id, deal_id, creator_id, pitch)
                  select gen_random_uuid(), d.id, c.id, 'I would love to' from d, c returning deal_id)
       insert into public.conversations (id, user1_id, user2_id, deal_id, title)
       select public.conversation_id_for(c.id, d.brand_id, d.id), c.id, d.brand_id, d.id, 'Message bench deal'
         from d, c, a
       returning id`,
      [brandEmail, creatorEmail],
    );
    return rows[0]!.id;
  } finally {
    await client.end();
  }
}

async function signedInDevice(account: { email: string; password: string }): Promise<{ device: Device; page: Page }> {
  const device = await openDevice();
  await recordFirstSeen(device.context);
  const page = device.context.pages()[0] ?? (await device.context.newPage());
  await signInAndSync(page, ORIGIN, account);
  return { device, page };
}

/** Enter pressed in the creator's composer: the epoch ms of the key press (read in the page). */
async function send(page: Page, body: string): Promise<number> {
  const composer = page.getByPlaceholder('Type a message...');
  await composer.fill(body);
  await page.evaluate(() => {
    const w = window as unknown as { __enterAt?: number };
    delete w.__enterAt;
    document.addEventListener(
      'keydown',
      (e) => {
        if (e.key === 'Enter') w.__enterAt = performance.timeOrigin + performance.now();
      },
      { capture: true, once: true },
    );
  });
  await composer.press('Enter');
  return page.evaluate(() => (window as unknown as { __enterAt: number }).__enterAt);
}

/** The creator's push of the message (epoch ms): the first push sent after `from`. */
async function pushOf(page: Page, from: number): Promise<{ start: number; end: number }> {
  const push = await page.evaluate(
    (after) =>
      (performance.getEntriesByType('resource') as PerformanceResourceTiming[])
        .filter((e) => e.name.includes('/sync/v1/messages/push'))
        .map((e) => ({ start: performance.timeOrigin + e.startTime, end: performance.timeOrigin + e.responseEnd }))
        .find((e) => e.start >= after - 1),
    from,
  );
  return push ?? { start: Number.NaN, end: Number.NaN };
}

/** A GET /api/health round trip from the page (ms): the network and server floor of the same run. */
async function roundTrip(page: Page): Promise<number> {
  return page.evaluate(async () => {
    const start = performance.now();
    await (await fetch('/api/health', { cache: 'no-store' })).text();
    return performance.now() - start;
  });
}

const part = (values: number[]) => {
  const known = values.filter((v) => !Number.isNaN(v));
  return known.length === 0 ? '—' : `median ${median(known).toFixed(0)} / p95 ${p95(known).toFixed(0)} ms`;
};

try {
  const brand = await confirmedAccount(ORIGIN, 'brand', 'bench-message-brand');
  const creator = await confirmedAccount(ORIGIN, 'creator', 'bench-message-creator');
  const conversationId = await seedConversation(brand.email, creator.email);
  const [brandSide, creatorSide] = [await signedInDevice(brand), await signedInDevice(creator)];
  try {
    for (const side of [brandSide, creatorSide]) {
      await side.page.goto(`${ORIGIN}/inbox/${conversationId}`);
      await side.page.getByPlaceholder('Type a message...').waitFor();
    }
    const changeStream = await watchChangeStream(await brandSide.device.context.newCDPSession(brandSide.page));
    const totals: number[] = [];
    const pushSent: number[] = [];
    const pushes: number[] = [];
    const streamed: number[] = [];
    const notices: number[] = [];
    const pulls: number[] = [];
    const screens: number[] = [];
    // The first three warm the connections and the code paths up.
    for (let i = -3; i < SAMPLES; i++) {
      const body = `Bench message ${i} ${Math.random().toString(36).slice(2, 10)}`;
      let sentAt = 0;
      const sample = await liveSample(brandSide.page, 'messages', body, async () => {
        sentAt = await send(creatorSide.page, body);
        return sentAt;
      });
      if (i < 0) continue;
      totals.push(sample.totalMs);
      const push = await pushOf(creatorSide.page, sentAt);
      pushSent.push(push.start - sentAt);
      pushes.push(push.end - sentAt);
      streamed.push((changeStream.firstChunkAfter(push.start) ?? Number.NaN) - sentAt);
      notices.push(sample.noticeMs);
      pulls.push(sample.pullMs);
      screens.push(sample.screenMs);
      await brandSide.page.waitForTimeout(100);
    }
    const trips: number[] = [];
    for (let i = 0; i < 20; i++) trips.push(await roundTrip(creatorSide.page));
    console.log(`\nMessages between two Chromium devices (${SAMPLES} messages); load ${load()}`);
    console.log(
      `  Enter in the creator's conversation → shown in the brand's open conversation: median ${median(totals).toFixed(0)} ms, p95 ${p95(totals).toFixed(0)} ms, max ${Math.max(...totals).toFixed(0)} ms (goal p95 ≤ ${GOAL_P95_MS} ms)`,
    );
    console.log(
      `    from Enter: push sent ${part(pushSent)}; push answered ${part(pushes)}; the brand's change stream's next bytes ${part(streamed)}`,
    );
    const pulled = pulls.filter((p) => !Number.isNaN(p)).length;
    console.log(
      `    ${totals.length - pulled} of ${totals.length} arrived as rows in the brand's change stream (no pull)` +
        (pulled
          ? `; the ${pulled} pulled: Enter → the brand's pull sent ${part(notices)}; pull in flight ${part(pulls)}; pull answered → on screen ${part(screens)}`
          : ''),
    );
    console.log(`    the yardstick: GET /api/health from the tab ${part(trips)}`);
  } finally {
    await brandSide.device.close();
    await creatorSide.device.close();
  }
} finally {
  server.stop();
}
