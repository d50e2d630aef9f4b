import { expect, test } from 'vitest';
import { conflictHandlerFor, mergeConflict } from './conflict-handler.ts';

const profileOwned = ['xp', 'level', 'role'];
const base = {
  id: 'p1',
  full_name: 'Ana',
  bio: 'old bio',
  xp: 10,
  level: 1,
  niches: ['Music'],
  version: 3,
  _deleted: false,
};

test('an offline edit survives the server changing a server-owned field meanwhile', () => {
  const mine = { ...base, bio: 'new bio written offline' };
  const master = { ...base, xp: 35, version: 4, updated_at: '2026-11-22T10:00:00Z' };
  expect(
    mergeConflict({ newDocumentState: mine, assumedMasterState: base, realMasterState: master }, profileOwned),
  ).toEqual({
    ...master,
    bio: 'new bio written offline',
  });
});

test('server-owned and sync fields always come from the server', () => {
  const mine = { ...base, xp: 9999, version: 99, full_name: 'Ana B.' };
  const master = { ...base, xp: 35, version: 4 };
  const merged = mergeConflict(
    { newDocumentState: mine, assumedMasterState: base, realMasterState: master },
    profileOwned,
  );
  expect(merged).toMatchObject({ xp: 35, version: 4, full_name: 'Ana B.' });
});

test('a field both sides changed takes this device’s value; untouched fields keep the server’s', () => {
  const mine = { ...base, bio: 'mine' };
  const master = { ...base, bio: 'theirs', full_name: 'Ana from the other device', version: 4 };
  expect(
    mergeConflict({ newDocumentState: mine, assumedMasterState: base, realMasterState: master }, profileOwned),
  ).toMatchObject({
    bio: 'mine',
    full_name: 'Ana from the other device',
  });
});

test('lists changed on two devices merge as sets (skips from both devices stay, removals apply)', () => {
  const seen = { id: 'l1', kind: 'skipped_deals', items: ['a', 'b'], version: 2, _deleted: false };
  const mine = { ...seen, items: ['b', 'c'] }; // removed a, added c
  const master = { ...seen, items: ['a', 'b', 'd'], version: 3 }; // other device added d
  expect(
    mergeConflict({ newDocumentState: mine, assumedMasterState: seen, realMasterState: master }, []).items,
  ).toEqual(['b', 'd', 'c']);
  // Two devices creating the same derived-id list offline: the second insert meets the first.
  const first = { id: 'l1', kind: 'skipped_deals', items: ['x'], version: 1, _deleted: false };
  const second = { id: 'l1', kind: 'skipped_deals', items: ['y'], _deleted: false };
  expect(mergeConflict({ newDocumentState: second, realMasterState: first }, []).items).toEqual(['x', 'y']);
});

test('a write the server refused, or a row it deleted, is taken as the server has it (no retry loop)', () => {
  const mine = { ...base, bio: 'mine' };
  const refused = {
    ...base,
    sync_rejection: { code: 'deal_not_open', message: 'This deal is no longer open for applications.' },
  };
  expect(
    mergeConflict({ newDocumentState: mine, assumedMasterState: base, realMasterState: refused }, profileOwned),
  ).toBe(refused);
  const deleted = { ...base, _deleted: true, version: 4 };
  expect(
    mergeConflict({ newDocumentState: mine, assumedMasterState: base, realMasterState: deleted }, profileOwned),
  ).toBe(deleted);
});

test('with nothing of its own to re-apply, the server copy is returned as is', () => {
  const master = { ...base, xp: 40, version: 4 };
  expect(
    mergeConflict({ newDocumentState: base, assumedMasterState: base, realMasterState: master }, profileOwned),
  ).toBe(master);
});

test('equality ignores RxDB bookkeeping and an empty rejection marker, but not a real one', () => {
  const handler = conflictHandlerFor('profiles');
  const doc = { ...base };
  expect(handler.isEqual(doc, { ...doc, sync_rejection: null, _meta: { lwt: 1 }, _rev: '1-a' }, 'test')).toBe(true);
  expect(handler.isEqual(doc, { ...doc, sync_rejection: { code: 'x', message: 'y' } }, 'test')).toBe(false);
  expect(handler.isEqual(doc, { ...doc, bio: 'other' }, 'test')).toBe(false);
});

test('equality ignores the derived keys; two removals of one document are equal whatever they carry', () => {
  const handler = conflictHandlerFor('deals');
  const deal = { id: 'd1', title: 'Reel', created_at: '2026-11-23T08:00:00Z', _deleted: false };
  expect(handler.isEqual(deal, { ...deal, newest_first: -1 }, 'test')).toBe(true);
  expect(handler.isEqual(deal, { ...deal, open_until: '9999-12-31' }, 'test')).toBe(true);
  // The server's removal, and the same removal as the local database stores it (indexed booleans filled).
  const removal = { id: 'd1', _deleted: true };
  expect(handler.isEqual(removal, { ...removal, pro_only: false, created_at: '2026-11-23T09:00:00Z' }, 'test')).toBe(
    true,
  );
  expect(handler.isEqual(removal, { ...deal }, 'test')).toBe(false);
});

test('two devices editing different fields of one brief draft keep both edits; the later edit of one field wins', async () => {
  const e = (value: unknown, at: number, device: string) => ({ value, at, device });
  const seen = {
    id: 'd1',
    kind: 'campaign_brief',
    title: 'Trail',
    payload: { fields: { title: e('Trail', 1, 'phone') } },
    version: 2,
    _deleted: false,
  };
  const mine = {
    ...seen,
    payload: { fields: { title: e('Trail', 1, 'phone'), goals: e('Reach runners', 10, 'phone') } },
  };
  const master = {
    ...seen,
    title: 'Trail shoes',
    payload: { fields: { title: e('Trail shoes', 5, 'laptop') } },
    version: 3,
  };
  const merged = await conflictHandlerFor('drafts').resolve(
    { newDocumentState: mine, assumedMasterState: seen, realMasterState: master },
    'test',
  );
  expect(merged).toMatchObject({
    title: 'Trail shoes',
    version: 3,
    payload: { fields: { title: e('Trail shoes', 5, 'laptop'), goals: e('Reach runners', 10, 'phone') } },
  });
});

test('a read position merges as a maximum: a late, lower one never moves it back', () => {
  const conv = { id: 'c1', user1_read_seq: 3, user2_read_seq: 1, last_seq: 3, version: 2, _deleted: false };
  const stale = { ...conv, user1_read_seq: 5 };
  const newer = { ...conv, user1_read_seq: 9, last_seq: 9, version: 5 };
  const owned = ['last_seq'];
  const max = ['user1_read_seq', 'user2_read_seq'];
  expect(mergeConflict({ newDocumentState: stale, assumedMasterState: conv, realMasterState: newer }, owned, max)).toBe(
    newer,
  );
  const ahead = { ...conv, user1_read_seq: 12 };
  expect(
    mergeConflict({ newDocumentState: ahead, assumedMasterState: conv, realMasterState: newer }, owned, max),
  ).toMatchObject({
    user1_read_seq: 12,
    version: 5,
  });
});
