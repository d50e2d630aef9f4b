/**
 * npm run bench:reco — how long recommendation scoring takes inside the recommendations worker.
 *
 * Runs the real workers/recommendations.worker.ts in a Node worker thread through Comlink's node
 * adapter (tests/support/recommendations-node-worker.ts), loads 10,000 deals and 10,000 creators once
 * (loading is timed separately and excluded), then times scoreDealsFor / scoreCreatorsFor round trips
 * from the calling thread: message out, scoring in the worker, answer back. Goal: ≤ 50 ms each.
 * Data is synthetic and seeded, so runs are comparable.
 */
import { existsSync } from 'node:fs';
import { cpus } from 'node:os';
import { performance } from 'node:perf_hooks';
import { startNodeRecommendationsWorker } from '../tests/support/recommendations-node-worker.ts';
import { syntheticMarketplace } from './support/synthetic-marketplace.ts';

const SIZE = 10_000;
const WARM_UP = 5;
const RUNS = 21;
const GOAL_MS = 50;
const NOW = Date.parse('2026-11-22T12:00:00.000Z');

function summarize(samples: number[]): { median: number; min: number; max: number } {
  const sorted = [...samples].sort((a, b) => a - b);
  return { median: sorted[Math.floor(sorted.length / 2)]!, min: sorted[0]!, max: sorted[sorted.length - 1]! };
}

const ms = (value: number) => `${value.toFixed(2)} ms`;

async function timeRuns(run: (i: number) => Promise<unknown>): Promise<number[]> {
  for (let i = 0; i < WARM_UP; i++) await run(i);
  const samples: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now();
    await run(WARM_UP + i);
    samples.push(performance.now() - started);
  }
  return samples;
}

const data = syntheticMarketplace({ seed: 20261122, now: NOW, deals: SIZE, creators: SIZE, brands: 800 });
const worker = await startNodeRecommendationsWorker();
let failed = false;
try {
  console.log(`bench:reco — recommendation scoring in a worker (Node ${process.version} worker_threads + Comlink node adapter, ${cpus()[0]?.model ?? 'unknown CPU'} × ${cpus().length})`);
  console.log(`synthetic data (seeded): ${SIZE} deals from ${data.brands.length} brands, ${SIZE} creators; ${WARM_UP} warm-up runs, median of ${RUNS}`);

  let started = performance.now();
  await worker.api.loadDeals(data.deals, data.brands);
  const loadDealsMs = performance.now() - started;
  started = performance.now();
  await worker.api.loadCreators(data.creators);
  const loadCreatorsMs = performance.now() - started;
  console.log(`loading (excluded below): deals ${ms(loadDealsMs)}, creators ${ms(loadCreatorsMs)}`);

  const creatorAt = (i: number) => data.creators[i % data.creators.length]!;
  const dealAt = (i: number) => data.deals[i % data.deals.length]!;
  const cases: Array<[string, (i: number) => Promise<unknown>]> = [
    [`score ${SIZE} deals for one creator (top 10)`, (i) => worker.api.scoreDealsFor(creatorAt(i), { now: NOW })],
    [`score ${SIZE} deals for one creator (full ranking, swipe stack)`, (i) => worker.api.scoreDealsFor(creatorAt(i), { now: NOW, limit: Infinity })],
    [`score ${SIZE} creators for one deal (top 10)`, (i) => worker.api.scoreCreatorsFor(dealAt(i), { now: NOW })],
    [`score ${SIZE} creators for one deal (full ranking)`, (i) => worker.api.scoreCreatorsFor(dealAt(i), { now: NOW, limit: Infinity })],
  ];
  for (const [label, run] of cases) {
    const { median, min, max } = summarize(await timeRuns(run));
    const verdict = median <= GOAL_MS ? 'within' : 'OVER';
    if (median > GOAL_MS) failed = true;
    console.log(`${label}: median ${ms(median)} (min ${ms(min)}, max ${ms(max)}) — ${verdict} the ${GOAL_MS} ms goal`);
  }
} finally {
  await worker.terminate();
}

// The second figure of the issue needs the swipe screen (a later part of issue 5) in Chromium.
if (existsSync('src/features/swipe') && existsSync('tests/e2e')) {
  console.log('swipe long-task measurement: pending (the swipe screen exists; its Chromium session is not scripted yet)');
} else {
  console.log('swipe long-task measurement: pending the swipe screen');
}
process.exitCode = failed ? 1 : 0;
