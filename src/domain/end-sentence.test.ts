import { expect, test } from 'vitest';
import { endSentence } from './end-sentence.ts';

test('a name ending in a full stop is not given a second one', () => {
  expect(endSentence('You blocked Northwind Outdoor Co.')).toBe('You blocked Northwind Outdoor Co.');
  expect(endSentence('You blocked Maya Chen')).toBe('You blocked Maya Chen.');
});
