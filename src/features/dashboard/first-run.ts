import { MIN_BIO_LENGTH, MIN_NICHES } from '../../domain/profile-completeness.ts';

/**
 * The first run's steps, in the order a newcomer takes them: a creator shows brands who they are
 * (niches, a bio, a photo) before swiping deals; a brand says who it is (a bio and a logo) and
 * publishes its first deal. Each step is done from what the device already holds, so the list works
 * offline and ticks itself as the user goes.
 */
export type FirstRunStep = { key: string; label: string; to: string; done: boolean };

export type FirstRunInput = {
  bio: string | null;
  niches: readonly string[] | null;
  avatar_url: string | null;
};

export function firstRunSteps(
  side: 'brand' | 'creator',
  profile: FirstRunInput,
  /** Applications sent (a creator) or deals published (a brand). */
  itemCount: number,
): FirstRunStep[] {
  const bio = (profile.bio ?? '').trim().length >= MIN_BIO_LENGTH;
  const photo = Boolean(profile.avatar_url);
  if (side === 'creator') {
    const niches = new Set((profile.niches ?? []).map((n) => n.trim()).filter(Boolean)).size >= MIN_NICHES;
    return [
      { key: 'niches', label: `Choose at least ${MIN_NICHES} niches`, to: '/settings?section=account', done: niches },
      { key: 'bio', label: 'Write a short bio for brands', to: '/settings?section=account', done: bio },
      { key: 'photo', label: 'Add a photo', to: '/settings?section=account', done: photo },
      { key: 'swipe', label: 'Swipe deals and apply to one', to: '/swipe', done: itemCount > 0 },
    ];
  }
  return [
    { key: 'bio', label: 'Say what your brand does', to: '/settings?section=account', done: bio },
    { key: 'logo', label: 'Add your logo', to: '/settings?section=account', done: photo },
    { key: 'deal', label: 'Publish your first deal', to: '/deals/new', done: itemCount > 0 },
  ];
}
