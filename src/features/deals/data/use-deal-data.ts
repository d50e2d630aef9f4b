import { useMemo } from 'react';
import { useLiveQuery, type LiveResult } from '../../../db/hooks/use-live-query.ts';
import type { ApplicationDocument, DealDocument, ProfileDocument, ReviewDocument } from '../../../domain/collections/index.ts';
import {
  applicationsByCreator$,
  applicationsForDeal$,
  deal$,
  dealCountsByStatus$,
  dealsByIds$,
  dealsCount$,
  dealsPage$,
  type DealSelector,
  profiles$,
  reviewsForDeal$,
  skippedDealIds$,
} from './deal-queries.ts';

/**
 * Small live hooks over the local database (through the one `useLiveQuery`): while it opens they stay
 * loading with their empty value.
 */

export type Live<T> = { value: T; loading: boolean; error: Error | null };

const NONE: never[] = [];

function withInitial<T>(live: LiveResult<T>, initial: T): Live<T> {
  return { value: live.data ?? initial, loading: live.loading, error: live.error };
}

/**
 * A page of deals matching `selector`, newest first (null: nothing to read yet). `data` stays
 * undefined until the first result; a new selector keeps the previous page until its own arrives.
 */
export function useDealsPage(selector: DealSelector | null, limit: number): LiveResult<DealDocument[]> {
  // The same selector in a new object is the same query.
  const key = selector ? JSON.stringify(selector) : '';
  return useLiveQuery((db) => !!key && dealsPage$(db, JSON.parse(key) as DealSelector, limit), [key, limit]);
}

/** How many deals match `selector` (null: nothing to count yet). */
export function useDealsCount(selector: DealSelector | null): LiveResult<number> {
  const key = selector ? JSON.stringify(selector) : '';
  return useLiveQuery((db) => !!key && dealsCount$(db, JSON.parse(key) as DealSelector), [key]);
}

/** A brand's deals counted by status. */
export function useDealCountsByStatus(brandId: string | null): LiveResult<Record<DealDocument['status'], number>> {
  return useLiveQuery((db) => !!brandId && dealCountsByStatus$(db, brandId), [brandId]);
}

export function useDeal(id: string): Live<DealDocument | null> {
  return withInitial(useLiveQuery((db) => deal$(db, id), [id]), null);
}

export function useDealsByIds(ids: readonly string[]): Live<DealDocument[]> {
  // The same ids in a new array are the same query.
  const key = ids.join(',');
  return withInitial(useLiveQuery((db) => dealsByIds$(db, key ? key.split(',') : []), [key]), NONE);
}

export function useDealApplications(dealId: string): Live<ApplicationDocument[]> {
  return withInitial(useLiveQuery((db) => applicationsForDeal$(db, dealId), [dealId]), NONE);
}

export function useCreatorApplications(creatorId: string | null): Live<ApplicationDocument[]> {
  return withInitial(useLiveQuery((db) => (creatorId ? applicationsByCreator$(db, creatorId) : null), [creatorId]), NONE);
}

export function useSkippedDealIds(userId: string | null): Live<string[]> {
  return withInitial(useLiveQuery((db) => (userId ? skippedDealIds$(db, userId) : null), [userId]), NONE);
}

export function useDealReviews(dealId: string): Live<ReviewDocument[]> {
  return withInitial(useLiveQuery((db) => reviewsForDeal$(db, dealId), [dealId]), NONE);
}

/** Every profile the device holds, by id (brand names on cards, applicant names, creators to recommend). */
export function useProfiles(): { byId: ReadonlyMap<string, ProfileDocument>; list: ProfileDocument[]; loading: boolean } {
  const live = withInitial(useLiveQuery((db) => profiles$(db), []), NONE as ProfileDocument[]);
  const byId = useMemo(() => new Map(live.value.map((p) => [p.id, p])), [live.value]);
  return { byId, list: live.value, loading: live.loading };
}

/** A profile's display name: full name, then username, then a neutral word. */
export function displayName(profile: ProfileDocument | undefined | null, fallback = 'Unknown'): string {
  return profile?.full_name?.trim() || profile?.username?.trim() || fallback;
}

/** A document created or changed on this device that the server has not stamped yet. */
export function isWaitingToSync(doc: { version?: number | undefined }): boolean {
  return doc.version === undefined || doc.version === null;
}
