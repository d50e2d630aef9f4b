import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { SYNC_PROTOCOL_VERSION } from '../../src/domain/collections/index.ts';
import { startLocalStripe, type LocalStripe } from '../../sync-server/payments/local-stripe/local-stripe.ts';
import { freePort } from '../support/free-port.ts';
import { startTestServer, type TestServer, type TestUser } from '../support/test-server.ts';
import { insertDeals, newId } from '../sync/sync-harness.ts';

// "Every input is validated before it can reach the database": a seeded, time-bounded fuzz of every
// route the server registers (auth, sync, api and any added later) with hostile values. For every
// request: no 5xx, no dropped connection, a refusal is 4xx JSON { code, message }, and nothing is
// written (the database fingerprint is unchanged). Reproduce a failure with FUZZ_SEED=<printed seed>.

const SEED = Number(process.env.FUZZ_SEED ?? 20261123);
const RUNS_PER_ENDPOINT = Number(process.env.FUZZ_RUNS ?? 30);
const TIME_LIMIT_MS = Number(process.env.FUZZ_TIME_LIMIT_MS ?? 60_000);

let server: TestServer;
let localStripe: LocalStripe;
let user: TestUser;
let dealId: string;
beforeAll(async () => {
  // The money endpoints are fuzzed for real against the local Stripe (without one they only answer
  // 503 payments_unavailable); its webhooks come to this server, signed with this secret.
  const secretKey = `sk_test_${randomBytes(8).toString('hex')}`;
  const webhookSecret = `whsec_${randomBytes(16).toString('hex')}`;
  const port = await freePort();
  localStripe = await startLocalStripe({
    secretKey,
    webhookSecret,
    webhookUrl: `http://127.0.0.1:${port}/api/stripe/webhook`,
  });
  server = await startTestServer({
    port,
    env: {
      STRIPE_SECRET_KEY: secretKey,
      STRIPE_WEBHOOK_SECRET: webhookSecret,
      STRIPE_API_BASE: localStripe.url,
      AUTH_RATE_LIMIT_SIGN_IN_PER_IP: '1000000',
      AUTH_RATE_LIMIT_SIGN_IN_PER_IP_AND_EMAIL: '1000000',
      AUTH_RATE_LIMIT_SIGN_UP_PER_IP: '1000000',
      AUTH_RATE_LIMIT_EMAIL_PER_IP: '1000000',
      AUTH_RATE_LIMIT_VERIFY_PER_IP: '1000000',
      AUTH_RATE_LIMIT_VERIFY_PER_EMAIL: '1000000',
      AUTH_EMAIL_MIN_INTERVAL_SECONDS: '0',
    },
  });
  const brand = await server.createUser({ role: 'brand' });
  user = await server.createUser({ role: 'creator' });
  [dealId] = (await insertDeals(server.db, brand.id, 1)) as [string];
});
afterAll(async () => {
  await localStripe?.idle();
  await server?.close();
  await localStripe?.close();
});

/** Every row of every table the product stores (rate-limit counters aside: refusals count too). */
async function fingerprint(): Promise<string> {
  const { rows: tables } = await server.db.pool.query<{ name: string }>(
    `select format('%I.%I', schemaname, tablename) as name from pg_tables
      where schemaname in ('public', 'auth') and tablename <> 'pacta_rate_limits' order by 1`,
  );
  const parts: string[] = [];
  for (const { name } of tables) {
    const { rows } = await server.db.pool.query<{ h: string | null }>(
      `select md5(string_agg(md5(t::text), ',' order by md5(t::text))) as h from ${name} t`,
    );
    parts.push(`${name}:${rows[0]!.h ?? '-'}`);
  }
  return parts.join(' ');
}

// ----- hostile values, as raw JSON text so that what JSON.stringify cannot write (1e400) is sent too

/** Refused wherever they appear: outside the limits every request meets. */
const alwaysRefused: fc.Arbitrary<string> = fc.oneof(
  fc
    .constantFrom('\u0000', '\u0007', '\u001b[31m', '\u007f', '\u000b')
    .chain((c) => fc.string({ maxLength: 8 }).map((s) => JSON.stringify(`${s}${c}${s}`))),
  fc.constantFrom('"\\ud800"', '"x\\udfff"'),
  fc.constantFrom('1e400', '-1e400', '123456789012345678901234567890', '9007199254740993'),
  fc.integer({ min: 13, max: 60 }).map((n) => `${'['.repeat(n)}${']'.repeat(n)}`),
  fc.constant(`[${Array.from({ length: 1001 }, () => '0').join(',')}]`),
  fc.constantFrom(
    '{"__proto__":{"admin":true}}',
    '{"constructor":{"prototype":{"x":1}}}',
    '{"a":{"prototype":1}}',
    '{"a\\u0000":1}',
  ),
  fc.constant(`{${Array.from({ length: 201 }, (_, i) => `"k${i}":1`).join(',')}}`),
  fc.constant(JSON.stringify('x'.repeat(100_001))),
);

/** Wrong for a field of that kind (a required one), so validation refuses it. */
const wrongFor = {
  text: fc.constantFrom('123', 'true', '{}', '[]', '{"$ne":null}'),
  uuid: fc.constantFrom('"not-a-uuid"', `"' or 1=1 --"`, '1', '"00000000-0000-0000-0000-00000000000Z"', '[]'),
  email: fc.constantFrom('"no-at-sign"', '"a@b"', '" "', '123', `"${'a'.repeat(400)}@example.test"`),
  number: fc.constantFrom('"1"', '-1', '1.5', '2147483648', '[]', '{}'),
};

type Field = { path: string[]; kind: keyof typeof wrongFor };
type Template = {
  name: string;
  method: 'GET' | 'POST' | 'PUT';
  url: string;
  /** A request body as the route expects it; one value in it is made hostile per request. */
  body?: Record<string, unknown>;
  /** Required fields and their kind, for wrong-type values. */
  fields?: Field[];
  auth?: boolean;
  sync?: boolean;
};

const application = () => ({
  id: newId(),
  deal_id: dealId,
  creator_id: user.id,
  status: 'pending',
  pitch: 'Hi',
  _deleted: false,
});
const message = () => ({
  id: newId(),
  conversation_id: newId(),
  sender_id: user.id,
  recipient_id: newId(),
  body: 'Hi',
  _deleted: false,
});

function templates(): Template[] {
  const email = `fuzz-${newId().slice(0, 8)}@example.test`;
  return [
    {
      name: 'POST /auth/v1/signup',
      method: 'POST',
      url: '/auth/v1/signup',
      body: { email, password: 'correct-horse-battery', data: { role: 'creator', full_name: 'Fuzz' } },
      fields: [
        { path: ['email'], kind: 'email' },
        { path: ['password'], kind: 'text' },
      ],
    },
    {
      name: 'POST /auth/v1/token (password)',
      method: 'POST',
      url: '/auth/v1/token?grant_type=password',
      body: { email, password: 'wrong-horse-battery' },
    },
    {
      name: 'POST /auth/v1/token (refresh)',
      method: 'POST',
      url: '/auth/v1/token?grant_type=refresh_token',
      body: { refresh_token: 'abcdefgh' },
      fields: [{ path: ['refresh_token'], kind: 'text' }],
    },
    {
      name: 'PUT /auth/v1/user',
      method: 'PUT',
      url: '/auth/v1/user',
      body: { data: { full_name: 'Fuzz' } },
      auth: true,
    },
    {
      name: 'POST /auth/v1/recover',
      method: 'POST',
      url: '/auth/v1/recover',
      body: { email },
      fields: [{ path: ['email'], kind: 'email' }],
    },
    {
      name: 'POST /auth/v1/resend',
      method: 'POST',
      url: '/auth/v1/resend',
      body: { type: 'signup', email },
      fields: [
        { path: ['email'], kind: 'email' },
        { path: ['type'], kind: 'text' },
      ],
    },
    {
      name: 'POST /auth/v1/verify',
      method: 'POST',
      url: '/auth/v1/verify',
      body: { type: 'signup', token_hash: 'deadbeef' },
      fields: [{ path: ['type'], kind: 'text' }],
    },
    {
      name: 'POST /sync/v1/applications/push',
      method: 'POST',
      url: '/sync/v1/applications/push',
      body: { rows: [{ newDocumentState: application() }] },
      auth: true,
      sync: true,
      fields: [
        { path: ['rows', '0', 'newDocumentState', 'deal_id'], kind: 'uuid' },
        { path: ['rows', '0', 'newDocumentState', 'id'], kind: 'uuid' },
      ],
    },
    {
      name: 'POST /sync/v1/messages/push',
      method: 'POST',
      url: '/sync/v1/messages/push',
      body: { rows: [{ newDocumentState: message() }] },
      auth: true,
      sync: true,
      fields: [
        { path: ['rows', '0', 'newDocumentState', 'body'], kind: 'text' },
        { path: ['rows', '0', 'newDocumentState', 'sender_id'], kind: 'uuid' },
      ],
    },
    {
      name: 'POST /sync/v1/deals/push',
      method: 'POST',
      url: '/sync/v1/deals/push',
      body: {
        rows: [
          {
            newDocumentState: {
              id: newId(),
              brand_id: user.id,
              title: 'T',
              description: 'D',
              amount_cents: 100,
              _deleted: false,
            },
          },
        ],
      },
      auth: true,
      sync: true,
      fields: [{ path: ['rows', '0', 'newDocumentState', 'amount_cents'], kind: 'number' }],
    },
    {
      name: 'POST /api/contact',
      method: 'POST',
      url: '/api/contact',
      body: { name: 'Fuzz', email: 'fuzz@example.test', subject: 'general', message: 'Hello' },
      fields: [
        { path: ['email'], kind: 'email' },
        { path: ['subject'], kind: 'text' },
        { path: ['message'], kind: 'text' },
      ],
    },
  ];
}

/** The template's body as JSON text with the value at `path` replaced by raw JSON text. */
function bodyWith(body: Record<string, unknown>, path: string[], raw: string): string {
  const marker = `@@HOSTILE_${Math.random().toString(36).slice(2)}@@`;
  const copy = structuredClone(body) as Record<string, unknown>;
  let at: Record<string, unknown> = copy;
  for (const key of path.slice(0, -1)) at = at[key] as Record<string, unknown>;
  at[path.at(-1)!] = marker;
  return JSON.stringify(copy).replace(JSON.stringify(marker), raw);
}

/** Every key path of a body (where a hostile value can go). */
function paths(value: unknown, prefix: string[] = []): string[][] {
  if (!value || typeof value !== 'object') return [prefix];
  const entries = Object.entries(value as Record<string, unknown>);
  return [prefix, ...entries.flatMap(([k, v]) => paths(v, [...prefix, k]))].filter((p) => p.length > 0);
}

type Sent = { method: string; url: string; headers?: Record<string, string>; body?: string };

const counts = new Map<string, number>();
const statuses = new Map<number, number>();
const failures: string[] = [];

async function send(endpoint: string, req: Sent, expectRefusal: boolean): Promise<void> {
  counts.set(endpoint, (counts.get(endpoint) ?? 0) + 1);
  let res: Response;
  try {
    res = await fetch(`${server.url}${req.url}`, { method: req.method, headers: req.headers, body: req.body });
  } catch (err) {
    failures.push(
      `${endpoint}: connection dropped (${(err as Error).cause ?? err}) for ${req.method} ${req.url.slice(0, 120)} ${req.body?.slice(0, 200) ?? ''}`,
    );
    return;
  }
  statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
  // A harmless request to the live stream opens it (200, text/event-stream) and it never ends:
  // reading it to the end would stall the run, so it is closed once its status is known.
  const streaming = res.ok && (res.headers.get('content-type') ?? '').startsWith('text/event-stream');
  if (streaming) await res.body?.cancel();
  const text = streaming ? '' : await res.text();
  const what = `${req.method} ${req.url.slice(0, 120)} ${req.body?.slice(0, 160) ?? ''}`;
  if (res.status >= 500) failures.push(`${endpoint}: ${res.status} ${text.slice(0, 200)} for ${what}`);
  if (res.status >= 400) {
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      body = undefined;
    }
    const shaped =
      !!body &&
      typeof (body as { code?: unknown }).code === 'string' &&
      typeof (body as { message?: unknown }).message === 'string';
    if (!shaped)
      failures.push(`${endpoint}: ${res.status} without { code, message }: ${text.slice(0, 200)} for ${what}`);
  } else if (expectRefusal && res.status !== 404) {
    // A sync push may answer 200 with the row refused as a conflict (a rule of the data); anything
    // else hostile that is accepted is a failure.
    const refusedRow = /"sync_rejection"/.test(text);
    if (!refusedRow) failures.push(`${endpoint}: accepted (${res.status}) ${text.slice(0, 160)} for ${what}`);
  }
}

function headersFor(t: { auth?: boolean; sync?: boolean }, extra: Record<string, string> = {}): Record<string, string> {
  return {
    'content-type': 'application/json',
    apikey: 'pacta-local-anon-key',
    ...(t.auth ? { authorization: `Bearer ${user.accessToken}` } : {}),
    ...(t.sync ? { 'x-pacta-protocol': String(SYNC_PROTOCOL_VERSION) } : {}),
    ...extra,
  };
}

const params = {
  seed: SEED,
  numRuns: RUNS_PER_ENDPOINT,
  interruptAfterTimeLimit: TIME_LIMIT_MS / 12,
  endOnFailure: true,
};

test('every endpoint refuses hostile input with 4xx { code, message }: no 5xx, no dropped connection, nothing written', async () => {
  const before = await fingerprint();

  // 1. Known bodies: one value made hostile (outside the limits anywhere, or the wrong type for its field).
  for (const t of templates()) {
    const body = t.body!;
    const hostile = fc.oneof(
      fc.tuple(fc.constantFrom(...paths(body)), alwaysRefused),
      ...(t.fields ?? []).map((f) => fc.tuple(fc.constant(f.path), wrongFor[f.kind])),
    );
    await fc.assert(
      fc.asyncProperty(hostile, async ([path, raw]) => {
        await send(
          t.name,
          { method: t.method, url: t.url, headers: headersFor(t), body: bodyWith(body, path, raw) },
          true,
        );
      }),
      params,
    );
  }

  // 2. Every registered route (future ones too): hostile path parameters, query values, bodies, headers.
  const routes = server.app.pactaRoutes.filter(
    (r) => /^\/(auth\/v1|sync\/v1|api)\//.test(r.url) && !r.url.includes('/dev/'),
  );
  const rawBodies = fc.oneof(
    alwaysRefused,
    fc.constantFrom('{', '{"a":', 'null', '[]', '"text"', '123', '\u0000', '{"a":1}{"b":2}', ''),
    fc.string({ maxLength: 40 }),
  );
  const param = fc.oneof(
    fc.constantFrom(
      '__proto__',
      'constructor',
      'prototype',
      '..%2F..%2Fetc',
      '%00',
      '%ZZ',
      'x'.repeat(300),
      "'; drop table deals; --",
      '%F0%9F%92%A9',
    ),
    fc.string({ maxLength: 20 }).map(encodeURIComponent),
  );
  const query = fc.oneof(
    fc.constantFrom(
      'checkpoint=1e400',
      'checkpoint=%7B%22__proto__%22%3A1%7D',
      'limit=1e400',
      'limit=-1',
      'limit=NaN',
      'checkpoint=%00',
      'grant_type=%00',
      'scope=constructor',
      'type=__proto__&token=x',
      'a[b][c][d]=1',
      `x=${'y'.repeat(9_000)}`,
    ),
    fc.string({ maxLength: 30 }).map((s) => `checkpoint=${encodeURIComponent(s)}`),
  );
  const header = fc.oneof(
    fc.constant<Record<string, string>>({ authorization: `Bearer ${'x'.repeat(20_000)}` }),
    fc.constantFrom<Record<string, string>>(
      { authorization: 'Bearer not.a.jwt' },
      { authorization: 'Basic Zm9vOmJhcg==' },
      { 'x-pacta-protocol': '1e400' },
      { 'x-pacta-protocol': '-1' },
      { 'content-type': 'text/plain' },
      { 'content-type': 'application/x-www-form-urlencoded' },
      { 'content-type': 'application/json; charset=utf-7' },
    ),
  );
  for (const route of routes) {
    const name = `${route.method} ${route.url}`;
    const urlWith = (p: string, q: string) =>
      `${route.url.replace(/:[a-z_]+/gi, p)}${route.url.includes('?') ? '&' : '?'}${q}`;
    const tokenless = !route.url.startsWith('/sync/');
    await fc.assert(
      fc.asyncProperty(param, query, rawBodies, header, fc.boolean(), async (p, q, raw, h, withUser) => {
        const hasBody = route.method !== 'GET' && route.method !== 'DELETE';
        // Signing out with a harmless query would end the fuzzing user's session: a real write.
        const signsOut = route.url === '/auth/v1/logout';
        const headers = headersFor({ auth: !signsOut && (withUser || !tokenless), sync: true }, h);
        // A GET whose only hostile part could be harmless (the stream, the health probe) keeps a hostile header.
        await send(name, { method: route.method, url: urlWith(p, q), headers, body: hasBody ? raw : undefined }, false);
      }),
      { ...params, numRuns: Math.max(10, Math.floor(RUNS_PER_ENDPOINT / 2)) },
    );
  }

  // 3. Framework-level refusals: unknown routes and methods, oversized URL and headers and bodies.
  const framework: Sent[] = [
    { method: 'GET', url: '/api/no-such-route' },
    { method: 'DELETE', url: '/sync/v1/deals/push' },
    { method: 'PATCH', url: '/auth/v1/signup', body: '{}' },
    { method: 'GET', url: `/api/${'x'.repeat(9_000)}` },
    { method: 'GET', url: '/api/contact', headers: { 'x-big': 'y'.repeat(20_000) } },
    {
      method: 'POST',
      url: '/api/contact',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'x'.repeat(1_100_000) }),
    },
    { method: 'POST', url: '/api/contact', headers: { 'content-type': 'application/xml' }, body: '<a/>' },
    { method: 'POST', url: '/api/contact', headers: { 'content-type': 'application/json' }, body: '{"name": "a", ' },
  ];
  for (const req of framework) await send('framework', req, true);

  const after = await fingerprint();
  const report = [...counts].map(([k, n]) => `  ${String(n).padStart(4)}  ${k}`).join('\n');
  const fiveXX = [...statuses].filter(([s]) => s >= 500).reduce((n, [, c]) => n + c, 0);
  console.log(
    `fuzz seed ${SEED}: ${[...counts.values()].reduce((a, b) => a + b, 0)} requests, ${fiveXX} × 5xx, ${before === after ? 0 : 'SOME'} rows changed\n${report}\n  statuses: ${[
      ...statuses,
    ]
      .sort()
      .map(([s, n]) => `${s}×${n}`)
      .join(' ')}`,
  );
  expect(failures.slice(0, 15), `failures (FUZZ_SEED=${SEED})`).toEqual([]);
  expect(
    after.split(' ').filter((part) => !before.split(' ').includes(part)),
    'tables whose rows changed',
  ).toEqual([]);
}, 300_000);
