import type { FastifyInstance } from 'fastify';
import type { Database } from '../db/database.ts';
import { createMetrics, type Metrics } from './metrics.ts';
import { startMetricsServer, type MetricsServer } from './metrics-server.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Where this server's metrics are served (undefined until it listens, or without METRICS_PORT). */
    pactaMetricsUrl(): string | undefined;
  }
}

const SYNC_ROUTE = /^\/sync\/v1\/:collection\/(pull|push)$/;

/**
 * The server's metrics: counted from the outside of every route (pulls and pushes with their latency,
 * every error answer), the pool and the jobs' backlog read at each scrape, and served on the metrics
 * port while the server runs. The sync routes add what only they see through the returned `Metrics`.
 */
export function registerMetrics(
  app: FastifyInstance,
  db: Database,
  exposure: { host: string; port: number } | undefined,
): Metrics {
  const metrics = createMetrics();
  metrics.watchDatabase(db.pool);

  app.addHook('onResponse', async (request, reply) => {
    const operation = SYNC_ROUTE.exec(request.routeOptions.url ?? '')?.[1] as 'pull' | 'push' | undefined;
    if (!operation) return;
    const { collection } = request.params as { collection: string };
    metrics.syncAnswered(operation, collection, reply.statusCode, reply.elapsedTime / 1000);
  });
  app.addHook('onSend', async (_request, reply, payload) => {
    if (reply.statusCode < 400) return payload;
    let code: unknown;
    if (typeof payload === 'string') {
      try {
        code = (JSON.parse(payload) as { code?: unknown } | null)?.code;
      } catch {
        // Not JSON: counted under `other`.
      }
    }
    metrics.refused(reply.statusCode, code);
    return payload;
  });

  let server: MetricsServer | undefined;
  app.decorate('pactaMetricsUrl', () => server?.url);
  if (exposure) {
    app.addHook('onReady', async () => {
      server = await startMetricsServer(metrics.registry, exposure);
    });
    app.addHook('onClose', async () => server?.close());
  }
  return metrics;
}
