import { DEFAULT_DEVICE_DEALS, MAX_DEVICE_DEALS } from '../domain/collections/index.ts';

/**
 * How many deals this device asks to hold (its working set; the server chooses which: the deals the
 * user is party to, then the open deals that matter most to them). A setting of this device, not of
 * the account: a phone may keep fewer than a laptop. Sent as `set` on every deals pull.
 */
const KEY = 'pacta-device-deals';

/** The stored choice; undefined when none (the server's default, DEFAULT_DEVICE_DEALS, applies). */
export function storedDeviceDeals(): number | undefined {
  try {
    const value = Number(globalThis.localStorage?.getItem(KEY) ?? NaN);
    return Number.isInteger(value) && value >= 1 && value <= MAX_DEVICE_DEALS ? value : undefined;
  } catch {
    return undefined; // storage refused (a private window's policy): the server's default
  }
}

/** Stores the choice (the default removes it); the next pull asks for it. */
export function storeDeviceDeals(deals: number): void {
  try {
    if (deals === DEFAULT_DEVICE_DEALS) localStorage.removeItem(KEY);
    else localStorage.setItem(KEY, String(deals));
  } catch {
    // storage refused: the server's default stays
  }
}
