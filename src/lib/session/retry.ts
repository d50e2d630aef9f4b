/** Rejects with `message` when `work` has not settled within `ms` (spec §9 "Profile fetch timeout 7 s"). */
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

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export type RetryOptions = {
  /** Attempts after the first one. */
  retries: number;
  delayMs: number;
  /** Return false to stop retrying (for example when the device went offline). */
  shouldRetry?: (error: unknown) => boolean;
};

/** Runs `attempt` once plus up to `retries` more times, `delayMs` apart; rethrows the last error. */
export async function retry<T>(attempt: (attemptNumber: number) => Promise<T>, options: RetryOptions): Promise<T> {
  let lastError: unknown;
  for (let n = 0; n <= options.retries; n++) {
    if (n > 0) await sleep(options.delayMs);
    try {
      return await attempt(n);
    } catch (error) {
      lastError = error;
      if (options.shouldRetry && !options.shouldRetry(error)) break;
    }
  }
  throw lastError;
}
