import { expect, test } from 'vitest';
import { isVerifiedLink, readSocialLinks, requiredBadge, validateSocialLinks } from './social-links.ts';

test('the required link and its badge depend on the role', () => {
  expect(requiredBadge('brand')).toBe('LinkedIn required');
  expect(requiredBadge('creator')).toBe('Instagram required');
  expect(validateSocialLinks({}, 'brand')).toEqual({ linkedin: 'LinkedIn is required for brand accounts' });
  expect(validateSocialLinks({ instagram: 'https://instagram.com/cora' }, 'creator')).toEqual({});
});

test("a link is verified only on the platform's exact host or its www., over https", () => {
  expect(isVerifiedLink('instagram', 'https://www.instagram.com/cora')).toBe(true);
  expect(isVerifiedLink('instagram', 'https://Instagram.com/cora')).toBe(true);
  expect(isVerifiedLink('twitter', 'https://x.com/cora')).toBe(true);
  for (const lookAlike of [
    'https://example.com/instagram.com',
    'https://instagram.com.evil.example/cora',
    'https://evilinstagram.com/cora',
    'https://m.instagram.com.evil.example/cora',
    'https://instagram.com@evil.example/cora',
    'https://instagram.com:8443/cora',
    'http://instagram.com/cora',
  ]) {
    expect({ lookAlike, verified: isVerifiedLink('instagram', lookAlike) }).toEqual({ lookAlike, verified: false });
  }
  expect(isVerifiedLink('linkedin', undefined)).toBe(false);
});

test('only https:// links may be saved; javascript:, data: and plain http are refused', () => {
  for (const bad of [
    'javascript:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'http://instagram.com/cora',
    'https://instagram.com/cora profile',
    'https://localhost/cora',
    'https://user@instagram.com/cora',
  ]) {
    expect({ bad, errors: validateSocialLinks({ instagram: bad }, 'creator') }).toEqual({
      bad,
      errors: { instagram: 'Enter a full link starting with https://' },
    });
  }
  expect(readSocialLinks({ instagram: 'javascript:alert(1)', tiktok: 'https://tiktok.com/@c' })).toEqual({
    tiktok: 'https://tiktok.com/@c',
  });
});

test('links must be web addresses; unknown keys and blanks are dropped when read', () => {
  expect(validateSocialLinks({ linkedin: 'https://linkedin.com/in/b', tiktok: 'tiktok' }, 'brand')).toEqual({
    tiktok: 'Enter a full link starting with https://',
  });
  expect(readSocialLinks({ linkedin: ' https://linkedin.com/in/b ', tiktok: '', other: 'x', youtube: 3 })).toEqual({
    linkedin: 'https://linkedin.com/in/b',
  });
});
