/**
 * "Profile complete" (the PROFILE_COMPLETE XP award, 50): one definition, mirrored in SQL by
 * public.profile_missing_items (a Postgres test compares the two). A profile is complete with a
 * name, a bio of at least 50 characters (the spec's bio tip threshold), at least 2 niches and the
 * social link its role must give: LinkedIn for a brand, Instagram for a creator.
 */
export const MIN_BIO_LENGTH = 50;
export const MIN_NICHES = 2;

export type MissingItemKey = 'full_name' | 'bio' | 'niches' | 'linkedin' | 'instagram';
export type MissingItem = { key: MissingItemKey; label: string };

export type CompletenessInput = {
  role: string;
  full_name: string | null;
  bio: string | null;
  niches: readonly string[] | null;
  social_links: Readonly<Record<string, unknown>> | null;
};

const LABELS: Record<MissingItemKey, string> = {
  full_name: 'Add your name',
  bio: `Write a bio of at least ${MIN_BIO_LENGTH} characters`,
  niches: `Choose at least ${MIN_NICHES} niches`,
  linkedin: 'Add your LinkedIn link',
  instagram: 'Add your Instagram link',
};

const text = (value: unknown) => (typeof value === 'string' ? value.trim() : '');

/** What is still missing (in the order the settings page asks for it); complete when none. */
export function profileCompleteness(profile: CompletenessInput): { complete: boolean; missing: MissingItem[] } {
  const keys: MissingItemKey[] = [];
  if (!text(profile.full_name)) keys.push('full_name');
  if (text(profile.bio).length < MIN_BIO_LENGTH) keys.push('bio');
  const niches = new Set((profile.niches ?? []).map((n) => n.trim()).filter(Boolean));
  if (niches.size < MIN_NICHES) keys.push('niches');
  const links = profile.social_links ?? {};
  if (profile.role === 'brand' && !text(links.linkedin)) keys.push('linkedin');
  if (profile.role === 'creator' && !text(links.instagram)) keys.push('instagram');
  return { complete: keys.length === 0, missing: keys.map((key) => ({ key, label: LABELS[key] })) };
}
