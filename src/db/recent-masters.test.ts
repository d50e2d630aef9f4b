import { expect, test } from 'vitest';
import { createRecentMasters } from './recent-masters.ts';

const deal = (id: string, title: string) => ({ id, _deleted: false, title });

test('gives back the last state received for a document, without RxDB bookkeeping', () => {
  const recent = createRecentMasters();
  recent.remember({ ...deal('a', 'First'), _meta: { lwt: 1 }, _rev: '1-x', _attachments: {} });
  recent.remember(deal('a', 'Second'));
  expect(recent.get('a')).toEqual(deal('a', 'Second'));
  recent.remember({ ...deal('b', 'Other'), _meta: { lwt: 2 }, _rev: '1-y' });
  expect(recent.get('b')).toEqual(deal('b', 'Other'));
  expect(recent.get('missing')).toBeUndefined();
});

test('forgets states older than the time limit and the oldest beyond the size limit', () => {
  let clock = 0;
  const recent = createRecentMasters({ ttlMs: 1_000, maxEntries: 2, now: () => clock });
  recent.remember(deal('a', 'A'));
  clock = 500;
  recent.remember(deal('b', 'B'));
  recent.remember(deal('c', 'C'));
  expect(recent.get('a')).toBeUndefined();
  expect(recent.get('b')?.title).toBe('B');
  clock = 1_400;
  expect(recent.get('b')?.title).toBe('B');
  clock = 1_501;
  expect(recent.get('b')).toBeUndefined();
  expect(recent.get('c')).toBeUndefined();
});
