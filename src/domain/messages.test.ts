import { expect, test } from 'vitest';
import type { MessageDocument } from './collections/index.ts';
import { badgeCount, compareMessages, messageBodyProblem, unreadCount } from './messages.ts';

test('a message is sent only if non-empty after trimming, up to 4,000 characters', () => {
  expect(messageBodyProblem('  \n\t ')).toBe('Type a message before sending.');
  expect(messageBodyProblem(' hi ')).toBeNull();
  expect(messageBodyProblem('x'.repeat(4000))).toBeNull();
  expect(messageBodyProblem('x'.repeat(4001))).toBe('A message can be at most 4,000 characters (this one has 4,001).');
});

test('unread count is the gap between the last sequence and my read position', () => {
  const c = { user1_id: 'a', user2_id: 'b', user1_read_seq: 4, user2_read_seq: 7, last_seq: 7 };
  expect(unreadCount(c, 'a')).toBe(3);
  expect(unreadCount(c, 'b')).toBe(0);
});

test('server order first, then pending messages in the order written', () => {
  const m = (id: string, seq: number | null, created_at: string) => ({ id, seq, created_at }) as MessageDocument;
  const list = [
    m('p2', null, '2026-01-01T00:00:03Z'),
    m('s2', 2, '2026-01-01T00:00:09Z'),
    m('p1', null, '2026-01-01T00:00:01Z'),
    m('s1', 1, '2026-01-01T00:00:10Z'),
  ];
  expect(list.sort(compareMessages).map((x) => x.id)).toEqual(['s1', 's2', 'p1', 'p2']);
});

test("the badge shows '99+' above 99", () => {
  expect(badgeCount(99)).toBe('99');
  expect(badgeCount(100)).toBe('99+');
});
