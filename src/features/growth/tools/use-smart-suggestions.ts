import { useMemo } from 'react';
import { useAuth } from '../../../lib/session/auth-context.ts';
import { useMyProfile } from '../../../db/hooks/use-my-profile.ts';
import { localDay, smartSuggestions, type SmartSuggestion } from '../../../domain/smart-suggestions.ts';
import { useLocalDocs } from './use-local-docs.ts';

/**
 * Today's smart suggestions for the signed-in user, from the device's data: the dashboard's card and
 * the /suggestions screen read this one hook, so they always agree.
 */
export function useSmartSuggestions(): { data: SmartSuggestion[]; loading: boolean; error: Error | null } {
  const auth = useAuth();
  const userId = auth.user?.id ?? '';
  const role = auth.isAdmin ? auth.viewAs : auth.user?.role === 'brand' ? 'brand' : 'creator';
  const isPro = !!auth.user?.isPro;
  const profile = useMyProfile();
  const deals = useLocalDocs('deals');
  const applications = useLocalDocs('applications');
  const day = localDay(new Date());
  const data = useMemo(() => {
    if (!deals.data || !applications.data || profile.data === undefined) return [];
    const mine = applications.data.filter((a) => a.creator_id === userId);
    const applied = new Set(mine.map((a) => a.deal_id));
    const completed =
      role === 'brand'
        ? deals.data.filter((d) => d.brand_id === userId && d.status === 'completed')
        : deals.data.filter((d) => d.winner_id === userId && d.status === 'completed');
    return smartSuggestions({
      userId,
      day,
      role,
      profile: profile.data,
      completedDealAmountsCents: completed.map((d) => d.amount_cents),
      openDeals: deals.data.filter((d) => d.status === 'open' && !applied.has(d.id) && d.brand_id !== userId && (isPro || !d.pro_only)),
      activityCount: role === 'brand' ? deals.data.filter((d) => d.brand_id === userId).length : mine.length,
    });
  }, [deals.data, applications.data, profile.data, userId, role, isPro, day]);
  return {
    data,
    loading: deals.loading || applications.loading || profile.loading,
    error: deals.error ?? applications.error ?? profile.error,
  };
}
