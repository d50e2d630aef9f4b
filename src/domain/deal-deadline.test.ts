import { expect, test } from 'vitest';
import { NO_LAST_DAY } from './collections/index.ts';
import { DEADLINE_MESSAGES, deadlineError, isCalendarDay, lastOfferedDay, localDay } from './deal-deadline.ts';

test('a deadline before today is refused; today, a later day, none or older free text pass', () => {
  expect(deadlineError('2020-01-01', '2026-11-27')).toBe(DEADLINE_MESSAGES.past);
  expect(deadlineError('2026-11-26', '2026-11-27')).toBe(DEADLINE_MESSAGES.past);
  expect(deadlineError('2026-11-27', '2026-11-27')).toBeNull();
  expect(deadlineError('2027-03-14', '2026-11-27')).toBeNull();
  expect(deadlineError('', '2026-11-27')).toBeNull();
  expect(deadlineError('Within 2 weeks', '2026-11-27')).toBeNull();
});

test('a date that is not a real day is refused', () => {
  expect(deadlineError('2027-02-30', '2026-11-27')).toBe(DEADLINE_MESSAGES.invalid);
  expect(isCalendarDay('2028-02-29')).toBe(true);
  expect(isCalendarDay('2027-02-29')).toBe(false);
});

test('localDay is the calendar day of the running clock, as YYYY-MM-DD', () => {
  const now = new Date(2026, 10, 27, 23, 59);
  expect(localDay(now)).toBe('2026-11-27');
});

test('a deal is offered through its deadline day; no deadline, free text or an unreal day never ends', () => {
  expect(lastOfferedDay('2026-12-14')).toBe('2026-12-14');
  expect(lastOfferedDay(null)).toBe(NO_LAST_DAY);
  expect(lastOfferedDay('Within 2 weeks')).toBe(NO_LAST_DAY);
  expect(lastOfferedDay('2026-02-31')).toBe(NO_LAST_DAY);
});
