/**
 * Web worker entry: scores recommendations off the main thread. Loaded by
 * src/lib/recommendations-client.ts; exposes the WorkerApi on the worker's global scope.
 */
import * as Comlink from 'comlink';
import { createRecommendationsService } from './recommendations-service.ts';

Comlink.expose(createRecommendationsService());
