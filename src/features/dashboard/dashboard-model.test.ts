import { expect, test } from 'vitest';
import type { MessageDocument } from '../../domain/collections/index.ts';
import { brandStats, COUNTING, creatorStats, greeting, recentMessages } from './dashboard-model.ts';

const me = 'aaaaaaaa-0000-7000-8000-000000000001';
const other = 'aaaaaaaa-0000-7000-8000-000000000002';
const third = 'aaaaaaaa-0000-7000-8000-000000000003';

test('recent messages: mine only, newest first, at most 5', () => {
  const msgs = Array.from({ length: 8 }, (_, i) => ({
    id: `m${i}`,
    conversation_id: 'c',
    sender_id: i % 2 ? me : other,
    recipient_id: i % 2 ? other : me,
    body: `b${i}`,
    read_at: null,
    created_at: `2026-01-0${i + 1}T00:00:00Z`,
  })) as MessageDocument[];
  msgs.push({ ...msgs[0]!, id: 'foreign', sender_id: other, recipient_id: third, created_at: '2026-02-01T00:00:00Z' });
  expect(recentMessages(msgs, me).map((m) => m.id)).toEqual(['m7', 'm6', 'm5', 'm4', 'm3']);
});

test('quick stats show the counts by status and the applications received', () => {
  const stats = brandStats({ total: 3, open: 2, in_progress: 0, completed: 1, received: 6 });
  expect(Object.fromEntries(stats.map((s) => [s.label, s.value]))).toEqual({
    'Total deals': 3,
    'Open deals': 2,
    'In progress': 0,
    Completed: 1,
    'Applications received': 6,
  });
  expect(creatorStats({ total: 2, pending: 1, accepted: 1 }, 4).map((s) => s.value)).toEqual([2, 1, 1, 4]);
  // Not counted yet: each figure says so, the profile's completed deals show.
  expect(brandStats(undefined).map((s) => s.value)).toEqual(Array(5).fill(COUNTING));
  expect(creatorStats(undefined, 4).map((s) => s.value)).toEqual([COUNTING, COUNTING, COUNTING, 4]);
});

test('a brand-new user is welcomed, not welcomed back', () => {
  const now = new Date('2026-11-23T10:00:00Z');
  expect(greeting('Ada', { createdAt: '2026-11-23T09:58:00Z', itemCount: 0, messageCount: 0 }, now)).toBe(
    'Welcome to Pacta, Ada',
  );
  expect(greeting('Ada', { createdAt: undefined, itemCount: 0, messageCount: 0 }, now)).toBe('Welcome to Pacta, Ada');
  expect(greeting('Ada', { createdAt: '2026-11-23T09:58:00Z', itemCount: 2, messageCount: 0 }, now)).toBe(
    'Welcome back, Ada',
  );
  expect(greeting('Ada', { createdAt: '2026-10-01T09:58:00Z', itemCount: 0, messageCount: 0 }, now)).toBe(
    'Welcome back, Ada',
  );
});
