/**
 * Social-links rules ("Social-links form"): LinkedIn is required for a brand, Instagram
 * for a creator; a link is flagged verified when it contains the platform's base address.
 */
export const SOCIAL_PLATFORMS = [
  { key: 'linkedin', label: 'LinkedIn', base: 'linkedin.com' },
  { key: 'instagram', label: 'Instagram', base: 'instagram.com' },
  { key: 'tiktok', label: 'TikTok', base: 'tiktok.com' },
  { key: 'youtube', label: 'YouTube', base: 'youtube.com' },
  { key: 'twitter', label: 'Twitter', base: 'twitter.com' },
] as const;

export type SocialPlatform = (typeof SOCIAL_PLATFORMS)[number]['key'];
export type SocialLinks = Partial<Record<SocialPlatform, string>>;

/** The platform whose link a role must give ('LinkedIn required' / 'Instagram required'). */
export function requiredPlatform(role: 'brand' | 'creator'): SocialPlatform {
  return role === 'brand' ? 'linkedin' : 'instagram';
}

export function requiredBadge(role: 'brand' | 'creator'): string {
  return role === 'brand' ? 'LinkedIn required' : 'Instagram required';
}

export function isVerifiedLink(platform: SocialPlatform, url: string | undefined): boolean {
  const base = SOCIAL_PLATFORMS.find((p) => p.key === platform)!.base;
  return !!url && url.toLowerCase().includes(base);
}

/** The links as stored (a profile's `social_links` object may hold anything: keep strings of known platforms). */
export function readSocialLinks(value: Record<string, unknown> | undefined): SocialLinks {
  const links: SocialLinks = {};
  for (const { key } of SOCIAL_PLATFORMS) {
    const v = value?.[key];
    if (typeof v === 'string' && v.trim()) links[key] = v.trim();
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
    let ok = false;
    try {
      const url = new URL(value);
      ok = url.protocol === 'https:' || url.protocol === 'http:';
    } catch {
      ok = false;
    }
    if (!ok) errors[key] = 'Enter a full link starting with https://';
  }
  const required = requiredPlatform(role);
  if (!links[required]?.trim()) {
    errors[required] =
      role === 'brand' ? 'LinkedIn is required for brand accounts' : 'Instagram is required for creator accounts';
  }
  return errors;
}
