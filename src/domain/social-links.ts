/**
 * Social links: which platforms a profile may link, what a link must look like, and when it counts as
 * "Verified". The database holds the same rule (20261127000401_social_links_and_pictures.sql): a
 * link that breaks it is refused on sync with SOCIAL_LINK_ERROR's sentence.
 *
 * "A link must be a full https:// address": no javascript:, data: or plain-http links, which a
 * visitor's click would open. "Verified" means the link is on the platform's own site — its exact
 * host or that host with www. — so instagram.com.evil.example or evil.example/instagram.com never are.
 */
export const SOCIAL_PLATFORMS = [
  { key: 'linkedin', label: 'LinkedIn', hosts: ['linkedin.com'] },
  { key: 'instagram', label: 'Instagram', hosts: ['instagram.com'] },
  { key: 'tiktok', label: 'TikTok', hosts: ['tiktok.com'] },
  { key: 'youtube', label: 'YouTube', hosts: ['youtube.com'] },
  { key: 'twitter', label: 'Twitter', hosts: ['twitter.com', 'x.com'] },
] as const;

export type SocialPlatform = (typeof SOCIAL_PLATFORMS)[number]['key'];

export const SOCIAL_LINK_MAX_LENGTH = 2048;

/** The rule as the forms show it. */
export const SOCIAL_LINK_RULE =
  'Links start with https://. A link on the platform’s own site (like https://instagram.com/yourname) is marked Verified.';

export const SOCIAL_LINK_ERROR = 'Enter a full link starting with https://';

// https://, a host name with at least one dot (labels of letters, digits and inner hyphens), an
// optional port, then a path, query or fragment without spaces. The database uses the same pattern.
const LINK_PATTERN =
  /^https:\/\/[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)+(:[0-9]{1,5})?([/?#][^\s]*)?$/i;

/** Null when `value` may be saved as a social link; otherwise the sentence the form shows. */
export function socialLinkError(value: string): string | null {
  return value.length <= SOCIAL_LINK_MAX_LENGTH && LINK_PATTERN.test(value) ? null : SOCIAL_LINK_ERROR;
}

/** "Verified": a valid link on the platform's exact host (or its www.), on https's own port. */
export function isVerifiedLink(platform: SocialPlatform, url: string | undefined): boolean {
  if (!url || socialLinkError(url)) return false;
  const parsed = new URL(url);
  if (parsed.port) return false;
  const host = parsed.hostname.toLowerCase();
  const hosts: readonly string[] = SOCIAL_PLATFORMS.find((p) => p.key === platform)!.hosts;
  return hosts.includes(host) || (host.startsWith('www.') && hosts.includes(host.slice(4)));
}
