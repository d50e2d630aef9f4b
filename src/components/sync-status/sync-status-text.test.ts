import { expect, test } from 'vitest';
import type { LocalSyncView } from '../../db/sync-view.ts';
import { lastSyncedText, summarise, waitingText } from './sync-status-text.ts';

const status = (patch: Partial<NonNullable<LocalSyncView['status']>> = {}): LocalSyncView['status'] => ({
  online: true,
  streaming: true,
  pendingPush: 0,
  lastSyncedAt: 1_000,
  initialSync: { done: 12, total: 12, complete: true },
  lastError: null,
  rejected: [],
  ...patch,
});

test('waiting changes are counted in words', () => {
  expect(waitingText(1)).toBe('1 change waiting to sync');
  expect(waitingText(3)).toBe('3 changes waiting to sync');
});

test('last synced reads as a relative time', () => {
  expect(lastSyncedText(null, 0)).toBe('Not synced yet');
  expect(lastSyncedText(0, 10_000)).toBe('Last synced just now');
  expect(lastSyncedText(0, 5 * 60_000)).toBe('Last synced 5 min ago');
  expect(lastSyncedText(0, 3 * 3_600_000)).toBe('Last synced 3 h ago');
});

test('offline wins over everything, then errors, then the initial sync progress', () => {
  expect(summarise({ role: 'leader', browserOnline: false, status: status() }).tone).toBe('offline');
  expect(
    summarise({
      role: 'leader',
      browserOnline: true,
      status: status({ online: false, lastError: { code: 'offline', message: 'x' } }),
    }).label,
  ).toBe('Offline');
  const failed = summarise({
    role: 'leader',
    browserOnline: true,
    status: status({ lastError: { code: 'bad_jwt', message: 'invalid JWT' } }),
  });
  expect(failed.tone).toBe('error');
  expect(failed.error).toBe('Sync could not verify your session. Retry, or sign out and sign in again.');
  expect(
    summarise({
      role: 'leader',
      browserOnline: true,
      status: status({ initialSync: { done: 5, total: 12, complete: false } }),
    }).label,
  ).toBe('Syncing 5/12');
  expect(summarise({ role: 'follower', browserOnline: true, status: status() }).label).toBe('Synced');
});

test('changes the server refused are never shown as "Synced"', () => {
  const refusal = {
    collection: 'applications',
    id: 'a1',
    code: 'deal_not_open',
    message: 'This deal is no longer open for applications.',
  };
  const one = summarise({ role: 'leader', browserOnline: true, status: status({ rejected: [refusal] }) });
  expect(one).toEqual({ tone: 'error', label: '1 change could not be saved', error: null });
  const two = summarise({
    role: 'leader',
    browserOnline: true,
    status: status({ rejected: [refusal, { ...refusal, id: 'a2' }], pendingPush: 0 }),
  });
  expect(two.label).toBe('2 changes could not be saved');
  // A status from a tab of an older build (no refusals field) still reads as synced.
  expect(
    summarise({ role: 'leader', browserOnline: true, status: { ...status()!, rejected: undefined as never } }).label,
  ).toBe('Synced');
});
