import { expect, test } from 'vitest';
import { profileCompleteness } from './profile-completeness.ts';

test("a profile is complete with a name, a 50-character bio, two niches and the role's required link", () => {
  const creator = {
    role: 'creator',
    full_name: 'Maya',
    bio: 'x'.repeat(50),
    niches: ['Fitness', 'Travel'],
    social_links: { instagram: 'https://instagram.com/maya' },
  };
  expect(profileCompleteness(creator)).toEqual({ complete: true, missing: [] });
  expect(
    profileCompleteness({ ...creator, social_links: { linkedin: 'https://linkedin.com/in/maya' } }).missing,
  ).toEqual([{ key: 'instagram', label: 'Add your Instagram link' }]);
  const brand = { ...creator, role: 'brand', full_name: ' ', bio: 'x'.repeat(49), niches: ['Fitness', ' Fitness '] };
  expect(profileCompleteness(brand).missing.map((m) => m.key)).toEqual(['full_name', 'bio', 'niches', 'linkedin']);
});
