import { expect, test } from 'vitest';
import { isEmptyResult } from './use-live-query.ts';

test('a result that shows nothing is never held back during the first sync', () => {
  expect(isEmptyResult([])).toBe(true);
  expect(isEmptyResult(null)).toBe(true);
  expect(isEmptyResult(undefined)).toBe(true);
  expect(isEmptyResult(0)).toBe(true);
  expect(isEmptyResult([{ id: 'a' }])).toBe(false);
  expect(isEmptyResult(3)).toBe(false);
  expect(isEmptyResult({ id: 'a' })).toBe(false);
});
