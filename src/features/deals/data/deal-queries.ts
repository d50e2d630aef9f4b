import type { MangoQuerySelector } from 'rxdb';
import { combineLatest, map, of, switchMap, type Observable } from 'rxjs';
import { NEWEST_FIRST_SORT, type PactaDatabase } from '../../../db/index.ts';
import { collectionSpecs, NEWEST_FIRST } from '../../../domain/collections/index.ts';
import type {
  ApplicationDocument,
  DealDocument,
  DealEventDocument,
  ProfileDocument,
  ReviewDocument,
  SavedListDocument,
} from '../../../domain/collections/index.ts';
import { savedListId } from '../../../domain/saved-lists.ts';
import { COMPLETED_APPLICATION } from '../../../domain/completed-deals.ts';

/**
 * Live reads of the local database, as plain objects (RxDB documents carry methods and cannot go to
 * the worker). Each function returns an observable the hooks subscribe to.
 */
type Plain<T> = { toJSON(): unknown } & T;
const plain = <T>(docs: Plain<T>[]): T[] => docs.map((d) => d.toJSON() as T);

/**
 * Every list below reads a range of one index in its order (NEWEST_FIRST_SORT) and stops at `limit`;
 * totals are `count()` queries the index answers without reading documents. None loads a whole
 * collection: a brand with 10,000 deals opens its screens by reading the few it shows.
 */
export type DealSelector = MangoQuerySelector<DealDocument>;

/** A page of deals matching `selector`, newest first. */
export function dealsPage$(db: PactaDatabase, selector: DealSelector, limit: number): Observable<DealDocument[]> {
  return dealsPageQuery(db, selector, limit).$.pipe(map((docs) => plain<DealDocument>(docs as Plain<DealDocument>[])));
}

export function dealsPageQuery(db: PactaDatabase, selector: DealSelector, limit: number) {
  return db.deals.find({ selector, sort: NEWEST_FIRST_SORT, limit, index: newestFirstIndex(selector) });
}

/**
 * The newest-first index a page walks: the longest whose other fields the selector fixes to one
 * value (status, pro_only, brand_id), so the walk stops at the page's last card. Named because RxDB's
 * planner would prefer the index of a range condition (`open_until >= today`, the counts' index) and
 * then sort every deal of the range in memory.
 */
function newestFirstIndex(selector: DealSelector): string[] {
  const fixed = (field: string) => {
    const value = (selector as Record<string, unknown>)[field];
    return typeof value === 'string' || typeof value === 'boolean' || typeof value === 'number';
  };
  const fits = collectionSpecs.deals.indexes
    .map((index) => (typeof index === 'string' ? [index] : [...index]))
    .filter((index) => index.at(-1) === NEWEST_FIRST && index.slice(0, -1).every(fixed));
  return fits.reduce((best, index) => (index.length > best.length ? index : best), [NEWEST_FIRST]);
}

/** How many deals match `selector`. */
export function dealsCount$(db: PactaDatabase, selector: DealSelector): Observable<number> {
  return db.deals.count({ selector }).$;
}

/** A brand's deals counted by status (My Deals' filter chips). */
export function dealCountsByStatus$(
  db: PactaDatabase,
  brandId: string,
): Observable<Record<DealDocument['status'], number>> {
  return countsByDealStatus((status) => dealsCount$(db, { brand_id: brandId, status }));
}

/** One live count per deal status (the status-filter chips' figures). */
function countsByDealStatus(
  count: (status: DealDocument['status']) => Observable<number>,
): Observable<Record<DealDocument['status'], number>> {
  return combineLatest({
    open: count('open'),
    in_progress: count('in_progress'),
    completed: count('completed'),
    cancelled: count('cancelled'),
  });
}

export function deal$(db: PactaDatabase, id: string): Observable<DealDocument | null> {
  return db.deals.findOne(id).$.pipe(map((doc) => (doc ? (doc.toJSON() as DealDocument) : null)));
}

export function applicationsForDeal$(db: PactaDatabase, dealId: string): Observable<ApplicationDocument[]> {
  return db.applications
    .find({ selector: { deal_id: dealId } })
    .$.pipe(map((docs) => plain<ApplicationDocument>(docs as Plain<ApplicationDocument>[])));
}

/**
 * Which of `dealIds` the creator applied to (whatever the application's status): the applications of
 * those deals only, read through the (deal, creator) index between the smallest and the largest id.
 * Deal ids are UUID v7, so the newest deals' ids lie close together and the range holds little else.
 */
export function appliedDealIds$(
  db: PactaDatabase,
  creatorId: string,
  dealIds: readonly string[],
): Observable<ReadonlySet<string>> {
  if (dealIds.length === 0) return of(new Set<string>());
  return db.applications
    .find({ selector: { deal_id: { $in: [...dealIds] }, creator_id: creatorId } })
    .$.pipe(map((docs) => new Set(docs.map((d) => d.deal_id))));
}

/** A page of deals and which of them the creator applied to, as one result (never one without the other). */
export type DealsAndApplied = { deals: DealDocument[]; applied: ReadonlySet<string>; limit: number };

export function dealsPageWithApplied$(
  db: PactaDatabase,
  creatorId: string,
  selector: DealSelector,
  limit: number,
): Observable<DealsAndApplied> {
  return dealsPage$(db, selector, limit).pipe(
    switchMap((deals) =>
      appliedDealIds$(
        db,
        creatorId,
        deals.map((d) => d.id),
      ).pipe(map((applied) => ({ deals, applied, limit }))),
    ),
  );
}

/** One of a creator's applications with its deal (null: the deal is not on this device). */
export type ApplicationWithDeal = { application: ApplicationDocument; deal: DealDocument | null };

/**
 * A page of the creator's applications, newest first, all of them or those whose deal is in
 * `dealStatus` (the server's copy on each application), each with its deal read by id.
 */
export function creatorApplicationsPage$(
  db: PactaDatabase,
  creatorId: string,
  dealStatus: DealDocument['status'] | null,
  limit: number,
): Observable<ApplicationWithDeal[]> {
  const selector = { creator_id: creatorId, ...applicationsByDealStatus(dealStatus) };
  return db.applications.find({ selector, sort: NEWEST_FIRST_SORT, limit }).$.pipe(
    map((docs) => plain<ApplicationDocument>(docs as Plain<ApplicationDocument>[])),
    switchMap((applications) => {
      if (applications.length === 0) return of([] as ApplicationWithDeal[]);
      return db.deals.findByIds([...new Set(applications.map((a) => a.deal_id))]).$.pipe(
        map((deals) =>
          applications.map((application) => ({
            application,
            deal: (deals.get(application.deal_id)?.toJSON() as DealDocument | undefined) ?? null,
          })),
        ),
      );
    }),
  );
}

export type CreatorDealCounts = Record<DealDocument['status'], number> & { total: number };

/**
 * Which of a creator's applications a My Deals chip shows: those whose deal is in that status, and for
 * Completed only the deals the creator completed (COMPLETED_APPLICATION), as the dashboard and
 * /performance count them.
 */
function applicationsByDealStatus(dealStatus: DealDocument['status'] | null | undefined) {
  if (!dealStatus) return {};
  return dealStatus === 'completed' ? { ...COMPLETED_APPLICATION } : { deal_status: dealStatus };
}

/** How many applications the creator made, in all and by their deal's status (My Deals' chips). */
export function creatorDealCounts$(db: PactaDatabase, creatorId: string): Observable<CreatorDealCounts> {
  const count = (dealStatus?: DealDocument['status']) =>
    db.applications.count({ selector: { creator_id: creatorId, ...applicationsByDealStatus(dealStatus) } }).$;
  return combineLatest([count(), countsByDealStatus(count)]).pipe(map(([total, byStatus]) => ({ total, ...byStatus })));
}

export function profiles$(db: PactaDatabase): Observable<ProfileDocument[]> {
  return db.profiles.find().$.pipe(map((docs) => plain<ProfileDocument>(docs as Plain<ProfileDocument>[])));
}

export function reviewsForDeal$(db: PactaDatabase, dealId: string): Observable<ReviewDocument[]> {
  return db.reviews
    .find({ selector: { deal_id: dealId } })
    .$.pipe(map((docs) => plain<ReviewDocument>(docs as Plain<ReviewDocument>[])));
}

/** A deal's work logs (every application's events this user may see), oldest first. */
export function dealEventsForDeal$(db: PactaDatabase, dealId: string): Observable<DealEventDocument[]> {
  return db.deal_events
    .find({ selector: { deal_id: dealId } })
    .$.pipe(map((docs) => plain<DealEventDocument>(docs as Plain<DealEventDocument>[])));
}

/** The deal ids this user skipped (on any device: the list replicates). */
export function skippedDealIds$(db: PactaDatabase, userId: string): Observable<string[]> {
  return db.saved_lists
    .findOne(savedListId(userId, 'skipped_deals'))
    .$.pipe(map((doc) => (doc ? [...(doc.toJSON() as SavedListDocument).items] : [])));
}
