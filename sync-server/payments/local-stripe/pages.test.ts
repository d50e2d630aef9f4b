import { expect, test } from 'vitest';
import { page } from './pages.ts';

test('every local Stripe page has a tab icon of its own, inline (no request for /favicon.ico)', () => {
  const html = page('Checkout', '<p>Pay</p>');
  const icon = /<link rel="icon" href="([^"]+)">/.exec(html)?.[1];
  expect(icon).toMatch(/^data:image\/svg\+xml,%3Csvg /);
  expect(decodeURIComponent(icon!.slice('data:image/svg+xml,'.length))).toContain('<svg');
});
