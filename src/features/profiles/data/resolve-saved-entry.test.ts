import { expect, test } from 'vitest';
import { idInText } from './resolve-saved-entry.ts';

test('a pasted deal link or a bare id names the deal; other text names none', () => {
  const id = '0192f0a4-7c1e-7d2a-9b3c-4d5e6f708192';
  expect(idInText(`https://pacta.example/deals/${id}`)).toBe(id);
  expect(idInText(` ${id.toUpperCase()} `)).toBe(id);
  expect(idInText('Summer launch')).toBeNull();
});
