import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildServer } from '../../sync-server/app.ts';
import { loadConfig } from '../../sync-server/config.ts';
import { createDatabase, type Database } from '../../sync-server/db/database.ts';
import { freePort } from '../support/free-port.ts';
import { SignInPage } from './pages/auth-pages.ts';
import { databaseUrl } from './support/e2e-server-info.ts';
import { expect, test } from './support/console-errors.ts';

// An operator may run Pacta without payments (PAYMENTS=off): the app then says so instead of offering
// Upgrade, Manage subscription and Set up payouts buttons that could only fail. A second real server
// in deployment mode with PAYMENTS=off, on the e2e database, serving the same build. The suite fails on
// any console error, so one 503 from a money route the app should not have asked fails it too.

let server: FastifyInstance;
let db: Database;
let origin: string;
test.beforeAll(async () => {
  const port = await freePort();
  origin = `http://127.0.0.1:${port}`;
  const url = await databaseUrl();
  db = createDatabase(url);
  const config = {
    ...loadConfig({
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: url,
      PAYMENTS: 'off',
      EMAIL_CONFIRMATION: 'off',
      LOG_LEVEL: 'warn',
      // The e2e database has counted every sign-up of the run from 127.0.0.1 (limits live in Postgres):
      // the e2e server's own allowance, or this sign-up meets the per-IP limit late in the run.
      AUTH_RATE_LIMIT_SIGN_UP_PER_IP: '10000',
      AUTH_RATE_LIMIT_SIGN_IN_PER_IP: '10000',
      AUTH_RATE_LIMIT_SIGN_IN_PER_IP_AND_EMAIL: '10000',
    }),
    publicUrl: origin,
    staticDir: path.resolve(import.meta.dirname, '../../dist'),
  };
  expect(config.mode).toBe('deployment');
  server = await buildServer(config, db);
  await server.listen({ port, host: '127.0.0.1' });
});
test.afterAll(async () => {
  await server?.close();
  await db?.close();
});

const UNAVAILABLE = 'Payments are unavailable right now.';

test('a visitor on the Pro page is told payments are unavailable, not offered an upgrade', async ({ page }) => {
  await page.goto(`${origin}/pro`);
  await expect(page.getByText(UNAVAILABLE)).toBeVisible();
  await expect(page.getByRole('link', { name: 'Sign up to upgrade' })).toHaveCount(0);
});

test('a signed-in creator sees no Upgrade, Manage subscription or Set up payouts button', async ({ page }) => {
  const email = `creator-${Date.now()}@example.test`;
  const password = 'a long password 1';
  const signUp = await fetch(`${origin}/auth/v1/signup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', apikey: 'anon' },
    body: JSON.stringify({ email, password, data: { role: 'creator', full_name: 'Casey Creator' } }),
  });
  expect(signUp.status).toBe(200);

  await page.goto(`${origin}/auth/signin`);
  const signIn = new SignInPage(page);
  await signIn.signIn(email, password);
  await expect(page).toHaveURL(/\/dashboard/);

  await page.goto(`${origin}/settings?section=pro`);
  await expect(page.getByText(UNAVAILABLE).first()).toBeVisible();
  await expect(page.getByRole('button', { name: /Set up payouts|Manage subscription/ })).toHaveCount(0);

  await page.goto(`${origin}/pro`);
  await expect(page.getByText(UNAVAILABLE)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Upgrade to Pro' })).toHaveCount(0);
});
