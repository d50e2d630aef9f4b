import { useMemo, useState } from 'react';
import { map } from 'rxjs';
import { useLiveQuery, type LiveResult } from '../../../db/hooks/use-live-query.ts';
import type {
  ApplicationDocument,
  DealDocument,
  DealEventDocument,
  ProfileDocument,
  ReviewDocument,
} from '../../../domain/collections/index.ts';
import {
  type ApplicationWithDeal,
  applicationsForDeal$,
  creatorApplicationsPage$,
  creatorDealCounts$,
  type CreatorDealCounts,
  dealsPageWithApplied$,
  type DealsAndApplied,
  deal$,
  dealEventsForDeal$,
  dealCountsByStatus$,
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
  return withInitial(
    useLiveQuery((db) => deal$(db, id), [id]),
    null,
  );
}

/** Every work log of the deal this user may see (the brand: all its creators'; a creator: their own). */
export function useDealEvents(dealId: string): Live<DealEventDocument[]> {
  return withInitial(
    useLiveQuery((db) => dealEventsForDeal$(db, dealId), [dealId]),
    NONE,
  );
}

export function useDealApplications(dealId: string): Live<ApplicationDocument[]> {
  return withInitial(
    useLiveQuery((db) => applicationsForDeal$(db, dealId), [dealId]),
    NONE,
  );
}

/** A page of the creator's applications newest first (all, or those whose deal is in `dealStatus`), each with its deal. */
export function useCreatorApplicationsPage(
  creatorId: string | null,
  dealStatus: DealDocument['status'] | null,
  limit: number,
): LiveResult<ApplicationWithDeal[]> {
  return useLiveQuery(
    (db) => !!creatorId && creatorApplicationsPage$(db, creatorId, dealStatus, limit),
    [creatorId, dealStatus, limit],
  );
}

/** The creator's applications counted, in all and by their deal's status. */
export function useCreatorDealCounts(creatorId: string | null): LiveResult<CreatorDealCounts> {
  return useLiveQuery((db) => !!creatorId && creatorDealCounts$(db, creatorId), [creatorId]);
}

export type DealsNotAppliedTo = {
  /** Undefined until the first result for this selector. */
  deals: DealDocument[] | undefined;
  /** The deals read that the creator applied to (left out of `deals`). */
  appliedIds: readonly string[];
};

/**
 * How many deals to read so that `wanted` of them are not applied to. A page shorter than its limit
 * already holds every matching deal; a full one with too few not applied to grows as if the deals
 * further on were applied to as densely as these (twice its size when every one was), and at least
 * by the applied ones: a few steps even for a creator who applied to thousands.
 */
export function candidatePageSize(wanted: number, page: Pick<DealsAndApplied, 'deals' | 'applied' | 'limit'>): number {
  const notApplied = page.deals.length - page.applied.size;
  if (page.deals.length < page.limit || notApplied >= wanted) return page.limit;
  const estimate = notApplied > 0 ? Math.ceil((wanted * page.limit) / notApplied) : page.limit * 2;
  return Math.max(estimate, wanted + page.applied.size);
}

/**
 * The newest deals matching `selector` that the creator has not applied to, `wanted` of them when
 * there are as many. It reads a page of deals and the creator's applications to those deals only
 * (never all of the creator's applications); when too many of the page were applied to, the page
 * grows (candidatePageSize) and is read again, until it holds `wanted` others or every matching deal.
 */
export function useDealsNotAppliedTo(
  creatorId: string | null,
  selector: DealSelector | null,
  wanted: number,
): DealsNotAppliedTo {
  const key = creatorId && selector ? JSON.stringify(selector) : '';
  const [grown, setGrown] = useState({ key, limit: wanted });
  const limit = grown.key === key ? Math.max(grown.limit, wanted) : wanted;
  const live = useLiveQuery(
    (db) =>
      !!key &&
      !!creatorId &&
      dealsPageWithApplied$(db, creatorId, JSON.parse(key) as DealSelector, limit).pipe(
        map((page) => ({ ...page, key })),
      ),
    [key, creatorId, limit],
  );
  // A result of a smaller page for the same selector is still right (fewer deals): shown while the
  // larger one is read, so a new application never blanks the list.
  const page = live.data?.key === key ? live.data : undefined;
  const next = page && page.limit === limit ? candidatePageSize(wanted, page) : limit;
  if (next > limit) setGrown({ key, limit: next });
  const deals = useMemo(() => page?.deals.filter((d) => !page.applied.has(d.id)), [page]);
  const appliedIds = useMemo(() => (page ? [...page.applied].sort() : NONE), [page]);
  return { deals, appliedIds };
}

export function useSkippedDealIds(userId: string | null): Live<string[]> {
  return withInitial(
    useLiveQuery((db) => (userId ? skippedDealIds$(db, userId) : null), [userId]),
    NONE,
  );
}

export function useDealReviews(dealId: string): Live<ReviewDocument[]> {
  return withInitial(
    useLiveQuery((db) => reviewsForDeal$(db, dealId), [dealId]),
    NONE,
  );
}

/** Every profile the device holds, by id (brand names on cards, applicant names, creators to recommend). */
export function useProfiles(): {
  byId: ReadonlyMap<string, ProfileDocument>;
  list: ProfileDocument[];
  loading: boolean;
} {
  const live = withInitial(
    useLiveQuery((db) => profiles$(db), []),
    NONE as ProfileDocument[],
  );
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
