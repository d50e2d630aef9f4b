/**
 * A browser as a device has it: Chromium with a profile of its own on disk, so IndexedDB is the
 * on-disk store a user's browser writes to.
 *
 * A plain `browser.newContext()` is an incognito-like context whose IndexedDB lives in memory, and that
 * backend is many times slower on a big transaction: measured in Chromium 150 on this machine, one
 * transaction of 10,000 small documents took 2,650 ms in memory against 732 ms on disk, and the
 * first sync of a brand's 60,000 documents 132 s. Benches that write big local data would measure the
 * test harness, not the app.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext, type BrowserContextOptions } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export type Device = { context: BrowserContext; close(): Promise<void> };

/** A fresh device (empty profile); `close()` shuts the browser and deletes the profile. */
export async function openDevice(options: BrowserContextOptions = {}): Promise<Device> {
  const profile = mkdtempSync(path.join(tmpdir(), 'pacta-bench-device-'));
  const context = await chromium.launchPersistentContext(profile, {
    ...options,
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu'],
  });
  return {
    context,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
