/**
 * Runs the real workers/recommendations.worker.ts in a Node worker thread, for the worker test and
 * `npm run bench:reco`. Browsers give a worker `self.postMessage` / `self.addEventListener`; Node's
 * worker_threads use `parentPort` instead, so a small bootstrap gives the thread's global scope the
 * web-worker shape through Comlink's own node adapter, then imports the worker module through tsx
 * (Node cannot load .ts by itself). The main side wraps the thread with the same adapter.
 */
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import * as Comlink from 'comlink';
import nodeEndpoint from 'comlink/dist/umd/node-adapter.js';
import type { WorkerApi } from '../../workers/worker-api.ts';

const require = createRequire(import.meta.url);

// CommonJS, evaluated as the thread's entry (eval workers are CommonJS scripts).
const bootstrap = `
const { parentPort, workerData } = require('node:worker_threads');
const endpoint = require(workerData.adapterPath)(parentPort);
globalThis.postMessage = endpoint.postMessage;
globalThis.addEventListener = endpoint.addEventListener;
globalThis.removeEventListener = endpoint.removeEventListener;
import(workerData.tsxApiUrl)
  .then((tsx) => tsx.tsImport(workerData.entryUrl, workerData.entryUrl))
  // Rethrown outside the promise so it reaches the Worker's 'error' event.
  .catch((error) => setImmediate(() => { throw error; }));
`;

/**
 * tsx's ESM API (its CommonJS build cannot load ESM .ts in a thread), located through tsx's own
 * exports map so no path inside the package is hard-coded.
 */
function tsxEsmApiUrl(): string {
  const manifestPath = require.resolve('tsx/package.json');
  const manifest = require(manifestPath) as { exports: Record<string, { import: { default: string } }> };
  const entry = manifest.exports['./esm/api']?.import.default;
  if (!entry) throw new Error('tsx no longer exports ./esm/api');
  return new URL(entry, pathToFileURL(manifestPath)).href;
}

export interface NodeRecommendationsWorker {
  api: Comlink.Remote<WorkerApi>;
  terminate(): Promise<void>;
}

/** Starts the worker and resolves once its ready() handshake has answered. */
export async function startNodeRecommendationsWorker(): Promise<NodeRecommendationsWorker> {
  const worker = new Worker(bootstrap, {
    eval: true,
    workerData: {
      adapterPath: require.resolve('comlink/dist/umd/node-adapter.js'),
      tsxApiUrl: tsxEsmApiUrl(),
      entryUrl: pathToFileURL(require.resolve('../../workers/recommendations.worker.ts')).href,
    },
  });
  const api = Comlink.wrap<WorkerApi>(nodeEndpoint(worker));
  const failed = new Promise<never>((_, reject) => worker.once('error', reject));
  try {
    await Promise.race([api.ready(), failed]);
  } catch (error) {
    await worker.terminate();
    throw error;
  }
  return {
    api,
    async terminate() {
      api[Comlink.releaseProxy]();
      await worker.terminate();
    },
  };
}
