import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { DEMO_LOGINS } from '../../sync-server/db/demo-logins.ts';
import { freePort } from '../support/free-port.ts';
import { createTestDatabase } from '../support/test-database.ts';

// A server started as the README's "Deploying" says (DATABASE_URL set) is a deployment: none of a
// developer's conveniences (the dev mailbox listing every account's links, the local Stripe whose test
// card buys Pro, the demo logins), and it refuses to start without what replaces them. Driven through
// the real `npm run serve` entry as its own process, as an operator starts it.

const root = path.resolve(import.meta.dirname, '../..');
let database: { url: string; drop: () => Promise<void> };
// Where an embedded Postgres would go if a start that must be refused were not (never the checkout's .data).
let dataDir: string;
let embeddedPgPort: number;
const children: ChildProcess[] = [];
beforeAll(async () => {
  database = await createTestDatabase();
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'pacta-deploy-'));
  embeddedPgPort = await freePort();
});
afterAll(async () => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
  await Promise.all(children.map(exited));
  await database?.drop();
  await fs.rm(dataDir, { recursive: true, force: true });
});

/** The developer's shell may hold any of these: each test names exactly the ones it means. */
const SETTINGS_UNDER_TEST = [
  'DATABASE_URL',
  'PACTA_MODE',
  'PUBLIC_URL',
  'SMTP_URL',
  'STRIPE_SECRET_KEY',
  'STRIPE_WEBHOOK_SECRET',
  'STRIPE_API_BASE',
  'SUPABASE_URL',
  'SUPABASE_ANON_KEY',
  'PAYMENTS',
  'SEED',
];

function serverProcess(env: Record<string, string>): { child: ChildProcess; output: () => string } {
  const base = Object.fromEntries(Object.entries(process.env).filter(([key]) => !SETTINGS_UNDER_TEST.includes(key)));
  const child = spawn(process.execPath, ['--import', 'tsx', 'sync-server/main.ts'], {
    cwd: root,
    env: {
      ...base,
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      LOG_FILE: '-',
      DATA_DIR: dataDir,
      EMBEDDED_PG_PORT: String(embeddedPgPort),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return { child, output: () => output };
}

function exited(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}

async function refusal(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  const server = serverProcess(env);
  const code = await exited(server.child);
  return { code, output: server.output() };
}

test('DATABASE_URL without SMTP or Stripe settings: refuses to start, with one message naming each', async () => {
  const { code, output } = await refusal({ DATABASE_URL: database.url, PORT: String(await freePort()) });
  expect(code).toBe(1);
  expect(output.match(/Pacta cannot start/g)).toHaveLength(1);
  expect(output).toContain('this is a deployment (DATABASE_URL is set)');
  expect(output).toContain('SMTP_URL');
  expect(output).toContain('STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET');
  expect(output).toContain('PAYMENTS=off');
  expect(output).toContain('PUBLIC_URL');
  // Nothing was started or applied first, and no stack trace.
  expect(output).not.toContain('applied');
  expect(output).not.toMatch(/\n\s+at /);
});

test('the explicit development mode cannot be combined with DATABASE_URL or a non-loopback HOST', async () => {
  const withDatabase = await refusal({
    PACTA_MODE: 'development',
    DATABASE_URL: database.url,
    PORT: String(await freePort()),
  });
  expect(withDatabase.code).toBe(1);
  expect(withDatabase.output).toContain('PACTA_MODE=development');
  expect(withDatabase.output).toContain('cannot be combined with DATABASE_URL');

  const onTheNetwork = await refusal({ PACTA_MODE: 'development', HOST: '0.0.0.0', PORT: String(await freePort()) });
  expect(onTheNetwork.code).toBe(1);
  expect(onTheNetwork.output).toContain('cannot be combined with HOST=0.0.0.0');
  expect(onTheNetwork.output).not.toContain('Starting the embedded Postgres');
});

test('no DATABASE_URL but a non-loopback HOST is a deployment too: refused before anything starts', async () => {
  const { code, output } = await refusal({ HOST: '0.0.0.0', PORT: String(await freePort()) });
  expect(code).toBe(1);
  expect(output).toContain('this is a deployment (HOST=0.0.0.0 is reachable from other machines)');
  expect(output).toContain('SMTP_URL');
  expect(output).not.toContain('Starting the embedded Postgres');
});

test('with what a deployment needs it starts: no dev mailbox, no local Stripe, no demo logins, money answers 503', async () => {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const server = serverProcess({
    DATABASE_URL: database.url,
    PORT: String(port),
    PUBLIC_URL: 'https://pacta.example.test',
    // Nothing is sent at start; the test sends no e-mail (confirmation off).
    SMTP_URL: 'smtp://127.0.0.1:9',
    EMAIL_CONFIRMATION: 'off',
    PAYMENTS: 'off',
    // The seed switch of old must not bring the demo logins into a deployment.
    SEED: '1',
  });
  const health = await waitForHealth(url, server);
  expect(health).toEqual({ status: 'ok', database: { reachable: true }, payments: 'unavailable' });

  for (const mailbox of ['/auth/v1/dev/mailbox', '/auth/v1/dev/mailbox.json', '/auth/v1/dev/mailbox.json?email=a']) {
    const res = await fetch(`${url}${mailbox}`);
    expect(res.status, mailbox).toBe(404);
    expect(await res.json()).toMatchObject({ code: 'not_found' });
  }

  const signUp = await fetch(`${url}/auth/v1/signup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', apikey: 'anon' },
    body: JSON.stringify({ email: 'brand@example.test', password: 'a long password', data: { role: 'brand' } }),
  });
  expect(signUp.status).toBe(200);
  const { access_token: token } = (await signUp.json()) as { access_token: string };
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  for (const [method, route, body] of [
    ['POST', '/api/create-checkout-session', { userId: '00000000-0000-4000-8000-000000000000', interval: 'monthly' }],
    ['POST', '/api/payouts/onboarding', {}],
    ['GET', '/api/billing/subscription', undefined],
    ['POST', '/api/release-escrow', { dealId: '00000000-0000-4000-8000-000000000000' }],
  ] as const) {
    const res = await fetch(`${url}${route}`, { method, headers, body: body && JSON.stringify(body) });
    expect(res.status, route).toBe(503);
    expect(await res.json()).toEqual({
      code: 'payments_unavailable',
      message: expect.any(String),
      request_id: expect.any(String),
    });
  }

  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  const demo = await client.query('select count(*)::int as n from auth.users where email = any($1)', [
    DEMO_LOGINS.map((login) => login.email),
  ]);
  await client.end();
  expect(demo.rows[0].n).toBe(0);
  expect(server.output()).not.toContain('Local Stripe');
  expect(server.output()).not.toContain('Demo logins');
  expect(server.output()).not.toContain('Dev mailbox');
  server.child.kill('SIGTERM');
  await exited(server.child);
});

async function waitForHealth(url: string, server: { child: ChildProcess; output: () => string }): Promise<unknown> {
  for (;;) {
    if (server.child.exitCode !== null) throw new Error(`the server exited: ${server.output()}`);
    const res = await fetch(`${url}/api/health`).catch(() => undefined);
    if (res?.ok) return res.json();
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
