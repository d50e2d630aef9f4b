import { useCallback, useMemo, useRef, useState } from 'react';
import type { PactaDatabase } from '../../../db/index.ts';
import type { DealDocument, ProfileDocument } from '../../../domain/collections/index.ts';
import { toastError } from '../../../lib/toasts.ts';
import { applyToDeal, skipDeal } from '../data/deal-operations.ts';
import { useDealsNotAppliedTo, useProfiles, useSkippedDealIds } from '../data/use-deal-data.ts';
import { useRankedDeals } from '../data/use-recommendations.ts';
import { localDay } from '../../../domain/deal-deadline.ts';
import { offeredToCreator } from '../list/deal-filters.ts';

/** Cards ranked per request to the worker; the stack asks again as cards are handled. */
const PAGE = 50;
/** The newest deals the ranking chooses from (applied and skipped ones left out before counting). */
const CANDIDATES = 500;

export type SwipeStack = {
  current: DealDocument | null;
  /** Ranked cards still to come after the current one (for the counter). */
  remaining: number;
  loading: boolean;
  error: Error | null;
  profiles: ReadonlyMap<string, ProfileDocument>;
  apply(): void;
  skip(): void;
};

/**
 * The swipe browser's deck: open deals the creator may apply to, best recommendation first, without
 * the ones already applied to or skipped (on any device: both replicate). Apply and Skip write
 * locally (so they work offline) and advance at once; writes run one after another.
 */
export function useSwipeStack(
  db: PactaDatabase | null,
  user: { id: string; isPro: boolean } | null,
  isAdmin: boolean,
): SwipeStack {
  const profiles = useProfiles();
  const skipped = useSkippedDealIds(user?.id ?? null);
  // Handled in this visit: hidden at once, before the live queries and the ranking catch up.
  const [handled, setHandled] = useState<ReadonlySet<string>>(new Set());
  const writes = useRef<Promise<unknown>>(Promise.resolve());

  const isPro = !!user?.isPro;
  // The day is read once per visit: a deck left open past midnight keeps yesterday's until it reloads.
  const [today] = useState(() => localDay());
  const skippedIds = useMemo(() => [...skipped.value].sort(), [skipped.value]);
  const selector = useMemo(
    () => (skipped.loading ? null : { ...offeredToCreator({ isPro, isAdmin, today }), id: { $nin: skippedIds } }),
    [skipped.loading, isPro, isAdmin, skippedIds, today],
  );
  // The deck is ranked from a bounded set: the newest open deals this creator may see and has not
  // skipped or applied to, read through the open-deals index with the creator's applications to
  // those deals only (never every deal or every application on the device).
  const candidates = useDealsNotAppliedTo(user?.id ?? null, selector, CANDIDATES);
  const exclude = useMemo(
    () => [...new Set([...candidates.appliedIds, ...skippedIds])].sort(),
    [candidates.appliedIds, skippedIds],
  );
  const byId = useMemo(() => new Map((candidates.deals ?? []).map((d) => [d.id, d])), [candidates.deals]);
  const ready = candidates.deals !== undefined && !profiles.loading;
  const synced = user ? profiles.byId.get(user.id) : undefined;
  const userId = user?.id;
  const me = useMemo(
    () => synced ?? (userId && ready ? { ...FALLBACK_PROFILE, id: userId } : null),
    [synced, userId, ready],
  );
  const ranked = useRankedDeals({
    creator: me,
    creatorIsPro: isPro,
    deals: ready ? (candidates.deals ?? null) : null,
    profiles: profiles.byId,
    excludeIds: exclude,
    limit: PAGE,
  });
  const excluded = useMemo(() => new Set(exclude), [exclude]);
  const deck = ranked.ids.filter((id) => byId.has(id) && !handled.has(id) && !excluded.has(id));
  const current = deck[0] ? byId.get(deck[0])! : null;

  const advance = useCallback((deal: DealDocument, write: () => Promise<unknown>, failure: string) => {
    setHandled((prev) => new Set(prev).add(deal.id));
    writes.current = writes.current.then(write).catch((error: unknown) => {
      console.warn('swipe write failed', error);
      toastError(failure);
    });
  }, []);

  return {
    current,
    remaining: Math.max(0, deck.length - 1),
    loading: !ready || ranked.loading,
    error: ranked.error,
    profiles: profiles.byId,
    apply() {
      if (!current || !db || !user) return;
      advance(current, () => applyToDeal(db, user.id, current.id), 'Failed to apply to deal');
    },
    skip() {
      if (!current || !db || !user) return;
      advance(current, () => skipDeal(db, user.id, current.id), 'Failed to skip deal');
    },
  };
}

/** A creator whose profile has not synced yet still gets a ranking (by the deals' own merits). */
const FALLBACK_PROFILE: ProfileDocument = {
  id: '',
  role: 'creator',
  full_name: '',
  username: null,
  avatar_url: null,
  bio: '',
  niches: [],
  region: null,
  platforms: [],
  followers: 0,
  engagement_rate: 0,
  min_deal_amount_cents: null,
  max_deal_amount_cents: null,
  social_links: {},
  portfolio_media: [],
  verified: false,
  email_verified: false,
  rating: 0,
  total_deals: 0,
  completed_deals: 0,
  pro_tier: 'free',
  pro_since: null,
  pro_until: null,
  granted_pro_features: {},
  referral_code: null,
  xp: 0,
  level: 1,
  referrals_count: 0,
};
