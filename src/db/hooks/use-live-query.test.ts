import { expect, test } from 'vitest';
import { isEmptyResult, listedItems } from './use-live-query.ts';

test('a result that shows nothing is never held back during the first sync', () => {
  expect(isEmptyResult([])).toBe(true);
  expect(isEmptyResult(null)).toBe(true);
  expect(isEmptyResult(undefined)).toBe(true);
  expect(isEmptyResult(0)).toBe(true);
  expect(isEmptyResult([{ id: 'a' }])).toBe(false);
  expect(isEmptyResult(3)).toBe(false);
  expect(isEmptyResult({ id: 'a' })).toBe(false);
  expect(isEmptyResult(new Map())).toBe(true);
  expect(isEmptyResult(new Map([['a', 1]]))).toBe(false);
});

test('a screen whose combined result has nothing in any part (a new dashboard) shows the first page at once', () => {
  const counts = { total: 0, open: 0, in_progress: 0, completed: 0, received: 0 };
  expect(isEmptyResult({ deals: [], counts })).toBe(true);
  expect(isEmptyResult({ deals: [{ id: 'd1' }], counts: { ...counts, total: 1, open: 1 } })).toBe(false);
  // Counted but not listed yet: the cards still show nothing, so the page that brings them is not held.
  expect(isEmptyResult({ deals: [], counts: { ...counts, total: 3 } })).toBe(true);
  expect(isEmptyResult({ counts: { ...counts, total: 3 } })).toBe(false);
  // A document is never "nothing", even with empty fields.
  expect(isEmptyResult({ id: 'p1', bio: '' })).toBe(false);
});

test('what a result lists decides whether the first sync may hold it: a dashboard lists a few cards, /deals thousands', () => {
  const counts = { total: 10_000, open: 9_000, in_progress: 1_000, completed: 0, received: 50_000 };
  expect(listedItems({ deals: Array.from({ length: 10 }, (_, i) => ({ id: `d${i}` })), counts })).toBe(10);
  expect(listedItems(Array.from({ length: 2_000 }, (_, i) => ({ id: `d${i}` })))).toBe(2_000);
  expect(listedItems(new Map([['a', [1, 2]]]))).toBe(1);
  expect(listedItems({ id: 'p1', bio: '' })).toBe(0);
  expect(listedItems(7)).toBe(0);
});
