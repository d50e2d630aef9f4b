/**
 * The main thread's only door to the recommendations worker (workers/recommendations.worker.ts), and
 * the only module that calls Comlink.wrap. The worker is created on first use, once per
 * page, and every call waits for its ready() handshake, so a call never races the worker's start-up.
 *
 * Usage (from hooks, with plain objects — pass RxDB documents as `doc.toJSON()`, since documents with
 * methods cannot be structured-cloned):
 *   await loadDeals(dealDocs, brandProfiles);   // when the local deals change (debounced); sent in chunks
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
  LocalCreatorSearch,
  LocalDealSearch,
  LocalSearchAnswer,
  SearchableCreator,
  SearchableDeal,
  ScoreCreatorsOptions,
  ScoreDealsOptions,
  ScoredId,
  WorkerApi,
} from '../../workers/worker-api.ts';

export type {
  LocalCreatorSearch,
  LocalDealSearch,
  LocalSearchAnswer,
  SearchableCreator,
  SearchableDeal,
  ScoredId,
  ScoreCreatorsOptions,
  ScoreDealsOptions,
};

type Remote = Comlink.Remote<WorkerApi>;

interface Connection {
  worker: Worker;
  api: Remote;
}

let connection: Promise<Connection> | null = null;
/** Which worker answers: a new one (after a failed start or a stop) starts with empty indexes. */
let generation = 0;

/** Changes whenever a new worker starts: what a caller sent to the old one is gone. */
export const workerGeneration = (): number => generation;

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
      (event) =>
        reject(new Error(`The recommendations worker failed to start${event.message ? `: ${event.message}` : ''}`)),
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
    generation++;
    throw error;
  });
  return connection.then((c) => c.api);
}

/**
 * Starts the worker ahead of a screen's first call, so its start-up overlaps the screen's own reads.
 * A worker that fails to start here is tried again by that first call.
 */
export function warmRecommendationsWorker(): void {
  connect().catch(() => {});
}

/**
 * Calls run one after another: a load sent in chunks is never interleaved with another load, and a
 * scoring call always sees the data of every load issued before it.
 */
let queue: Promise<unknown> = Promise.resolve();

function enqueue<T>(task: (api: Remote) => Promise<T>): Promise<T> {
  const run = queue.then(async () => task(await connect()));
  queue = run.catch(() => undefined);
  return run;
}

/**
 * Documents per message. Posting a message serialises it on the main thread: 10,000 documents at once
 * is one long task (see bench:reco); 1,000 keeps each piece short, and the awaits between pieces let
 * the page handle input.
 */
export const LOAD_CHUNK_SIZE = 1_000;

function chunk<T>(documents: readonly T[], index: number): readonly T[] {
  return documents.slice(index * LOAD_CHUNK_SIZE, (index + 1) * LOAD_CHUNK_SIZE);
}

function chunkCount(...lists: ReadonlyArray<readonly unknown[]>): number {
  return Math.max(1, ...lists.map((list) => Math.ceil(list.length / LOAD_CHUNK_SIZE)));
}

/** Replaces the deals (and their brands' profiles) the worker ranks. Debounce calls from live queries. */
export function loadDeals(deals: readonly DealInput[], brands: readonly BrandInput[]): Promise<LoadSummary> {
  return enqueue(async (api) => {
    let summary = await api.loadDeals(chunk(deals, 0), chunk(brands, 0));
    for (let i = 1; i < chunkCount(deals, brands); i++)
      summary = await api.appendDeals(chunk(deals, i), chunk(brands, i));
    return summary;
  });
}

/** Replaces the creator profiles the worker ranks. */
export function loadCreators(creators: readonly CreatorInput[]): Promise<LoadSummary> {
  return enqueue(async (api) => {
    let summary = await api.loadCreators(chunk(creators, 0));
    for (let i = 1; i < chunkCount(creators); i++) summary = await api.appendCreators(chunk(creators, i));
    return summary;
  });
}

/** Recommended deals for a creator, best first (default 10; the swipe stack asks for a page, e.g. 50). */
export function scoreDealsFor(creator: CreatorInput, options: ScoreDealsOptions): Promise<ScoredId[]> {
  return enqueue((api) => api.scoreDealsFor(creator, options));
}

/** Recommended creators for a deal, best first (default 10). */
export function scoreCreatorsFor(deal: DealInput, options: ScoreCreatorsOptions): Promise<ScoredId[]> {
  return enqueue((api) => api.scoreCreatorsFor(deal, options));
}

/** Sends index changes in chunks (see LOAD_CHUNK_SIZE); `reset` empties the index first. */
function sendIndexChanges<T>(
  send: (api: Remote, upserts: readonly T[], removedIds: readonly string[], reset: boolean) => Promise<LoadSummary>,
  upserts: readonly T[],
  removedIds: readonly string[],
  reset: boolean,
): Promise<LoadSummary> {
  return enqueue(async (api) => {
    let summary = await send(api, chunk(upserts, 0), chunk(removedIds, 0), reset);
    for (let i = 1; i < chunkCount(upserts, removedIds); i++)
      summary = await send(api, chunk(upserts, i), chunk(removedIds, i), false);
    return summary;
  });
}

/** Adds, replaces and drops deals in the worker's search index. */
export function indexDeals(
  upserts: readonly SearchableDeal[],
  removedIds: readonly string[],
  reset: boolean,
): Promise<LoadSummary> {
  return sendIndexChanges((api, u, r, first) => api.indexDeals(u, r, first), upserts, removedIds, reset);
}

/** Adds, replaces and drops creators in the worker's search index. */
export function indexCreators(
  upserts: readonly SearchableCreator[],
  removedIds: readonly string[],
  reset: boolean,
): Promise<LoadSummary> {
  return sendIndexChanges((api, u, r, first) => api.indexCreators(u, r, first), upserts, removedIds, reset);
}

/** The device's deals matching a search (ids and matched words, in the asked sort). */
export function searchDeals(request: LocalDealSearch): Promise<LocalSearchAnswer> {
  return enqueue((api) => api.searchDeals(request));
}

/** The device's creators matching a search. */
export function searchCreators(request: LocalCreatorSearch): Promise<LocalSearchAnswer> {
  return enqueue((api) => api.searchCreators(request));
}

/** Stops the worker (sign-out clears local data); the next call starts a fresh one. */
export async function disposeRecommendationsWorker(): Promise<void> {
  const current = connection;
  connection = null;
  generation++;
  if (!current) return;
  try {
    const { worker, api } = await current;
    api[Comlink.releaseProxy]();
    worker.terminate();
  } catch {
    // It never started; nothing to stop.
  }
}
