import { defineConfig } from '@playwright/test';

const port = Number(process.env.E2E_PORT ?? 4273);
const baseURL = `http://127.0.0.1:${port}`;

/**
 * End-to-end tests against the built PWA (`npm run build`, done by `npm test`) served by the real
 * server on a throw-away embedded Postgres, in Debian's Chromium (never a downloaded browser).
 */
export default defineConfig({
  testDir: 'tests/e2e',
  testMatch: '**/*.spec.ts',
  // Spec files run in two workers against one server: every journey signs up its own accounts, and
  // what is global to the server (a simulated new deployment) is keyed to one browser. Tests in one
  // file stay in order. E2E_WORKERS=1 runs them one at a time.
  fullyParallel: false,
  workers: Number(process.env.E2E_WORKERS ?? 2),
  // One retry on CI: a test that passes only on retry is reported as flaky (see the run's output), not hidden.
  retries: process.env.CI ? 1 : 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: 'list',
  // Overridable so two runs on one machine do not delete each other's traces.
  outputDir: process.env.PLAYWRIGHT_OUTPUT_DIR ?? 'test-results/playwright',
  use: {
    baseURL,
    browserName: 'chromium',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    },
    // Every failure keeps the trace of its own attempt (a flaky test's passing retry says little).
    trace: 'retain-on-failure',
  },
  webServer: {
    command: 'npx tsx tests/e2e/support/start-e2e-server.ts',
    url: `${baseURL}/api/health`,
    env: { E2E_PORT: String(port) },
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: 'pipe',
    stderr: 'pipe',
    gracefulShutdown: { signal: 'SIGTERM', timeout: 20_000 },
  },
});
