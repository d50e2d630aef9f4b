import { expect, test } from 'vitest';
import { isVerifiedLink, readSocialLinks, requiredBadge, validateSocialLinks } from './social-links.ts';

test('the required link and its badge depend on the role', () => {
  expect(requiredBadge('brand')).toBe('LinkedIn required');
  expect(requiredBadge('creator')).toBe('Instagram required');
  expect(validateSocialLinks({}, 'brand')).toEqual({ linkedin: 'LinkedIn is required for brand accounts' });
  expect(validateSocialLinks({ instagram: 'https://instagram.com/cora' }, 'creator')).toEqual({});
});

test('a link is verified when it contains the platform base address', () => {
  expect(isVerifiedLink('instagram', 'https://www.instagram.com/cora')).toBe(true);
  expect(isVerifiedLink('instagram', 'https://example.com/instagram')).toBe(false);
  expect(isVerifiedLink('linkedin', undefined)).toBe(false);
});

test('links must be web addresses; unknown keys and blanks are dropped when read', () => {
  expect(validateSocialLinks({ linkedin: 'https://linkedin.com/in/b', tiktok: 'tiktok' }, 'brand')).toEqual({
    tiktok: 'Enter a full link starting with https://',
  });
  expect(readSocialLinks({ linkedin: ' https://linkedin.com/in/b ', tiktok: '', other: 'x', youtube: 3 })).toEqual({
    linkedin: 'https://linkedin.com/in/b',
  });
});
