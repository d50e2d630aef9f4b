import { expect, test } from 'vitest';
import {
  addSavedItem,
  invitationEntry,
  invitedCreators,
  isListFull,
  listLimitMessage,
  removeSavedItem,
  savedListId,
} from './saved-lists.ts';

test('a saved-list id depends only on the user and the kind, whatever the id case', () => {
  const user = '0190f3a2-1111-7aaa-8bbb-123456789abc';
  expect(savedListId(user, 'shortlist')).toBe(savedListId(user.toUpperCase(), 'shortlist'));
  expect(savedListId(user, 'shortlist')).not.toBe(savedListId(user, 'saved_campaigns'));
  expect(savedListId(user, 'shortlist')).toMatch(
    /^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
  );
});

test('empty and duplicate entries are not added; entries are trimmed', () => {
  expect(addSavedItem([], '   ')).toBeNull();
  expect(addSavedItem(['a'], ' a ')).toBeNull();
  expect(addSavedItem(['a'], ' b ')).toEqual(['a', 'b']);
  expect(removeSavedItem(['a', 'b'], 'a')).toEqual(['b']);
  expect(removeSavedItem(['a'], 'x')).toBeNull();
});

test('a free list is full at 10 entries, a Pro one never; skipped deals and invitations are not limited', () => {
  const ten = Array.from({ length: 10 }, (_, i) => `c${i}`);
  expect(isListFull('shortlist', ten.slice(1), false)).toBe(false);
  expect(isListFull('shortlist', ten, false)).toBe(true);
  expect(isListFull('saved_campaigns', ten, false)).toBe(true);
  expect(isListFull('shortlist', ten, true)).toBe(false);
  expect(isListFull('skipped_deals', ten, false)).toBe(false);
  expect(listLimitMessage('shortlist')).toBe(
    'Your Shortlist is full: a free account keeps up to 10 entries per list. Upgrade to Pro for unlimited lists.',
  );
});

test('invitations name a deal and a creator', () => {
  const items = [invitationEntry('D1', 'C1'), invitationEntry('d1', 'c2'), invitationEntry('d2', 'c1')];
  expect(invitedCreators(items, 'd1')).toEqual(['c1', 'c2']);
});
