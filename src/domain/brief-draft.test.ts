import { expect, test } from 'vitest';
import {
  deviceName,
  draftFieldsOf,
  editDraftField,
  lastDraftEdit,
  mergeDraftFields,
  type DraftFields,
} from './brief-draft.ts';

const e = (value: unknown, at: number, device: string) => ({ value, at, device });

test('the later edit of a field wins; a field edited on one device only is kept', () => {
  const phone: DraftFields = { title: e('Summer', 10, 'phone'), goals: e('Reach', 20, 'phone') };
  const laptop: DraftFields = { title: e('Summer launch', 30, 'laptop'), budget: e('500', 31, 'laptop') };
  const expected = {
    title: e('Summer launch', 30, 'laptop'),
    goals: e('Reach', 20, 'phone'),
    budget: e('500', 31, 'laptop'),
  };
  expect(mergeDraftFields(phone, laptop)).toEqual(expected);
  expect(mergeDraftFields(laptop, phone)).toEqual(expected);
});

test('equal times fall to the greater device name, in either order', () => {
  const a = { title: e('A', 5, 'device-a') };
  const b = { title: e('B', 5, 'device-b') };
  expect(mergeDraftFields(a, b).title!.value).toBe('B');
  expect(mergeDraftFields(b, a).title!.value).toBe('B');
});

test("an edit made after seeing another device's edit wins even with a clock behind", () => {
  const seen: DraftFields = { title: e('From the laptop', 1_000, 'laptop') };
  const edited = editDraftField(seen, 'title', 'From the phone', 400, 'phone');
  expect(edited.title).toEqual(e('From the phone', 1_001, 'phone'));
  expect(mergeDraftFields(seen, edited).title!.value).toBe('From the phone');
  expect(editDraftField(edited, 'title', 'From the phone', 2_000, 'phone')).toBe(edited);
});

test('malformed payloads give only their well-formed fields; the last edit is the latest entry', () => {
  expect(draftFieldsOf(null)).toEqual({});
  expect(draftFieldsOf({ fields: [] })).toEqual({});
  expect(draftFieldsOf({ fields: { title: e('x', 1, 'p'), bad: { value: 1 }, worse: 'text' } })).toEqual({
    title: e('x', 1, 'p'),
  });
  expect(lastDraftEdit({})).toBeNull();
  expect(lastDraftEdit({ a: e(1, 5, 'p'), b: e(2, 9, 'q') })).toEqual({ at: 9, device: 'q' });
});

test('device names are short and ASCII', () => {
  expect(
    deviceName('Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 Chrome/126.0 Mobile Safari/537.36'),
  ).toBe('Chrome on Android');
  expect(
    deviceName(
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Version/17.0 Mobile/15E148 Safari/604.1',
    ),
  ).toBe('Safari on iOS');
  expect(
    deviceName(
      'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0 Safari/537.36',
    ),
  ).toBe('Chrome on Linux');
  expect(deviceName('')).toBe('Browser on another system');
});
