import { expect, test } from 'vitest';
import type { PushRow, SyncDoc } from '../sync-api.ts';
import { parentsNamed, refusedRow, resetRemovals } from './decisions.ts';

const doc = (id: string, fields: Record<string, unknown> = {}): SyncDoc => ({ id, _deleted: false, ...fields });

test('a reset removes what the restarted feed no longer has, but for changes to push and refused documents', () => {
  const local = [
    doc('in-feed'),
    doc('gone', { title: 'Closed meanwhile', tags: ['a'] }),
    doc('to-push'),
    doc('refused', { sync_rejection: { code: 'out_of_scope', message: 'No' } }),
  ];
  const { removals, pullAgain } = resetRemovals(local, {
    inFeed: new Set(['in-feed']),
    waitingToPush: (id) => id === 'to-push',
    sentDuringFeed: () => false,
  });
  expect(removals).toEqual([{ id: 'gone', title: 'Closed meanwhile', tags: ['a'], _deleted: true }]);
  expect(removals[0]!.tags).not.toBe(local[1]!.tags);
  expect(pullAgain).toBe(false);
});

test('a removal a push wrote while the feed was read asks for another pull at once', () => {
  const { removals, pullAgain } = resetRemovals([doc('just-sent')], {
    inFeed: new Set(),
    waitingToPush: () => false,
    sentDuringFeed: (id) => id === 'just-sent',
  });
  expect(removals.map((r) => r.id)).toEqual(['just-sent']);
  expect(pullAgain).toBe(true);
});

test('a refused row comes back on the server’s last state with the reason; outside the scope it is removed too', () => {
  const row: PushRow = {
    newDocumentState: doc('d1', { title: 'Mine now' }),
    assumedMasterState: doc('d1', { title: 'Server' }),
  };
  expect(refusedRow(row, { code: 'server_owned_field', message: 'Not yours to set' })).toEqual({
    id: 'd1',
    _deleted: false,
    title: 'Server',
    sync_rejection: { code: 'server_owned_field', message: 'Not yours to set' },
  });
  expect(refusedRow(row, { code: 'out_of_scope', message: 'Gone' })._deleted).toBe(true);
  // Never on the server: the row itself carries the refusal.
  expect(
    refusedRow({ newDocumentState: doc('d2', { title: 'Draft' }) }, { code: 'invalid', message: 'x' }),
  ).toMatchObject({
    title: 'Draft',
    sync_rejection: { code: 'invalid' },
  });
});

test('the parents a batch names, once each, per parent collection (the push waits for those first)', () => {
  const rows: PushRow[] = [
    { newDocumentState: doc('m1', { conversation_id: 'c1' }) },
    { newDocumentState: doc('m2', { conversation_id: 'c1' }) },
    { newDocumentState: doc('m3', { conversation_id: 'c2' }) },
    { newDocumentState: doc('m4', { conversation_id: null }) },
  ];
  expect(parentsNamed([{ field: 'conversation_id', collection: 'conversations' }], rows)).toEqual([
    { collection: 'conversations', ids: ['c1', 'c2'] },
  ]);
  expect(parentsNamed([], rows)).toEqual([]);
});
