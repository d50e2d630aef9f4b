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

test('password change asks for the current password, checks length, then that both entries match', () => {
  const current = 'the current one';
  expect(passwordChangeError({ current: '', password: 'long-enough-1', confirm: 'long-enough-1' })).toBe(
    'Please enter your current password',
  );
  expect(passwordChangeError({ current, password: 'short', confirm: 'short' })).toBe(
    'Password must be at least 8 characters long',
  );
  expect(passwordChangeError({ current, password: 'long-enough-1', confirm: 'long-enough-2' })).toBe(
    'Passwords do not match',
  );
  expect(passwordChangeError({ current, password: 'long-enough-1', confirm: 'long-enough-1' })).toBeNull();
});
