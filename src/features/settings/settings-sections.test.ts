import { expect, test } from 'vitest';
import { normaliseSection, passwordChangeError } from './settings-sections.ts';

test('every section and alias of the section parameter opens a section', () => {
  expect(normaliseSection(null)).toBe('account');
  expect(normaliseSection('security')).toBe('security');
  expect(normaliseSection('personalisation')).toBe('personalisation');
  expect(normaliseSection('privacy')).toBe('privacy');
  expect(normaliseSection('stripe')).toBe('pro');
  expect(normaliseSection('profile')).toBe('account');
  expect(normaliseSection('social')).toBe('account');
  expect(normaliseSection('nonsense')).toBe('account');
});

test('password change checks length, then that both entries match', () => {
  expect(passwordChangeError('short', 'short')).toBe('Password must be at least 8 characters long');
  expect(passwordChangeError('long-enough-1', 'long-enough-2')).toBe('Passwords do not match');
  expect(passwordChangeError('long-enough-1', 'long-enough-1')).toBeNull();
});
