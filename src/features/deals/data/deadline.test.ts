import { expect, test } from 'vitest';
import { deadlineText, isDeadlineDate } from './deadline.ts';

test('a picked date reads as a date; older free text is shown exactly as written', () => {
  expect(deadlineText('2026-12-14')).toBe('14 Dec 2026');
  expect(deadlineText('Within 2 weeks')).toBe('Within 2 weeks');
  expect(deadlineText(null)).toBeNull();
  expect(isDeadlineDate('2026-12-14')).toBe(true);
  expect(isDeadlineDate('End of March')).toBe(false);
});
