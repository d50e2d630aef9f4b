/**
 * The main thread's only door to the recommendations worker (workers/recommendations.worker.ts), and
 * the only module that calls Comlink.wrap (STYLE.md 3). The worker is created on first use, once per
 * page, and every call waits for its ready() handshake, so a call never races the worker's start-up.
 *
 * Usage (from hooks, with plain objects — pass RxDB documents as `doc.toJSON()`, since documents with
 * methods cannot be structured-cloned):
 *   await loadDeals(dealDocs, brandProfiles);               // once per change of the local deals
 *   const top = await scoreDealsFor(me, { now: Date.now(), skippedDealIds });  // [{ id, score }], best first
 *
 * A worker that fails to start rejects the pending calls; the next call tries a fresh worker.
 */
import * as Comlink from 'comlink';
import type {
  BrandInput,
  CreatorInput,
  DealInput,
  LoadSummary,
  ScoreCreatorsOptions,
  ScoreDealsOptions,
  ScoredId,
  WorkerApi,
} from '../../workers/worker-api.ts';

export type { ScoredId, ScoreCreatorsOptions, ScoreDealsOptions };

type Remote = Comlink.Remote<WorkerApi>;

interface Connection {
  worker: Worker;
  api: Remote;
}

let connection: Promise<Connection> | null = null;

async function open(): Promise<Connection> {
  // This exact `new Worker(new URL(…, import.meta.url))` shape is what Vite detects to bundle the worker.
  const worker = new Worker(new URL('../../workers/recommendations.worker.ts', import.meta.url), {
    type: 'module',
    name: 'recommendations',
  });
  const api = Comlink.wrap<WorkerApi>(worker);
  const failedToStart = new Promise<never>((_, reject) => {
    worker.addEventListener(
      'error',
      (event) => reject(new Error(`The recommendations worker failed to start${event.message ? `: ${event.message}` : ''}`)),
      { once: true },
    );
  });
  try {
    await Promise.race([api.ready(), failedToStart]);
  } catch (error) {
    api[Comlink.releaseProxy]();
    worker.terminate();
    throw error;
  }
  return { worker, api };
}

function connect(): Promise<Remote> {
  connection ??= open().catch((error: unknown) => {
    connection = null;
    throw error;
  });
  return connection.then((c) => c.api);
}

/** Replaces the deals (and their brands' profiles) the worker ranks. */
export async function loadDeals(deals: readonly DealInput[], brands: readonly BrandInput[]): Promise<LoadSummary> {
  return (await connect()).loadDeals(deals, brands);
}

/** Replaces the creator profiles the worker ranks. */
export async function loadCreators(creators: readonly CreatorInput[]): Promise<LoadSummary> {
  return (await connect()).loadCreators(creators);
}

/** Recommended deals for a creator (default 10; `limit: Infinity` for the whole swipe stack). */
export async function scoreDealsFor(creator: CreatorInput, options: ScoreDealsOptions): Promise<ScoredId[]> {
  return (await connect()).scoreDealsFor(creator, options);
}

/** Recommended creators for a deal (default 10). */
export async function scoreCreatorsFor(deal: DealInput, options: ScoreCreatorsOptions): Promise<ScoredId[]> {
  return (await connect()).scoreCreatorsFor(deal, options);
}

/** Stops the worker (sign-out clears local data); the next call starts a fresh one. */
export async function disposeRecommendationsWorker(): Promise<void> {
  const current = connection;
  connection = null;
  if (!current) return;
  try {
    const { worker, api } = await current;
    api[Comlink.releaseProxy]();
    worker.terminate();
  } catch {
    // It never started; nothing to stop.
  }
}
