import { expect, test } from 'vitest';
import { createSyncStatus } from './sync-status.ts';

test('a collection has local writes waiting until the server accepted each of them, and only its own count', () => {
  const status = createSyncStatus(2);
  status.localWrite('messages', ['m1', 'm2']);
  expect(status.hasPending('messages')).toBe(true);
  // A name that is a prefix of another is not confused with it.
  expect(status.hasPending('message')).toBe(false);
  expect(status.hasPending('conversations')).toBe(false);
  status.settled('messages', 'm1');
  expect(status.hasPending('messages')).toBe(true);
  status.settled('messages', 'm2');
  expect(status.hasPending('messages')).toBe(false);
  expect(status.value.pendingPush).toBe(0);
});
