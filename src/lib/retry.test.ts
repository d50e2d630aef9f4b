import { expect, test, vi } from 'vitest';
import { createBackoff, raceTimer, retry } from './retry.ts';

test('a backoff doubles up to its maximum and starts again after a reset', () => {
  const backoff = createBackoff({ firstMs: 250, maxMs: 1_000 });
  expect([backoff.next(), backoff.next(), backoff.next(), backoff.next()]).toEqual([250, 500, 1_000, 1_000]);
  backoff.reset();
  expect(backoff.next()).toBe(250);
});

test('retry tries once plus the retries, and stops early when told to', async () => {
  let attempts = 0;
  await expect(
    retry(async () => Promise.reject(new Error(`fail ${++attempts}`)), {
      retries: 2,
      delayMs: createBackoff({ firstMs: 1, maxMs: 2 }),
    }),
  ).rejects.toThrow('fail 3');
  attempts = 0;
  await expect(
    retry(async () => Promise.reject(new Error(`fail ${++attempts}`)), {
      retries: 5,
      delayMs: 1,
      shouldRetry: () => false,
    }),
  ).rejects.toThrow('fail 1');
  expect(await retry(async (n) => (n < 1 ? Promise.reject(new Error('once')) : 'ok'), { retries: 1, delayMs: 1 })).toBe(
    'ok',
  );
});

test('a race timer resolves after its time, and never once its race is decided', async () => {
  vi.useFakeTimers();
  try {
    const done: string[] = [];
    const running = new AbortController();
    void raceTimer(1_000, running.signal).then(() => done.push('ran'));
    const decided = new AbortController();
    void raceTimer(1_000, decided.signal).then(() => done.push('decided'));
    decided.abort();
    void raceTimer(10, decided.signal).then(() => done.push('already decided'));
    await vi.advanceTimersByTimeAsync(1_000);
    expect(done).toEqual(['ran']);
    expect(vi.getTimerCount()).toBe(0);
  } finally {
    vi.useRealTimers();
  }
});
