import { expect, test } from 'vitest';
import type { LocalSyncView } from '../../db/sync-view.ts';
import { lastSyncedText, refusedChangeView, summarise, waitingLine, waitingText } from './sync-status-text.ts';

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
  expect(one).toEqual({ tone: 'error', label: '1 not saved', error: null });
  const two = summarise({
    role: 'leader',
    browserOnline: true,
    status: status({ rejected: [refusal, { ...refusal, id: 'a2' }], pendingPush: 0 }),
  });
  expect(two.label).toBe('2 not saved');
  // A status from a tab of an older build (no refusals field) still reads as synced.
  expect(
    summarise({ role: 'leader', browserOnline: true, status: { ...status()!, rejected: undefined as never } }).label,
  ).toBe('Synced');
});

test('the panel never says "All changes synced" beside a refused change', () => {
  expect(waitingLine(0, 0)).toBe('All changes synced');
  expect(waitingLine(0, 1)).toBe('Nothing else is waiting to sync');
  expect(waitingLine(2, 1)).toBe('2 changes waiting to sync');
});

test('a refused change says which one it was and where to mend it', () => {
  expect(refusedChangeView('deals', 'd1', { title: 'Summer launch' })).toEqual({
    what: 'Deal “Summer launch”',
    href: '/deals/d1/edit',
  });
  expect(refusedChangeView('applications', 'a1', { deal_id: 'd1' })).toEqual({
    what: 'Your application',
    href: '/deals/d1',
  });
  expect(refusedChangeView('messages', 'm1', { conversation_id: 'c1', body: 'x'.repeat(60) }).what).toBe(
    `Message “${'x'.repeat(39)}…”`,
  );
  expect(refusedChangeView('applications', 'a1', null)).toEqual({ what: 'Your application', href: null });
  expect(refusedChangeView('something_new', 'x', null)).toEqual({ what: 'A change', href: null });
});
