import { expect, test } from 'vitest';
import type { ProfileDocument } from '../../domain/collections/index.ts';
import { absentPersonName, displayName } from './inbox-format.ts';

test('a conversation whose other person has no profile on the device names a deleted account once the first sync is done', () => {
  expect(displayName(undefined, absentPersonName(false))).toBe('Pacta member');
  expect(displayName(undefined, absentPersonName(true))).toBe('Deleted user');
  expect(displayName({ full_name: 'Maya Chen' } as ProfileDocument, absentPersonName(true))).toBe('Maya Chen');
});
