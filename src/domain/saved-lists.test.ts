import { expect, test } from 'vitest';
import { addSavedItem, removeSavedItem, savedListId } from './saved-lists.ts';

test('a saved-list id depends only on the user and the kind, whatever the id case', () => {
  const user = '0190f3a2-1111-7aaa-8bbb-123456789abc';
  expect(savedListId(user, 'shortlist')).toBe(savedListId(user.toUpperCase(), 'shortlist'));
  expect(savedListId(user, 'shortlist')).not.toBe(savedListId(user, 'saved_campaigns'));
  expect(savedListId(user, 'shortlist')).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
});

test('empty and duplicate entries are not added; entries are trimmed', () => {
  expect(addSavedItem([], '   ')).toBeNull();
  expect(addSavedItem(['a'], ' a ')).toBeNull();
  expect(addSavedItem(['a'], ' b ')).toEqual(['a', 'b']);
  expect(removeSavedItem(['a', 'b'], 'a')).toEqual(['b']);
  expect(removeSavedItem(['a'], 'x')).toBeNull();
});
