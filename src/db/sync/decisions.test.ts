import { expect, test } from 'vitest';
import type { PushRow, SyncDoc } from '../sync-api.ts';
import {
  parentsNamed,
  parentUnconfirmed,
  pullAfterStreamedPage,
  recheckAfterNotice,
  refusalDroppedByPull,
  refusalOf,
  refusedRow,
  resetRemovals,
  withKnownMasters,
  withoutRejections,
} from './decisions.ts';

const doc = (id: string, fields: Record<string, unknown> = {}): SyncDoc => ({ id, _deleted: false, ...fields });

test('a reset removes what the restarted feed no longer has, but for changes to push and refused documents', () => {
  const local = [
    doc('in-feed'),
    doc('gone', { title: 'Closed meanwhile', tags: ['a'] }),
    doc('to-push'),
    doc('refused', { sync_rejection: { code: 'out_of_scope', message: 'No' } }),
  ];
  const removals = resetRemovals(local, {
    inFeed: new Set(['in-feed']),
    waitingToPush: (id) => id === 'to-push',
  });
  expect(removals).toEqual([{ id: 'gone', title: 'Closed meanwhile', tags: ['a'], _deleted: true }]);
  expect(removals[0]!.tags).not.toBe(local[1]!.tags);
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

test('a refused document is never sent again; the server state it was refused on goes without the marker', () => {
  const refusal = { code: 'server_owned_field', message: 'Not yours to set' };
  const rows: PushRow[] = [
    { newDocumentState: doc('still-refused', { sync_rejection: refusal }) },
    {
      newDocumentState: doc('mended', { title: 'Fixed' }),
      assumedMasterState: doc('mended', { title: 'Server', sync_rejection: refusal }),
    },
    { newDocumentState: doc('plain') },
  ];
  const sendable = withoutRejections(rows);
  expect(sendable.map((r) => r.newDocumentState.id)).toEqual(['mended', 'plain']);
  expect(sendable[0]!.assumedMasterState).toEqual(doc('mended', { title: 'Server' }));
  expect(sendable[1]!.assumedMasterState).toBeUndefined();
});

test('a row sent without a base gets the server state received last; a row with one keeps its own', () => {
  const received = new Map([
    ['new-base', doc('new-base', { version: 3 })],
    ['has-base', doc('has-base', { version: 9 })],
  ]);
  const rows: PushRow[] = [
    { newDocumentState: doc('new-base') },
    { newDocumentState: doc('has-base'), assumedMasterState: doc('has-base', { version: 2 }) },
    { newDocumentState: doc('never-received') },
  ];
  const sent = withKnownMasters(rows, (id) => received.get(id));
  expect(sent).toBe(rows);
  expect(sent.map((r) => r.assumedMasterState?.version)).toEqual([3, 2, undefined]);
});

test('the refusal a document holds: code and message, none once deleted or without a code', () => {
  expect(refusalOf(doc('a', { sync_rejection: { code: 'invalid', message: 'Too long' } }))).toEqual({
    code: 'invalid',
    message: 'Too long',
  });
  expect(refusalOf(doc('b', { sync_rejection: { code: 'invalid' } }))).toEqual({ code: 'invalid', message: '' });
  expect(refusalOf({ ...doc('c', { sync_rejection: { code: 'invalid', message: 'x' } }), _deleted: true })).toBeNull();
  expect(refusalOf(doc('d', { sync_rejection: { message: 'no code' } }))).toBeNull();
  expect(refusalOf(doc('e'))).toBeNull();
  expect(refusalOf(undefined)).toBeNull();
});

test('a pulled copy that drops a refusal gets it back; a removal, or a copy still refused, does not', () => {
  const refusal = { code: 'deal_funded', message: 'The amount cannot change once the deal is funded.' };
  const refused = doc('a', { title: 'Old', sync_rejection: refusal });
  expect(refusalDroppedByPull(refused, doc('a', { title: 'New' }))).toEqual(refusal);
  expect(refusalDroppedByPull(refused, { ...doc('a'), _deleted: true })).toBeNull();
  expect(refusalDroppedByPull(refused, doc('a', { sync_rejection: refusal }))).toBeNull();
  expect(refusalDroppedByPull(doc('a', { title: 'Old' }), doc('a', { title: 'New' }))).toBeNull();
  expect(refusalDroppedByPull(undefined, doc('a'))).toBeNull();
});

test('a child waits for a parent the server has not confirmed: still to push, or never stamped', () => {
  expect(parentUnconfirmed(4, false)).toBe(false);
  expect(parentUnconfirmed(4, true)).toBe(true);
  expect(parentUnconfirmed(null, false)).toBe(true);
  expect(parentUnconfirmed(undefined, false)).toBe(true);
});

test('a short streamed page ends the stream and asks for one more pull, but not a feed that brought nothing', () => {
  expect(pullAfterStreamedPage(1_000, 1_000, false)).toBe(false);
  expect(pullAfterStreamedPage(420, 1_000, false)).toBe(true);
  expect(pullAfterStreamedPage(0, 1_000, true)).toBe(true);
  // An empty first page: RxDB keeps no checkpoint for it, so one more pull would open another stream.
  expect(pullAfterStreamedPage(0, 1_000, false)).toBe(false);
});

test('an empty pull soon after a change notice looks once more; a later or fruitful one does not', () => {
  expect(recheckAfterNotice(0, 10_500, 10_000)).toBe(true);
  expect(recheckAfterNotice(0, 11_000, 10_000)).toBe(false);
  expect(recheckAfterNotice(2, 10_500, 10_000)).toBe(false);
  expect(recheckAfterNotice(0, 10_500, undefined)).toBe(false);
});
