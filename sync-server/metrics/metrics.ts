import type pg from 'pg';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { serverCollection } from '../sync/collections.ts';

/** A label value from outside (a refusal's code): kept when it looks like one of ours, else `other`. */
const labelOf = (value: unknown): string =>
  typeof value === 'string' && /^[a-z][a-z0-9_]{0,63}$/.test(value) ? value : 'other';

/** A collection name as a label: only the collections that exist, so a client cannot add labels. */
const collectionLabel = (name: string): string => (serverCollection(name) ? name : 'unknown');

type BacklogRow = { job: string; due_items: number; lag_seconds: number };

/**
 * What an operator watches, per server instance, in Prometheus's format (prom-client). One registry
 * per server, so several servers in one process (the tests' instances) each report their own.
 * Rates ("per second") are Prometheus's to compute from the counters: `rate(pacta_…_total[1m])`.
 */
export function createMetrics() {
  const registry = new Registry();
  const registers = [registry];
  collectDefaultMetrics({ register: registry, prefix: 'pacta_' });

  const syncRequests = new Histogram({
    name: 'pacta_sync_request_duration_seconds',
    help: 'Pulls and pushes answered, by collection, and how long they took',
    labelNames: ['operation', 'collection', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers,
  });
  const refusals = new Counter({
    name: 'pacta_refusals_total',
    help: 'Requests refused or failed, by HTTP status and error code',
    labelNames: ['status', 'code'] as const,
    registers,
  });
  const rowRefusals = new Counter({
    name: 'pacta_sync_row_refusals_total',
    help: 'Pushed rows the rules refused (the rest of their batch was written), by collection and code',
    labelNames: ['collection', 'code'] as const,
    registers,
  });
  const changeNotices = new Counter({
    name: 'pacta_change_notices_total',
    help: 'Change notices received from Postgres (NOTIFY pacta_sync) and fanned out to open streams',
    registers,
  });

  const catalogueChanges = new Counter({
    name: 'pacta_stream_catalogue_changes_total',
    help: 'Catalogue changes sent to the open streams: as rows devices apply (no pull), or as a notice every device pulls after',
    labelNames: ['collection', 'delivery'] as const,
    registers,
  });
  const ownChanges = new Counter({
    name: 'pacta_stream_own_changes_total',
    help: "Changes of a user's own rows sent to that user's open streams: as rows their devices apply (no pull), or as a notice they pull after",
    labelNames: ['collection', 'delivery'] as const,
    registers,
  });

  let openStreams = (): number => 0;
  new Gauge({
    name: 'pacta_sync_open_streams',
    help: 'Change streams (GET /sync/v1/stream) open on this instance',
    registers,
    collect() {
      this.set(openStreams());
    },
  });

  return {
    registry,
    /** A pull or push was answered (the sync routes' own requests; streams are counted as open). */
    syncAnswered(operation: 'pull' | 'push', collection: string, status: number, seconds: number): void {
      syncRequests.observe({ operation, collection: collectionLabel(collection), status: String(status) }, seconds);
    },
    /** An error answer `{ code, message }` went out. */
    refused(status: number, code: unknown): void {
      refusals.inc({ status: String(status), code: labelOf(code) });
    },
    /** A push's answer: the rows refused by a rule carry `sync_rejection.code`. */
    rowsRefused(collection: string, conflicts: readonly Record<string, unknown>[]): void {
      for (const row of conflicts) {
        const rejection = row.sync_rejection as { code?: unknown } | undefined;
        if (rejection) rowRefusals.inc({ collection: collectionLabel(collection), code: labelOf(rejection.code) });
      }
    },
    changeNotice(): void {
      changeNotices.inc();
    },
    /** A catalogue change went out in the stream: its rows, or a notice (devices then pull). */
    catalogueChangeStreamed(collection: string, delivery: 'rows' | 'notice'): void {
      catalogueChanges.inc({ collection: collectionLabel(collection), delivery });
    },
    /** A change of a user's own rows went out in their stream: the rows, or a notice (their devices then pull). */
    ownChangeStreamed(collection: string, delivery: 'rows' | 'notice'): void {
      ownChanges.inc({ collection: collectionLabel(collection), delivery });
    },
    /** How to count the open change streams (the stream hub's size). */
    watchOpenStreams(count: () => number): void {
      openStreams = count;
    },
    /** The pool's connections and waiting requests, and the jobs' backlog, read at each scrape. */
    watchDatabase(pool: pg.Pool): void {
      watchPool(registry, pool);
      watchJobs(registry, pool);
    },
  };
}

export type Metrics = ReturnType<typeof createMetrics>;

function watchPool(registry: Registry, pool: pg.Pool): void {
  const registers = [registry];
  const gauge = (name: string, help: string, read: () => number) =>
    new Gauge({
      name,
      help,
      registers,
      collect() {
        this.set(read());
      },
    });
  gauge('pacta_db_pool_clients', 'Connections the pool holds (in use or idle)', () => pool.totalCount);
  gauge('pacta_db_pool_idle_clients', 'Connections idle in the pool', () => pool.idleCount);
  gauge(
    'pacta_db_pool_waiting_requests',
    'Requests waiting for a connection (the pool is exhausted)',
    () => pool.waitingCount,
  );
  gauge('pacta_db_pool_max_clients', 'Connections the pool may open', () => pool.options.max ?? 10);
}

/** Per job, the items due now and the age of the oldest (pacta_private.job_backlog()). */
function watchJobs(registry: Registry, pool: pg.Pool): void {
  // One query per scrape: the first of the three gauges (prom-client collects in registration order)
  // asks, the other two read its answer.
  let current: Promise<BacklogRow[]> = Promise.resolve([]);
  const refresh = (): Promise<BacklogRow[]> =>
    (current = pool
      .query<BacklogRow>(
        `select job, due_items::int as due_items,
                coalesce(extract(epoch from now() - oldest_due_at), 0)::float8 as lag_seconds
           from pacta_private.job_backlog()`,
      )
      .then((r) => r.rows)
      // The database away: the scrape still answers, without the backlog (the pool gauges tell why).
      .catch(() => []));
  new Gauge({
    name: 'pacta_job_lag_seconds',
    help: 'Age of the oldest item due for the job (0 when none is due): how far the job is behind',
    labelNames: ['job'] as const,
    registers: [registry],
    async collect() {
      for (const row of await refresh()) this.set({ job: row.job }, Math.max(0, row.lag_seconds));
    },
  });
  new Gauge({
    name: 'pacta_job_due_items',
    help: 'Items due for the job now',
    labelNames: ['job'] as const,
    registers: [registry],
    async collect() {
      for (const row of await current) this.set({ job: row.job }, row.due_items);
    },
  });
  new Gauge({
    name: 'pacta_push_outbox_depth',
    help: 'Notifications queued for Web Push and not yet being sent',
    registers: [registry],
    async collect() {
      this.set((await current).find((r) => r.job === 'push')?.due_items ?? 0);
    },
  });
}
