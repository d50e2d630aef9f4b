import { afterEach, expect, test, vi } from 'vitest';
import { storeDeviceDeals, storedDeviceDeals } from './device-deals.ts';

afterEach(() => vi.unstubAllGlobals());

function memoryStorage(): Storage {
  const items = new Map<string, string>();
  return {
    getItem: (k: string) => items.get(k) ?? null,
    setItem: (k: string, v: string) => void items.set(k, v),
    removeItem: (k: string) => void items.delete(k),
    clear: () => items.clear(),
    key: (i: number) => [...items.keys()][i] ?? null,
    get length() {
      return items.size;
    },
  };
}

test('the device asks for the number it stored; the default is not stored; a number the server refuses is not sent', () => {
  const storage = memoryStorage();
  vi.stubGlobal('localStorage', storage);
  expect(storedDeviceDeals()).toBeUndefined();
  storeDeviceDeals(5_000);
  expect(storedDeviceDeals()).toBe(5_000);
  storeDeviceDeals(20_000);
  expect(storedDeviceDeals()).toBeUndefined();
  for (const bad of ['0', '100001', '2.5', 'many']) {
    storage.setItem('pacta-device-deals', bad);
    expect(storedDeviceDeals()).toBeUndefined();
  }
});
