import { afterAll, beforeAll, expect, test } from 'vitest';
import { SYNC_PROTOCOL_HEADER, SYNC_PROTOCOL_VERSION } from '../../src/domain/collections/protocol.ts';
import { makeDeal } from '../support/rules-fixtures.ts';
import { startTestServer, type TestServer, type TestUser } from '../support/test-server.ts';
import { eventually } from '../sync/sync-harness.ts';

// GET /metrics in Prometheus's format, served on the metrics port (METRICS_PORT, loopback by default)
// and never on the public one.

let server: TestServer;
let brand: TestUser;
beforeAll(async () => {
  server = await startTestServer({ env: { METRICS_PORT: '0' } });
  brand = await server.createUser({ role: 'brand' });
});
afterAll(() => server?.close());

const sync = (path: string, init: RequestInit = {}) =>
  fetch(`${server.url}/sync/v1${path}`, {
    ...init,
    headers: {
      authorization: `Bearer ${brand.accessToken}`,
      [SYNC_PROTOCOL_HEADER]: String(SYNC_PROTOCOL_VERSION),
      ...(init.body ? { 'content-type': 'application/json' } : {}),
    },
  });
const scrape = async () => {
  const response = await fetch(server.app.pactaMetricsUrl()!);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toContain('text/plain');
  return response.text();
};
/** The value of one sample, e.g. `pacta_refusals_total{status="404",code="not_found"}`. */
const sample = (text: string, series: string) => {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
};

test('after some traffic the metrics name open streams, pulls and pushes per collection, refusals, the pool and the jobs', async () => {
  const stream = new AbortController();
  const open = await fetch(`${server.url}/sync/v1/stream`, {
    headers: { authorization: `Bearer ${brand.accessToken}`, [SYNC_PROTOCOL_HEADER]: String(SYNC_PROTOCOL_VERSION) },
    signal: stream.signal,
  });
  expect(open.status).toBe(200);
  // The stream writes its own head (hijacked reply) and still names its request.
  expect(open.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  try {
    for (let i = 0; i < 3; i++) expect((await sync('/deals/pull')).status).toBe(200);
    expect((await sync('/profiles/push', { method: 'POST', body: JSON.stringify({ rows: [] }) })).status).toBe(200);
    expect((await sync('/no-such-collection/pull')).status).toBe(404);
    expect((await fetch(`${server.url}/api/nothing-here`)).status).toBe(404);
    // A change in Postgres is announced to the instance (NOTIFY pacta_sync).
    await makeDeal(server.db, brand.id);

    const text = await eventually(async () => {
      const t = await scrape();
      return (sample(t, 'pacta_change_notices_total') ?? 0) > 0 && t;
    });
    expect(sample(text, 'pacta_sync_open_streams')).toBe(1);
    expect(
      sample(text, 'pacta_sync_request_duration_seconds_count{operation="pull",collection="deals",status="200"}'),
    ).toBe(3);
    expect(
      sample(text, 'pacta_sync_request_duration_seconds_count{operation="push",collection="profiles",status="200"}'),
    ).toBe(1);
    expect(text).toMatch(
      /^pacta_sync_request_duration_seconds_bucket\{le="0\.1",operation="pull",collection="deals",status="200"\} \d+$/m,
    );
    // A name a client made up never becomes a label.
    expect(
      sample(text, 'pacta_sync_request_duration_seconds_count{operation="pull",collection="unknown",status="404"}'),
    ).toBe(1);
    expect(text).not.toContain('no-such-collection');
    expect(sample(text, 'pacta_refusals_total{status="404",code="unknown_collection"}')).toBe(1);
    expect(sample(text, 'pacta_refusals_total{status="404",code="not_found"}')).toBe(1);
    expect(text).toContain('# TYPE pacta_sync_row_refusals_total counter');
    for (const name of ['pacta_db_pool_clients', 'pacta_db_pool_idle_clients', 'pacta_db_pool_waiting_requests']) {
      expect(sample(text, name)).toEqual(expect.any(Number));
    }
    expect(sample(text, 'pacta_db_pool_max_clients')).toBe(20);
    for (const job of [
      'auto_release',
      'cancelled_refund',
      'auto_confirm',
      'review_publish',
      'push',
      'referral_payout',
    ]) {
      expect(sample(text, `pacta_job_lag_seconds{job="${job}"}`)).toBe(0);
      expect(sample(text, `pacta_job_due_items{job="${job}"}`)).toBe(0);
    }
    expect(sample(text, 'pacta_push_outbox_depth')).toBe(0);
    expect(sample(text, 'pacta_process_resident_memory_bytes')).toBeGreaterThan(0);

    // How catalogue changes reach the streams: a deal every reader may see goes as its rows (no
    // device pulls); a Pro-only one goes as a notice, and the devices allowed to see it pull.
    const series = (delivery: string) =>
      `pacta_stream_catalogue_changes_total{collection="deals",delivery="${delivery}"}`;
    const delivered = await eventually(async () => {
      const t = await scrape();
      return (sample(t, series('rows')) ?? 0) >= 1 && t;
    });
    const noticesBefore = sample(delivered, series('notice')) ?? 0;
    await makeDeal(server.db, brand.id, { pro_only: true });
    await eventually(async () => (sample(await scrape(), series('notice')) ?? 0) > noticesBefore);
  } finally {
    stream.abort();
  }
});

test("a job's lag is the age of its oldest due item", async () => {
  // A notification queued two minutes ago that no instance has taken (as if every sender were down).
  await server.db.asService(async (tx) => {
    await tx.query('set local session_replication_role = replica');
    const n = await tx.query(
      `insert into public.notifications (user_id, type, title, message) values ($1, 'test', 'Waiting', 'Details') returning id`,
      [brand.id],
    );
    await tx.query(
      `insert into pacta_private.push_outbox (notification_id, queued_at, claimed_by, lease_until)
       values ($1, now() - interval '2 minutes', 'a-busy-instance', now() + interval '1 hour')`,
      [n.rows[0].id],
    );
  });
  const text = await scrape();
  expect(sample(text, 'pacta_push_outbox_depth')).toBe(1);
  expect(sample(text, 'pacta_job_due_items{job="push"}')).toBe(1);
  expect(sample(text, 'pacta_job_lag_seconds{job="push"}')).toBeGreaterThanOrEqual(120);
  await server.db.pool.query(`delete from pacta_private.push_outbox where claimed_by = 'a-busy-instance'`);
});

test('the metrics are served on loopback, on their own port only: the public port does not answer them', async () => {
  const url = new URL(server.app.pactaMetricsUrl()!);
  expect(url.hostname).toBe('127.0.0.1');
  expect(url.port).not.toBe(new URL(server.url).port);
  const onPublicPort = await fetch(`${server.url}/metrics`);
  expect(onPublicPort.status).toBe(404);
  expect(await onPublicPort.text()).not.toContain('pacta_');
  const elsewhere = await fetch(new URL('/', url));
  expect(elsewhere.status).toBe(404);
});

test('without METRICS_PORT no metrics are served at all', async () => {
  const plain = await startTestServer({ databaseUrl: server.databaseUrl });
  try {
    expect(plain.app.pactaMetricsUrl()).toBeUndefined();
    expect((await fetch(`${plain.url}/metrics`)).status).toBe(404);
  } finally {
    await plain.close({ keepDatabase: true });
  }
});
