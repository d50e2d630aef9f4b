import { expect, test } from 'vitest';
import { afterSignIn } from './after-sign-in.ts';

test('a signed-out deep link lands on that link after sign-in; anything else on the dashboard', () => {
  expect(afterSignIn({ from: '/deals/0193-abc?tab=reviews' })).toBe('/deals/0193-abc?tab=reviews');
  expect(afterSignIn(null)).toBe('/dashboard');
  expect(afterSignIn({ from: 'https://evil.example/' })).toBe('/dashboard');
  expect(afterSignIn({ from: '//evil.example/' })).toBe('/dashboard');
  expect(afterSignIn({ from: '/auth/signin' })).toBe('/dashboard');
});
