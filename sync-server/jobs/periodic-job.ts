import type { FastifyBaseLogger } from 'fastify';

/**
 * A job every instance runs on a timer: `run()` now (tests, or a caller that cannot wait), `start()`
 * runs it at once and then every `everyMs`, `stop()` waits for the run in progress. Runs in one process
 * never overlap; across instances the job's own SQL decides who does what.
 */
export function createPeriodicJob<T>(opts: {
  everyMs: number;
  runOnce: () => Promise<T>;
  log: FastifyBaseLogger;
  /** Logged with the error when a timed run fails, e.g. 'confirming live links failed'. */
  failure: string;
}) {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> = Promise.resolve();

  /** Runs after any run in progress (never two at once in one process). */
  function run(): Promise<T> {
    const next = running.then(opts.runOnce, opts.runOnce);
    running = next.catch(() => {});
    return next;
  }
  const runLogged = () => {
    void run().catch((err: unknown) => opts.log.error({ err }, opts.failure));
  };

  return {
    run,
    start() {
      timer = setInterval(runLogged, opts.everyMs);
      timer.unref();
      runLogged();
    },
    async stop() {
      if (timer) clearInterval(timer);
      await running;
    },
  };
}
