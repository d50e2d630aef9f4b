import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { expect, test } from 'vitest';

const embedded = pathToFileURL(path.resolve(import.meta.dirname, 'embedded.ts')).href;

function exitCodeOf(script: string): number | null {
  const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    encoding: 'utf8',
  });
  return run.status;
}

// A test run with failing tests sets process.exitCode and lets the process end; loading the embedded
// Postgres (whose exit hook calls process.exit(0)) must not turn that into success.
test('a process that loaded the embedded Postgres ends with the failure code it set', () => {
  expect(exitCodeOf(`await import(${JSON.stringify(embedded)}); process.exitCode = 3;`)).toBe(3);
});

test('and with 0 when nothing failed', () => {
  expect(exitCodeOf(`await import(${JSON.stringify(embedded)});`)).toBe(0);
});
