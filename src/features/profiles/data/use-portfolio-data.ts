import { map } from 'rxjs';
import { useLiveQuery, type LiveResult } from '../../../db/hooks/use-live-query.ts';
import type { DealDocument, ProfileDocument, ReviewDocument } from '../../../domain/collections/index.ts';

const docs = <T>(list: { toJSON(): unknown }[]) => list.map((d) => d.toJSON() as T);

/** Deals the creator worked on (selected for, or won) that this device holds, newest first. */
export function useCreatorPastDeals(creatorId: string): LiveResult<DealDocument[]> {
  return useLiveQuery(
    (db) =>
      db.deals.find({ selector: { status: { $in: ['in_progress', 'completed'] } } }).$.pipe(
        map((list) =>
          docs<DealDocument>(list)
            .filter((d) => d.winner_id === creatorId || d.selected_creator_ids.includes(creatorId))
            .sort((a, b) => (b.completed_at ?? b.created_at ?? '').localeCompare(a.completed_at ?? a.created_at ?? '')),
        ),
      ),
    [creatorId],
  );
}

/** Reviews about the user that this device may show (the server sends only published ones, and one's own). */
export function useReviewsAbout(userId: string): LiveResult<ReviewDocument[]> {
  return useLiveQuery(
    (db) =>
      db.reviews.find({ selector: { reviewee_id: userId } }).$.pipe(
        map((list) =>
          docs<ReviewDocument>(list)
            // The viewer's own review stays private until it is published (blind reviews).
            .filter((r) => r.published_at !== null && Date.parse(r.published_at) <= Date.now())
            .sort((a, b) => (b.published_at ?? '').localeCompare(a.published_at ?? '')),
        ),
      ),
    [userId],
  );
}

/** The brand's open deals (for Invite to Campaign). */
export function useOpenDealsOf(brandId: string | null): LiveResult<DealDocument[]> {
  return useLiveQuery(
    (db) =>
      brandId
        ? db.deals
            .find({ selector: { brand_id: brandId, status: 'open' } })
            .$.pipe(map((list) => docs<DealDocument>(list)))
        : null,
    [brandId],
  );
}

/** Names of the reviewers, by id. */
export function useProfilesById(ids: readonly string[]): ReadonlyMap<string, ProfileDocument> {
  const key = [...new Set(ids)].sort().join(',');
  const live = useLiveQuery(
    (db) =>
      key
        ? db.profiles
            .findByIds(key.split(','))
            .$.pipe(map((found) => new Map([...found].map(([id, d]) => [id, d.toJSON() as ProfileDocument]))))
        : null,
    [key],
  );
  return live.data ?? new Map();
}
