import { describe, expect, test } from 'vitest';
import { authMessages } from '../../lib/session/auth-messages.ts';
import { filledSocialLinks, validateNewPassword, validateSignUp, type SignUpInput } from './auth-validation.ts';

const creator: SignUpInput = {
  fullName: 'Ada Creator',
  email: 'ada@example.test',
  password: 'correct-horse',
  confirmPassword: 'correct-horse',
  role: 'creator',
  socialLinks: { instagram: 'https://instagram.com/ada' },
  acceptedTerms: true,
};

describe('validateSignUp', () => {
  test('an account needs the Terms accepted', () => {
    expect(validateSignUp({ ...creator, acceptedTerms: false })).toBe(authMessages.acceptTerms);
  });

  test('accepts a complete creator and a brand with LinkedIn', () => {
    expect(validateSignUp(creator)).toBeNull();
    expect(
      validateSignUp({ ...creator, role: 'brand', socialLinks: { linkedin: 'https://linkedin.com/company/acme' } }),
    ).toBeNull();
  });

  test('asks for all fields when name, e-mail or password is blank (whitespace counts as blank)', () => {
    expect(validateSignUp({ ...creator, fullName: '   ' })).toBe(authMessages.fillAllFields);
    expect(validateSignUp({ ...creator, email: '' })).toBe(authMessages.fillAllFields);
    expect(validateSignUp({ ...creator, password: '', confirmPassword: '' })).toBe(authMessages.fillAllFields);
  });

  test('rejects passwords shorter than 8 characters and mismatched confirmation', () => {
    expect(validateSignUp({ ...creator, password: 'short12', confirmPassword: 'short12' })).toBe(
      'Password must be at least 8 characters long',
    );
    expect(validateSignUp({ ...creator, confirmPassword: 'correct-horsf' })).toBe('Passwords do not match');
  });

  test('a brand needs LinkedIn, other links do not count', () => {
    expect(
      validateSignUp({ ...creator, role: 'brand', socialLinks: { instagram: 'https://instagram.com/acme' } }),
    ).toBe('LinkedIn is required for brand accounts');
    expect(validateSignUp({ ...creator, role: 'brand', socialLinks: { linkedin: '  ' } })).toBe(
      'LinkedIn is required for brand accounts',
    );
  });

  test('a creator needs at least one non-blank social link', () => {
    expect(validateSignUp({ ...creator, socialLinks: {} })).toBe('At least one social link is required for creators');
    expect(validateSignUp({ ...creator, socialLinks: { tiktok: ' ' } })).toBe(
      'At least one social link is required for creators',
    );
    expect(validateSignUp({ ...creator, socialLinks: { youtube: 'https://youtube.com/@ada' } })).toBeNull();
  });
});

test('validateNewPassword checks length before the match', () => {
  expect(validateNewPassword('1234567', '7654321')).toBe(authMessages.passwordTooShort);
  expect(validateNewPassword('12345678', '12345679')).toBe(authMessages.passwordsDoNotMatch);
  expect(validateNewPassword('12345678', '12345678')).toBeNull();
});

test('filledSocialLinks keeps only trimmed, non-empty known platforms', () => {
  expect(filledSocialLinks({ linkedin: ' https://linkedin.com/in/a ', twitter: '', instagram: '  ' })).toEqual({
    linkedin: 'https://linkedin.com/in/a',
  });
});
