import { map, type Observable } from 'rxjs';
import type { PactaDatabase } from '../../../db/index.ts';
import type { ApplicationDocument, DealDocument, ProfileDocument, ReviewDocument, SavedListDocument } from '../../../domain/collections/index.ts';
import { savedListId } from '../../../domain/saved-lists.ts';

/**
 * Live reads of the local database, as plain objects (RxDB documents carry methods and cannot go to
 * the worker). Each function returns an observable the hooks subscribe to.
 */
type Plain<T> = { toJSON(): unknown } & T;
const plain = <T>(docs: Plain<T>[]): T[] => docs.map((d) => d.toJSON() as T);

export function openDeals$(db: PactaDatabase): Observable<DealDocument[]> {
  return db.deals.find({ selector: { status: 'open' } }).$.pipe(map((docs) => plain<DealDocument>(docs as Plain<DealDocument>[])));
}

export function deal$(db: PactaDatabase, id: string): Observable<DealDocument | null> {
  return db.deals.findOne(id).$.pipe(map((doc) => (doc ? (doc.toJSON() as DealDocument) : null)));
}

export function dealsByBrand$(db: PactaDatabase, brandId: string): Observable<DealDocument[]> {
  return db.deals
    .find({ selector: { brand_id: brandId } })
    .$.pipe(map((docs) => plain<DealDocument>(docs as Plain<DealDocument>[])));
}

export function dealsByIds$(db: PactaDatabase, ids: readonly string[]): Observable<DealDocument[]> {
  return db.deals.findByIds([...ids]).$.pipe(map((found) => [...found.values()].map((d) => d.toJSON() as DealDocument)));
}

export function applicationsForDeal$(db: PactaDatabase, dealId: string): Observable<ApplicationDocument[]> {
  return db.applications
    .find({ selector: { deal_id: dealId } })
    .$.pipe(map((docs) => plain<ApplicationDocument>(docs as Plain<ApplicationDocument>[])));
}

export function applicationsByCreator$(db: PactaDatabase, creatorId: string): Observable<ApplicationDocument[]> {
  return db.applications
    .find({ selector: { creator_id: creatorId } })
    .$.pipe(map((docs) => plain<ApplicationDocument>(docs as Plain<ApplicationDocument>[])));
}

export function profiles$(db: PactaDatabase): Observable<ProfileDocument[]> {
  return db.profiles.find().$.pipe(map((docs) => plain<ProfileDocument>(docs as Plain<ProfileDocument>[])));
}

export function reviewsForDeal$(db: PactaDatabase, dealId: string): Observable<ReviewDocument[]> {
  return db.reviews
    .find({ selector: { deal_id: dealId } })
    .$.pipe(map((docs) => plain<ReviewDocument>(docs as Plain<ReviewDocument>[])));
}

/** The deal ids this user skipped (on any device: the list replicates). */
export function skippedDealIds$(db: PactaDatabase, userId: string): Observable<string[]> {
  return db.saved_lists
    .findOne(savedListId(userId, 'skipped_deals'))
    .$.pipe(map((doc) => (doc ? [...(doc.toJSON() as SavedListDocument).items] : [])));
}
