import { useMemo } from 'react';
import { map } from 'rxjs';
import { useLiveQuery } from '../../../db/hooks/use-live-query.ts';
import type { DealDocument, DraftDocument, ProfileDocument } from '../../../domain/collections/index.ts';
import { summarize, type BriefDraftSummary } from './brief-drafts.ts';

/** The brand's campaign brief drafts, newest edit first. */
export function useBriefDrafts(userId: string): {
  drafts: BriefDraftSummary[];
  docs: ReadonlyMap<string, DraftDocument>;
  loading: boolean;
} {
  const live = useLiveQuery(
    (db) =>
      db.drafts
        .find({ selector: { user_id: userId, kind: 'campaign_brief' } })
        .$.pipe(map((docs) => docs.map((d) => d.toJSON() as DraftDocument))),
    [userId],
  );
  return useMemo(() => {
    const docs = live.data ?? [];
    const drafts = docs
      .map(summarize)
      .sort((a, b) => (b.lastEditedAt ?? 0) - (a.lastEditedAt ?? 0) || b.id.localeCompare(a.id));
    return { drafts, docs: new Map(docs.map((d) => [d.id, d])), loading: live.loading };
  }, [live.data, live.loading]);
}

/** What the brief assistant reads: completed deals and creators' niches on this device. */
export function useAssistantData(): {
  deals: Pick<DealDocument, 'status' | 'niches' | 'amount_cents'>[];
  creators: Pick<ProfileDocument, 'role' | 'niches'>[];
} {
  const deals = useLiveQuery(
    (db) =>
      db.deals
        .find({ selector: { status: 'completed' } })
        .$.pipe(map((docs) => docs.map((d) => ({ status: d.status, niches: d.niches, amount_cents: d.amount_cents })))),
    [],
  );
  const creators = useLiveQuery(
    (db) =>
      db.profiles
        .find({ selector: { role: 'creator' } })
        .$.pipe(map((docs) => docs.map((p) => ({ role: p.role, niches: p.niches })))),
    [],
  );
  return useMemo(() => ({ deals: deals.data ?? [], creators: creators.data ?? [] }), [deals.data, creators.data]);
}
