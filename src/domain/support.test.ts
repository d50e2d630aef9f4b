import { expect, test } from 'vitest';
import {
  askerCanReopen,
  averageFirstResponseMinutes,
  compareQueue,
  countsByStatus,
  replyText,
  SUPPORT_ERRORS,
  validateTicketDraft,
} from './support.ts';

test('a new ticket needs a subject and a message, within the server limits', () => {
  expect(validateTicketDraft({ subject: ' ', message: '' })).toEqual({
    subject: SUPPORT_ERRORS.subjectRequired,
    message: SUPPORT_ERRORS.messageRequired,
  });
  expect(validateTicketDraft({ subject: 'x'.repeat(201), message: 'x'.repeat(10_001) })).toEqual({
    subject: 'The subject can be at most 200 characters.',
    message: 'The message can be at most 10,000 characters.',
  });
  expect(validateTicketDraft({ subject: 'Payout', message: 'Where is it?' })).toEqual({});
});

test('a blank reply is ignored', () => {
  expect(replyText('  \n ')).toBeNull();
  expect(replyText('  Thanks! ')).toBe('Thanks!');
});

test('the queue: high first, then oldest first', () => {
  const tickets = [
    { id: 'a', priority: 'normal' as const, created_at: '2026-11-01T10:00:00Z' },
    { id: 'b', priority: 'high' as const, created_at: '2026-11-03T10:00:00Z' },
    { id: 'c', priority: 'low' as const, created_at: '2026-10-01T10:00:00Z' },
    { id: 'd', priority: 'high' as const, created_at: '2026-11-02T10:00:00Z' },
    { id: 'e', priority: 'normal' as const, created_at: '2026-10-31T10:00:00Z' },
  ];
  expect([...tickets].sort(compareQueue).map((t) => t.id)).toEqual(['d', 'b', 'e', 'a', 'c']);
});

test('average first response: whole minutes over answered tickets of the last 30 days', () => {
  const now = new Date('2026-11-23T12:00:00Z');
  const at = (minutesAgo: number) => new Date(now.getTime() - minutesAgo * 60_000).toISOString();
  expect(averageFirstResponseMinutes([], now)).toBeNull();
  expect(
    averageFirstResponseMinutes(
      [
        { created_at: at(120), first_response_at: at(110) },
        { created_at: at(3000), first_response_at: at(2975) },
        { created_at: at(60), first_response_at: null },
        { created_at: at(31 * 24 * 60), first_response_at: at(31 * 24 * 60 - 600) },
      ],
      now,
    ),
  ).toBe(18);
});

test('counts by status', () => {
  expect(countsByStatus([{ status: 'open' }, { status: 'closed' }, { status: 'open' }])).toEqual({
    open: 2,
    closed: 1,
  });
});

test('the asker reopens within 14 days of closing', () => {
  const now = new Date('2026-11-23T12:00:00Z');
  expect(askerCanReopen({ status: 'closed', closed_at: '2026-11-10T12:00:00Z' }, now)).toBe(true);
  expect(askerCanReopen({ status: 'closed', closed_at: '2026-11-08T11:00:00Z' }, now)).toBe(false);
  expect(askerCanReopen({ status: 'open', closed_at: null }, now)).toBe(false);
});
