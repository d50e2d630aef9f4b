import { combineLatest, map, of, switchMap, type Observable } from 'rxjs';
import { listFirst, NEWEST_FIRST_SORT, type PactaDatabase } from '../../../db/index.ts';
import type { ApplicationDocument, DealDocument, DealEventDocument } from '../../../domain/collections/index.ts';
import { workView } from '../../../domain/deal-work-view.ts';
import type { DealWork } from '../work-waiting.ts';
import type { BrandCounts, CreatorCounts } from '../dashboard-model.ts';

/** How many items each dashboard list shows ("Showing 10 of N" links to the rest). */
export const DASHBOARD_LIST_SIZE = 10;

/**
 * The dashboard's reads. Each list is the newest few through an index (`sort` + `limit`), each
 * figure a `count()` the index answers: opening the dashboard of a brand with 10,000 deals and
 * 50,000 applications reads ten deals, not the collections. The figures are counted once the list
 * is read (`counts` is undefined until then): a count walks its whole index range.
 */

export type ApplicationWithDeal = { application: ApplicationDocument; deal: DealDocument | null };
export type BrandDashboard = { deals: DealDocument[]; counts?: BrandCounts };
export type CreatorDashboard = { applications: ApplicationWithDeal[]; counts?: CreatorCounts };

/** Applications the brand received: every one on its deals but the withdrawn (the deals' applications_count). */
const RECEIVED: ApplicationDocument['status'][] = ['pending', 'accepted', 'rejected'];

/** The brand's deals (brand_id = user), or for an admin every deal on this device. */
export function brandDashboard$(db: PactaDatabase, userId: string, all: boolean): Observable<BrandDashboard> {
  const scope = all ? {} : { brand_id: userId };
  const deals = (status?: DealDocument['status']) =>
    db.deals.count({ selector: status ? { ...scope, status } : scope }).$;
  // A brand's device holds exactly the applications to its deals (an admin's: all of them).
  const received = combineLatest(RECEIVED.map((status) => db.applications.count({ selector: { status } }).$)).pipe(
    map((n) => n.reduce((a, b) => a + b, 0)),
  );
  const newest = db.deals
    .find({ selector: scope, sort: NEWEST_FIRST_SORT, limit: DASHBOARD_LIST_SIZE })
    .$.pipe(map((docs) => docs.map((d) => d.toJSON() as DealDocument)));
  const counts = combineLatest({
    total: deals(),
    open: deals('open'),
    in_progress: deals('in_progress'),
    completed: deals('completed'),
    received,
  });
  return listFirst(newest, counts).pipe(map(({ list, totals }) => ({ deals: list, counts: totals })));
}

/** The creator's applications (or every application for an admin) with their deals, newest first. */
export function creatorDashboard$(db: PactaDatabase, userId: string, all: boolean): Observable<CreatorDashboard> {
  const scope = all ? {} : { creator_id: userId };
  const applications = (status?: ApplicationDocument['status']) =>
    db.applications.count({ selector: status ? { ...scope, status } : scope }).$;
  const newest = db.applications.find({ selector: scope, sort: NEWEST_FIRST_SORT, limit: DASHBOARD_LIST_SIZE }).$.pipe(
    map((docs) => docs.map((d) => d.toJSON() as ApplicationDocument)),
    switchMap((list) => {
      const dealIds = [...new Set(list.map((a) => a.deal_id))];
      if (dealIds.length === 0) return of([] as ApplicationWithDeal[]);
      return db.deals.findByIds(dealIds).$.pipe(
        map((deals) =>
          list.map((application) => ({
            application,
            deal: (deals.get(application.deal_id)?.toJSON() as DealDocument | undefined) ?? null,
          })),
        ),
      );
    }),
  );
  const counts = combineLatest({
    total: applications(),
    pending: applications('pending'),
    accepted: applications('accepted'),
  });
  return listFirst(newest, counts).pipe(map(({ list, totals }) => ({ applications: list, counts: totals })));
}

/** How many applications "What waits on whom" reads at most (the newest: work in progress is recent). */
const WORK_LIMIT = 100;

/**
 * The deals' work in progress for "What waits on whom": applications still open or accepted (the
 * creator's own; on a brand's device, those to its deals), newest first, each with its deal and its
 * work log, so what was written on this device offline counts at once.
 */
export function dealWork$(db: PactaDatabase, userId: string, side: 'creator' | 'brand'): Observable<DealWork[]> {
  const scope = side === 'creator' ? { creator_id: userId } : {};
  return db.applications
    .find({
      selector: { ...scope, status: { $in: ['pending', 'accepted'] } },
      sort: NEWEST_FIRST_SORT,
      limit: WORK_LIMIT,
    })
    .$.pipe(
      map((docs) => docs.map((d) => d.toJSON() as ApplicationDocument)),
      switchMap((apps) => {
        if (apps.length === 0) return of([] as DealWork[]);
        const dealIds = [...new Set(apps.map((a) => a.deal_id))];
        return combineLatest([
          db.deals.findByIds(dealIds).$,
          db.deal_events.find({ selector: { application_id: { $in: apps.map((a) => a.id) } } }).$,
        ]).pipe(
          map(([deals, events]) => {
            const log = events.map((e) => e.toJSON() as DealEventDocument);
            return (
              apps
                .map((app) => ({
                  app,
                  deal: (deals.get(app.deal_id)?.toJSON() as DealDocument | undefined) ?? null,
                  view: workView(app, log),
                }))
                // A brand's own deals only (an admin's device holds others').
                .filter((w) => side === 'creator' || w.deal?.brand_id === userId)
            );
          }),
        );
      }),
    );
}
