import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: [
            'src/**/*.test.{ts,tsx}',
            'workers/**/*.test.ts',
            'sync-server/**/*.test.ts',
            'tests/lint/*.test.ts',
          ],
          exclude: ['**/*.pg.test.ts', 'node_modules/**'],
          setupFiles: ['tests/support/fail-on-console-error.ts'],
          // Unit tests first, then the Postgres project with its own worker limit.
          sequence: { groupOrder: 0 },
        },
      },
      {
        test: {
          name: 'pg',
          include: ['tests/**/*.pg.test.ts', 'sync-server/**/*.pg.test.ts', 'src/**/*.pg.test.ts'],
          globalSetup: ['tests/support/pg-global-setup.ts'],
          setupFiles: ['tests/support/fail-on-console-error.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          // What a test waits for in the background (an e-mail sent, a webhook applied) may take more than
          // expect.poll's default second on a busy 2-core machine; a wrong value still fails, later.
          expect: { poll: { timeout: 15_000 } },
          // Each file gets its own database cloned from the migrated template; 2 cores, so 2 at a time.
          maxWorkers: 2,
          fileParallelism: true,
          // One retry on CI for the integration tests (real servers, timing under load); flaky ones show as retried.
          retry: process.env.CI ? 1 : 0,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
