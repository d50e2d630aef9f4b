/**
 * The one place for waiting and trying again: timeouts, fixed-delay retries (the session's profile
 * and session checks) and growing delays (the change stream's reconnects, the replication's re-pulls).
 */

/** Rejects with `message` when `work` has not settled within `ms` ("Profile fetch timeout 7 s"). */
export function withTimeout<T>(work: Promise<T>, ms: number, message: string): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new TimeoutError(message)), ms);
    work.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

export class TimeoutError extends Error {
  override name = 'TimeoutError';
}

/** Resolves after `ms`. */
export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Resolves after `ms`, for a race: once `signal` aborts (the race is decided) the timer is cleared and
 * the promise never settles.
 */
export function raceTimer(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise<void>((resolve) => {
    if (signal.aborted) return;
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => clearTimeout(timer), { once: true });
  });
}

export type RetryOptions = {
  /** Attempts after the first one. */
  retries: number;
  /** The wait before each retry: a fixed number of ms, or a backoff (which grows with each wait). */
  delayMs: number | Backoff;
  /** Return false to stop retrying (for example when the device went offline). */
  shouldRetry?: (error: unknown) => boolean;
};

/** Runs `attempt` once plus up to `retries` more times, waiting `delayMs` between; rethrows the last error. */
export async function retry<T>(attempt: (attemptNumber: number) => Promise<T>, options: RetryOptions): Promise<T> {
  let lastError: unknown;
  for (let n = 0; n <= options.retries; n++) {
    if (n > 0) await sleep(typeof options.delayMs === 'number' ? options.delayMs : options.delayMs.next());
    try {
      return await attempt(n);
    } catch (error) {
      lastError = error;
      if (options.shouldRetry && !options.shouldRetry(error)) break;
    }
  }
  throw lastError;
}

export type Backoff = {
  /** The delay to wait now; each call doubles the next one, up to the maximum. */
  next(): number;
  /** Start again from the first delay (after a success). */
  reset(): void;
};

/** Exponential backoff: `firstMs`, then twice as long each time, never more than `maxMs`. */
export function createBackoff(opts: { firstMs: number; maxMs: number }): Backoff {
  let delay = opts.firstMs;
  return {
    next() {
      const now = delay;
      delay = Math.min(delay * 2, opts.maxMs);
      return now;
    },
    reset() {
      delay = opts.firstMs;
    },
  };
}
