import { expect, test } from 'vitest';
import { importOrReload, RELOAD_QUIET_MS, reloadForFailedCode, type ReloadPlace } from './code-reload.ts';

/** A tab: its session storage survives the reloads, as a browser's does. */
function tab(options: { online?: boolean; storageFails?: boolean } = {}) {
  const stored = new Map<string, string>();
  const clock = { time: 1_000_000, reloads: 0 };
  const place: ReloadPlace = {
    storage: {
      getItem: (key: string) => stored.get(key) ?? null,
      setItem: (key: string, value: string) => {
        if (options.storageFails) throw new Error('QuotaExceededError');
        stored.set(key, value);
      },
    },
    now: () => clock.time,
    reloadWouldLoad: () => options.online ?? true,
    reload: () => void clock.reloads++,
  };
  return Object.assign(clock, { place });
}

const failedChunk = () => Promise.reject(new TypeError('Failed to fetch dynamically imported module'));

test('the first failed load reloads the page and leaves the screen loading', async () => {
  const t = tab();
  let settled = false;
  void importOrReload(failedChunk, t.place).finally(() => (settled = true));
  await new Promise((resolve) => setTimeout(resolve, 10));
  expect(t.reloads).toBe(1);
  expect(settled).toBe(false);
});

test('a second failure within the quiet minute is shown instead of reloading again', async () => {
  const t = tab();
  expect(reloadForFailedCode(t.place)).toBe(true);
  t.time += RELOAD_QUIET_MS - 1;
  await expect(importOrReload(failedChunk, t.place)).rejects.toThrow('Failed to fetch dynamically imported module');
  expect(t.reloads).toBe(1);

  t.time += 1;
  expect(reloadForFailedCode(t.place)).toBe(true);
  expect(t.reloads).toBe(2);
});

test('no automatic reload when the reload would not load the app, or could not be recorded', async () => {
  const offline = tab({ online: false });
  await expect(importOrReload(failedChunk, offline.place)).rejects.toThrow(TypeError);
  expect(offline.reloads).toBe(0);

  const noStorage = tab({ storageFails: true });
  await expect(importOrReload(failedChunk, noStorage.place)).rejects.toThrow(TypeError);
  expect(noStorage.reloads).toBe(0);
});

test('a load that succeeds is returned as it is', async () => {
  const t = tab();
  await expect(importOrReload(() => Promise.resolve({ Page: 'page' }), t.place)).resolves.toEqual({ Page: 'page' });
  expect(t.reloads).toBe(0);
});
