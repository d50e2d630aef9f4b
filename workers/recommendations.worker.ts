/**
 * Web worker entry: scores recommendations and searches the device's deals and creators off the main
 * thread. Loaded by src/lib/recommendations-client.ts; exposes the WorkerApi on the worker's global scope.
 */
import * as Comlink from 'comlink';
import { createRecommendationsService } from './recommendations-service.ts';
import { createSearchService } from './search-service.ts';
import type { WorkerApi } from './worker-api.ts';

const api: WorkerApi = { ...createRecommendationsService(), ...createSearchService() };
Comlink.expose(api);
