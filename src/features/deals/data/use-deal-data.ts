import { useMemo } from 'react';
import type { PactaDatabase } from '../../../db/index.ts';
import type { ApplicationDocument, DealDocument, ProfileDocument, ReviewDocument } from '../../../domain/collections/index.ts';
import {
  applicationsByCreator$,
  applicationsForDeal$,
  deal$,
  dealsByBrand$,
  dealsByIds$,
  openDeals$,
  profiles$,
  reviewsForDeal$,
  skippedDealIds$,
} from './deal-queries.ts';
import { useLiveQuery, type Live } from './use-live-query.ts';

/** Small live hooks over the local database; `db` is null while it opens (then they stay loading). */

const NONE: never[] = [];

export function useOpenDeals(db: PactaDatabase | null): Live<DealDocument[]> {
  return useLiveQuery(() => (db ? openDeals$(db) : null), [db], NONE);
}

export function useDeal(db: PactaDatabase | null, id: string): Live<DealDocument | null> {
  return useLiveQuery(() => (db ? deal$(db, id) : null), [db, id], null);
}

export function useBrandDeals(db: PactaDatabase | null, brandId: string | null): Live<DealDocument[]> {
  return useLiveQuery(() => (db && brandId ? dealsByBrand$(db, brandId) : null), [db, brandId], NONE);
}

export function useDealsByIds(db: PactaDatabase | null, ids: readonly string[]): Live<DealDocument[]> {
  const key = ids.join(',');
  return useLiveQuery(() => (db ? dealsByIds$(db, ids) : null), [db, key], NONE);
}

export function useDealApplications(db: PactaDatabase | null, dealId: string): Live<ApplicationDocument[]> {
  return useLiveQuery(() => (db ? applicationsForDeal$(db, dealId) : null), [db, dealId], NONE);
}

export function useCreatorApplications(db: PactaDatabase | null, creatorId: string | null): Live<ApplicationDocument[]> {
  return useLiveQuery(() => (db && creatorId ? applicationsByCreator$(db, creatorId) : null), [db, creatorId], NONE);
}

export function useSkippedDealIds(db: PactaDatabase | null, userId: string | null): Live<string[]> {
  return useLiveQuery(() => (db && userId ? skippedDealIds$(db, userId) : null), [db, userId], NONE);
}

export function useDealReviews(db: PactaDatabase | null, dealId: string): Live<ReviewDocument[]> {
  return useLiveQuery(() => (db ? reviewsForDeal$(db, dealId) : null), [db, dealId], NONE);
}

/** Every profile the device holds, by id (brand names on cards, applicant names, creators to recommend). */
export function useProfiles(db: PactaDatabase | null): { byId: ReadonlyMap<string, ProfileDocument>; list: ProfileDocument[]; loading: boolean } {
  const live = useLiveQuery(() => (db ? profiles$(db) : null), [db], NONE as ProfileDocument[]);
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
