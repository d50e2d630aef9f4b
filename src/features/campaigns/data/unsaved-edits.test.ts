import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { forgetUnsavedEdits, keepUnsavedEdits, unsavedEditsOf } from './unsaved-edits.ts';

/** The browser's localStorage: it outlives the page, as the reload needs. */
beforeEach(() => {
  const map = new Map<string, string>();
  vi.stubGlobal('localStorage', {
    getItem: (k: string) => map.get(k) ?? null,
    setItem: (k: string, v: string) => void map.set(k, v),
    removeItem: (k: string) => void map.delete(k),
  });
});
afterEach(() => vi.unstubAllGlobals());

const edit = (name: string, value: unknown) => ({ name, value, at: 1_700_000_000_000 });

test('edits kept as a page goes away are there for the next page of the same user, until forgotten', () => {
  keepUnsavedEdits({ userId: 'u1', draftId: 'd1', device: 'Chrome on Android', edits: [edit('messaging', 'Grip')] });
  keepUnsavedEdits({ userId: 'u2', draftId: 'd2', device: 'Firefox on Linux', edits: [edit('title', 'Other')] });
  keepUnsavedEdits({ userId: 'u1', draftId: 'd1', device: 'Chrome on Android', edits: [edit('formats', ['TikTok'])] });

  expect(unsavedEditsOf('u1').map((k) => k.edits[0]!.name)).toEqual(['messaging', 'formats']);
  expect(unsavedEditsOf('u1')[0]).toEqual({
    userId: 'u1',
    draftId: 'd1',
    device: 'Chrome on Android',
    edits: [edit('messaging', 'Grip')],
  });

  forgetUnsavedEdits('u1', 'd1');
  expect(unsavedEditsOf('u1')).toEqual([]);
  // Another user's kept edits stay for them.
  expect(unsavedEditsOf('u2')).toHaveLength(1);
});

test('nothing is kept for no edits, and unreadable storage reads as nothing kept', () => {
  keepUnsavedEdits({ userId: 'u1', draftId: 'd1', device: 'd', edits: [] });
  expect(localStorage.getItem('pacta.briefEditsUnsaved')).toBeNull();
  localStorage.setItem('pacta.briefEditsUnsaved', '{not json');
  expect(unsavedEditsOf('u1')).toEqual([]);
});
