/**
 * npm run bench:reco — how long recommendation scoring takes inside the recommendations worker.
 *
 * 1. Node: the real workers/recommendations.worker.ts in a worker thread through Comlink's node adapter
 *    (tests/support/recommendations-node-worker.ts).
 * 2. Chromium: src/lib/recommendations-client.ts bundled by Vite with its module worker
 *    (tests/support/recommendations-browser-harness.ts), timed from the page; a PerformanceObserver
 *    reports main-thread long tasks (≥ 50 ms) while loading and while scoring.
 * 10,000 deals and 10,000 creators are loaded once (timed separately, excluded from scoring figures);
 * each figure is a round trip from the calling thread: message out, scoring of all 10,000 in the
 * worker, answer back. Goal: ≤ 50 ms. Every case scores all documents; the limit only sizes the answer.
 * The full ranking is informational (no screen asks for 10,000 answers). Data is synthetic and seeded.
 * 3. The longest main-thread task during a 50-card swipe session on /swipe (bench/support/swipe-session.ts).
 * Set BENCH_RECO_SKIP_SWIPE=1 to leave out part 3 (it builds the app and starts a server: ~1 minute);
 * BENCH_RECO_PROFILE=1 adds a CPU profile of the main thread during the session (heaviest functions).
 */
import { existsSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import type {
  BrandInput,
  CreatorInput,
  DealInput,
  LoadSummary,
  ScoreCreatorsOptions,
  ScoreDealsOptions,
  ScoredId,
} from '../workers/worker-api.ts';
import { startBrowserRecommendationsHarness } from '../tests/support/recommendations-browser-harness.ts';
import { startNodeRecommendationsWorker } from '../tests/support/recommendations-node-worker.ts';
import { measureSwipeSession } from './support/swipe-session.ts';
import { syntheticMarketplace } from './support/synthetic-marketplace.ts';

const SIZE = 10_000;
const WARM_UP = 5;
const RUNS = 21;
const GOAL_MS = 50;
const NOW = Date.parse('2026-11-22T12:00:00.000Z');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

interface Case {
  label: string;
  kind: 'deals' | 'creators';
  /** null = the default (10); a number for JSON's sake (Infinity does not survive the trip to the page). */
  limit: number | null;
  /** Informational cases are printed but not held to the goal. */
  goal: boolean;
}

const cases: Case[] = [
  { label: `score ${SIZE} deals for one creator, top 10 (Recommended deals)`, kind: 'deals', limit: null, goal: true },
  { label: `score ${SIZE} deals for one creator, top 50 (a swipe page)`, kind: 'deals', limit: 50, goal: true },
  {
    label: `score ${SIZE} creators for one deal, top 10 (Recommended creators)`,
    kind: 'creators',
    limit: null,
    goal: true,
  },
  { label: `score ${SIZE} deals for one creator, all ${SIZE} returned (info)`, kind: 'deals', limit: 1e9, goal: false },
  {
    label: `score ${SIZE} creators for one deal, all ${SIZE} returned (info)`,
    kind: 'creators',
    limit: 1e9,
    goal: false,
  },
];

const ms = (value: number) => `${value.toFixed(1)} ms`;
/** Goals missed in this run, for the summary line (a bench reports; it does not fail on timing). */
const missed: string[] = [];

function report(testCase: Case, samples: number[], extra = ''): void {
  const sorted = [...samples].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)]!;
  const verdict = testCase.goal
    ? median <= GOAL_MS
      ? ` — within the ${GOAL_MS} ms goal`
      : ` — OVER the ${GOAL_MS} ms goal`
    : '';
  if (testCase.goal && median > GOAL_MS) missed.push(testCase.label);
  console.log(
    `  ${testCase.label}: median ${ms(median)} (min ${ms(sorted[0]!)}, max ${ms(sorted[sorted.length - 1]!)})${verdict}${extra}`,
  );
}

const data = syntheticMarketplace({ seed: 20261122, now: NOW, deals: SIZE, creators: SIZE, brands: 800 });
console.log(
  `bench:reco — recommendation scoring in a worker; ${cpus()[0]?.model ?? 'unknown CPU'} × ${cpus().length}, load average ${loadavg()[0]!.toFixed(1)}`,
);
console.log(
  `synthetic data (seeded): ${SIZE} deals from ${data.brands.length} brands, ${SIZE} creators; ${WARM_UP} warm-up runs, then the median of ${RUNS}`,
);

// ---- 1. Node worker thread -------------------------------------------------------------------------
console.log(`\n[Node ${process.version}] worker_threads + Comlink node adapter, the same worker module as the browser`);
const worker = await startNodeRecommendationsWorker();
try {
  let started = performance.now();
  await worker.api.loadDeals(data.deals, data.brands);
  const loadDealsMs = performance.now() - started;
  started = performance.now();
  await worker.api.loadCreators(data.creators);
  console.log(`  loading (excluded below): deals ${ms(loadDealsMs)}, creators ${ms(performance.now() - started)}`);
  for (const testCase of cases) {
    const limit = testCase.limit ?? undefined;
    const run = (i: number) =>
      testCase.kind === 'deals'
        ? worker.api.scoreDealsFor(data.creators[i % SIZE]!, { now: NOW, limit })
        : worker.api.scoreCreatorsFor(data.deals[i % SIZE]!, { now: NOW, limit });
    for (let i = 0; i < WARM_UP; i++) await run(i);
    const samples: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const runStarted = performance.now();
      await run(WARM_UP + i);
      samples.push(performance.now() - runStarted);
    }
    report(testCase, samples);
  }
} finally {
  await worker.terminate();
}

// ---- 2. Chromium, through the app's client -----------------------------------------------------------
// What the page sees of src/lib/recommendations-client.ts.
interface Client {
  loadDeals(deals: DealInput[], brands: BrandInput[]): Promise<LoadSummary>;
  loadCreators(creators: CreatorInput[]): Promise<LoadSummary>;
  scoreDealsFor(creator: CreatorInput, options: ScoreDealsOptions): Promise<ScoredId[]>;
  scoreCreatorsFor(deal: DealInput, options: ScoreCreatorsOptions): Promise<ScoredId[]>;
}

interface BrowserFigures {
  userAgent: string;
  observerWorks: boolean;
  loadMs: number;
  loadLongTasks: number[];
  perCase: Array<{ samples: number[]; longTasks: number[] }>;
}

if (!existsSync(CHROMIUM)) {
  console.log(`\n[Chromium] skipped: no browser at ${CHROMIUM}`);
} else {
  const harness = await startBrowserRecommendationsHarness();
  try {
    const figures: BrowserFigures = await harness.page.evaluate(
      async ({ data, cases, now, warmUp, runs }) => {
        const client = (globalThis as unknown as { recommendations: Client }).recommendations;
        let longTasks: number[] = [];
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries()) longTasks.push(entry.duration);
        }).observe({ type: 'longtask' });
        // Lets the observer deliver the entries of the phase that just ended, then starts a new list.
        const phaseEnd = async () => {
          await new Promise((done) => setTimeout(done, 100));
          const ended = longTasks;
          longTasks = [];
          return ended;
        };
        // Proves the instrument works before trusting a "none": an 80 ms busy task must be reported.
        // (It runs from a timer, a real event-loop task; code evaluated by the test driver is not one.)
        await new Promise<void>((done) =>
          setTimeout(() => {
            const busyUntil = performance.now() + 80;
            while (performance.now() < busyUntil) {
              // busy on purpose
            }
            done();
          }, 0),
        );
        const calibration = await phaseEnd();
        const observerWorks = calibration.length === 1 && calibration[0]! >= 80;

        const loadStarted = performance.now();
        await client.loadDeals(data.deals, data.brands);
        await client.loadCreators(data.creators);
        const loadMs = performance.now() - loadStarted;
        const loadLongTasks = await phaseEnd();

        const perCase: Array<{ samples: number[]; longTasks: number[] }> = [];
        for (const { kind, limit } of cases) {
          const options = { now, limit: limit ?? undefined };
          const run = (i: number) =>
            kind === 'deals'
              ? client.scoreDealsFor(data.creators[i % data.creators.length]!, options)
              : client.scoreCreatorsFor(data.deals[i % data.deals.length]!, options);
          for (let i = 0; i < warmUp; i++) await run(i);
          const samples: number[] = [];
          for (let i = 0; i < runs; i++) {
            const started = performance.now();
            await run(warmUp + i);
            samples.push(performance.now() - started);
          }
          perCase.push({ samples, longTasks: await phaseEnd() });
        }
        return { userAgent: navigator.userAgent, observerWorks, loadMs, loadLongTasks, perCase };
      },
      { data, cases, now: NOW, warmUp: WARM_UP, runs: RUNS },
    );
    const chrome = /Chrom(e|ium)\/[\d.]+/.exec(figures.userAgent)?.[0] ?? 'Chromium';
    const longTasks = (tasks: number[]) =>
      !figures.observerWorks
        ? 'unknown (the observer missed a deliberate 80 ms task)'
        : tasks.length
          ? `${tasks.length}, longest ${ms(Math.max(...tasks))}`
          : 'none';
    console.log(
      `\n[${chrome} headless] src/lib/recommendations-client.ts and its Vite-bundled module worker, timed in the page`,
    );
    console.log(
      `  loading (excluded below, sent in chunks of 1,000): ${ms(figures.loadMs)} for deals + creators; main-thread long tasks (≥ 50 ms): ${longTasks(figures.loadLongTasks)}`,
    );
    cases.forEach((testCase, i) => {
      const { samples, longTasks: tasks } = figures.perCase[i]!;
      report(testCase, samples, `; main-thread long tasks: ${longTasks(tasks)}`);
    });
  } finally {
    await harness.close();
  }
}

// ---- 3. A 50-card swipe session in Chromium ----------------------------------------------------------
const SWIPE_CARDS = 50;
if (process.env.BENCH_RECO_SKIP_SWIPE === '1') {
  console.log('\n[swipe session] skipped (BENCH_RECO_SKIP_SWIPE=1)');
} else if (!existsSync(CHROMIUM)) {
  console.log(`\n[swipe session] skipped: no browser at ${CHROMIUM}`);
} else {
  console.log(
    `\n[swipe session] ${SWIPE_CARDS} cards on /swipe: the built app, the real server on embedded Postgres, Chromium headless`,
  );
  const swipe = await measureSwipeSession({
    cards: SWIPE_CARDS,
    profile: process.env.BENCH_RECO_PROFILE === '1',
    log: (line) => console.log(line),
  });
  const sorted = [...swipe.swipeMs].sort((a, b) => a - b);
  const longestTask = swipe.longTasks.length ? Math.max(...swipe.longTasks) : 0;
  if (!swipe.observerWorks) {
    missed.push('swipe session (long tasks could not be observed)');
    console.log('  main-thread long tasks: unknown (the long-task observer missed a deliberate 80 ms task)');
  } else {
    if (swipe.longTasks.length) missed.push('swipe session without long tasks');
    console.log(
      `  main-thread long tasks (≥ 50 ms) during the session: ${swipe.longTasks.length ? `${swipe.longTasks.length}, longest ${ms(longestTask)} — OVER` : 'none — within'} the goal of none over 50 ms`,
    );
  }
  if (swipe.hotspots)
    console.log(
      `  main-thread self time during the session (BENCH_RECO_PROFILE=1, unminified build):\n    ${swipe.hotspots.join('\n    ')}`,
    );
  console.log(
    `  key press → next card shown (as seen by the driver, DevTools round trip included): median ${ms(sorted[Math.floor(sorted.length / 2)]!)}, max ${ms(sorted[sorted.length - 1]!)}`,
  );
}
console.log(
  `\nsummary: ${missed.length ? `goals missed in this run: ${missed.join('; ')}` : 'every goal met'} (load average now ${loadavg()[0]!.toFixed(1)} on ${cpus().length} cores)`,
);
