import { useMemo } from 'react';
import { combineLatest, map, of, switchMap } from 'rxjs';
import { useAuth } from '../../../lib/session/auth-context.ts';
import { useMyProfile } from '../../../db/hooks/use-my-profile.ts';
import { useLiveQuery } from '../../../db/hooks/use-live-query.ts';
import { NEWEST_FIRST_SORT } from '../../../db/index.ts';
import { localDay } from '../../../domain/deal-deadline.ts';
import { smartSuggestions, type SmartSuggestion, type SuggestionDeal } from '../../../domain/smart-suggestions.ts';

/** The newest open deals the deal suggestions choose from (a device may hold 10,000). */
const OPEN_DEAL_CANDIDATES = 500;

type SuggestionData = { completedAmounts: number[]; openDeals: SuggestionDeal[]; activityCount: number };

/**
 * Today's smart suggestions for the signed-in user, from the device's data: the dashboard's card and
 * the /suggestions screen read this one hook, so they always agree. Each input is read through an
 * index, never a whole collection: a brand's completed deals and deal count; a creator's own
 * applications, its completed deals and the newest open deals it has not applied to.
 */
export function useSmartSuggestions(): { data: SmartSuggestion[]; loading: boolean; error: Error | null } {
  const auth = useAuth();
  const userId = auth.user?.id ?? '';
  const role = auth.isAdmin ? auth.viewAs : auth.user?.role === 'brand' ? 'brand' : 'creator';
  const isPro = !!auth.user?.isPro;
  const profile = useMyProfile();
  const inputs = useLiveQuery(
    (db) => {
      if (!userId) return null;
      const amounts = (docs: { amount_cents: number }[]) => docs.map((d) => d.amount_cents);
      if (role === 'brand') {
        return combineLatest({
          completedAmounts: db.deals.find({ selector: { brand_id: userId, status: 'completed' } }).$.pipe(map(amounts)),
          openDeals: of([] as SuggestionDeal[]),
          activityCount: db.deals.count({ selector: { brand_id: userId } }).$,
        });
      }
      return db.applications.find({ selector: { creator_id: userId } }).$.pipe(
        map((mine) => mine.map((a) => a.deal_id).sort()),
        switchMap((applied) =>
          combineLatest({
            completedAmounts: db.deals
              .find({ selector: { status: 'completed', winner_id: userId } })
              .$.pipe(map(amounts)),
            openDeals: db.deals
              .find({
                selector: {
                  status: 'open',
                  ...(isPro ? {} : { pro_only: false }),
                  brand_id: { $ne: userId },
                  id: { $nin: applied },
                },
                sort: NEWEST_FIRST_SORT,
                limit: OPEN_DEAL_CANDIDATES,
              })
              .$.pipe(
                map((docs) =>
                  docs.map((d) => ({ id: d.id, title: d.title, amount_cents: d.amount_cents, niches: [...d.niches] })),
                ),
              ),
            activityCount: of(applied.length),
          }),
        ),
      );
    },
    [userId, role, isPro],
  );
  const day = localDay();
  const found: SuggestionData | undefined = inputs.data;
  const data = useMemo(() => {
    if (!found || profile.data === undefined) return [];
    return smartSuggestions({
      userId,
      day,
      role,
      profile: profile.data,
      completedDealAmountsCents: found.completedAmounts,
      openDeals: found.openDeals,
      activityCount: found.activityCount,
    });
  }, [found, profile.data, userId, role, day]);
  return { data, loading: inputs.loading || profile.loading, error: inputs.error ?? profile.error };
}
