/**
 * Commit on the server → visible on an open screen, in Chromium, with where the time went: a change
 * sent as rows in the change stream needs no pull; for the others, the change notice's pull (Resource Timing: when the tab sent it, how long it was in flight)
 * and the moment the text is in the DOM (a MutationObserver in the page, not Playwright's polling).
 *   notice = commit → the pull is sent (Postgres NOTIFY, the instance's fan-out, SSE, the client's
 *            replication queue);
 *   pull   = the pull request in flight (server transaction and queries, JSON, network);
 *   screen = the pull's response → the text on screen (RxDB write, live query, React render).
 */
import type { CDPSession, Page } from 'playwright-core';

export type LiveSample = {
  /** Epoch ms the commit returned. */
  committedAt: number;
  totalMs: number;
  noticeMs: number;
  pullMs: number;
  screenMs: number;
};

/** Watches the page for `text`, then commits (`commit` returns the epoch ms of the commit) and waits. */
export async function liveSample(
  page: Page,
  collection: string,
  text: string,
  commit: () => Promise<number>,
): Promise<LiveSample> {
  await page.evaluate('globalThis.__name ??= (fn) => fn');
  await page.evaluate((wanted) => {
    const w = window as unknown as { __seenAt?: Record<string, number> };
    w.__seenAt ??= {};
    const seen = w.__seenAt;
    const observer = new MutationObserver(() => {
      if (!document.body.innerText.includes(wanted)) return;
      seen[wanted] = performance.timeOrigin + performance.now();
      observer.disconnect();
    });
    observer.observe(document.body, { childList: true, subtree: true, characterData: true });
  }, text);
  const committedAt = await commit();
  await page.waitForFunction(
    (wanted) => (window as unknown as { __seenAt: Record<string, number> }).__seenAt[wanted] !== undefined,
    text,
    {
      timeout: 120_000,
      polling: 50,
    },
  );
  const { seenAt, pulls } = await page.evaluate(
    ({ wanted, name }) => ({
      seenAt: (window as unknown as { __seenAt: Record<string, number> }).__seenAt[wanted]!,
      pulls: (performance.getEntriesByType('resource') as PerformanceResourceTiming[])
        .filter((e) => e.name.includes(`/sync/v1/${name}/pull`))
        .map((e) => ({ start: performance.timeOrigin + e.startTime, end: performance.timeOrigin + e.responseEnd })),
    }),
    { wanted: text, name: collection },
  );
  // The pull that brought it: the last one sent after the commit that ended before the text showed.
  const pull = pulls.filter((p) => p.start >= committedAt - 5 && p.end <= seenAt).at(-1);
  const totalMs = seenAt - committedAt;
  if (!pull) return { committedAt, totalMs, noticeMs: Number.NaN, pullMs: Number.NaN, screenMs: Number.NaN };
  return {
    committedAt,
    totalMs,
    noticeMs: pull.start - committedAt,
    pullMs: pull.end - pull.start,
    screenMs: seenAt - pull.end,
  };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;
/** The 95th percentile of `values` (NaN when there are none). */
export const p95 = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.ceil(values.length * 0.95) - 1)] ?? Number.NaN;

export function liveReport(first: LiveSample, samples: LiveSample[]): string {
  const part = (pick: (s: LiveSample) => number) => {
    const values = samples.map(pick).filter((v) => !Number.isNaN(v));
    return `median ${median(values).toFixed(0)} / p95 ${p95(values).toFixed(0)} ms`;
  };
  const totals = samples.map((s) => s.totalMs);
  // A change the server sends as rows in the change stream needs no pull (nothing to split then).
  const streamed = samples.filter((s) => Number.isNaN(s.pullMs)).length;
  const pulled = samples.length - streamed;
  return [
    `  deal committed on the server → on the open dashboard: right after the first sync ${first.totalMs.toFixed(0)} ms; then median ${median(totals).toFixed(0)} ms, p95 ${p95(totals).toFixed(0)} ms over ${samples.length} (goal p95 ≤ 100 ms; runs: ${totals.map((t) => t.toFixed(0)).join(', ')})`,
    `    ${streamed} of ${samples.length} arrived as rows in the change stream (no pull)` +
      (pulled
        ? `; the ${pulled} pulled: notice (commit → pull sent) ${part((s) => s.noticeMs)}; pull in flight ${part((s) => s.pullMs)}; write + live query + render ${part((s) => s.screenMs)}`
        : ''),
  ].join('\n');
}

/**
 * When bytes of the tab's change stream (`/sync/v1/stream`) arrived, in epoch ms, from the DevTools
 * protocol (the app reads the stream with fetch, so the page sees no EventSource of its own): the first
 * chunk after a commit is, on a quiet stream, the event that carries it.
 */
export async function watchChangeStream(
  cdp: CDPSession,
): Promise<{ firstChunkAfter(epochMs: number): number | undefined }> {
  let stream: { requestId: string; offsetMs: number } | undefined;
  const chunks: number[] = [];
  cdp.on('Network.requestWillBeSent', (e) => {
    // The newest stream (after a reconnect too); `timestamp` is monotonic seconds, `wallTime` epoch seconds.
    if (e.request.url.includes('/sync/v1/stream'))
      stream = { requestId: e.requestId, offsetMs: (e.wallTime! - e.timestamp) * 1000 };
  });
  cdp.on('Network.dataReceived', (e) => {
    if (stream && e.requestId === stream.requestId) chunks.push(e.timestamp * 1000 + stream.offsetMs);
  });
  await cdp.send('Network.enable');
  return { firstChunkAfter: (epochMs) => chunks.find((at) => at >= epochMs) };
}
