import {
  isVerifiedLink,
  SOCIAL_PLATFORMS,
  socialLinkError,
  type SocialPlatform,
} from '../../../domain/social-links.ts';

/**
 * Social-links form rules ("Social-links form"): LinkedIn is required for a brand, Instagram for a
 * creator; what a link must look like and when it is verified is src/domain/social-links.ts.
 */
export { isVerifiedLink, SOCIAL_PLATFORMS, type SocialPlatform };

export type SocialLinks = Partial<Record<SocialPlatform, string>>;

/** The platform whose link a role must give ('LinkedIn required' / 'Instagram required'). */
export function requiredPlatform(role: 'brand' | 'creator'): SocialPlatform {
  return role === 'brand' ? 'linkedin' : 'instagram';
}

export function requiredBadge(role: 'brand' | 'creator'): string {
  return role === 'brand' ? 'LinkedIn required' : 'Instagram required';
}

/**
 * The links as stored, for showing: strings of known platforms that are valid links (a profile's
 * `social_links` object may hold anything, e.g. a link saved before the rule).
 */
export function readSocialLinks(value: Record<string, unknown> | undefined): SocialLinks {
  const links: SocialLinks = {};
  for (const { key } of SOCIAL_PLATFORMS) {
    const v = value?.[key];
    if (typeof v === 'string' && v.trim() && !socialLinkError(v.trim())) links[key] = v.trim();
  }
  return links;
}

export type SocialLinkErrors = Partial<Record<SocialPlatform, string>>;

/** Field errors for the form; empty when the links may be saved. */
export function validateSocialLinks(links: SocialLinks, role: 'brand' | 'creator'): SocialLinkErrors {
  const errors: SocialLinkErrors = {};
  for (const { key } of SOCIAL_PLATFORMS) {
    const value = links[key]?.trim();
    if (!value) continue;
    const problem = socialLinkError(value);
    if (problem) errors[key] = problem;
  }
  const required = requiredPlatform(role);
  if (!links[required]?.trim()) {
    errors[required] =
      role === 'brand' ? 'LinkedIn is required for brand accounts' : 'Instagram is required for creator accounts';
  }
  return errors;
}
