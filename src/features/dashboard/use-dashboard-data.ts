import { combineLatest, map, of, switchMap } from 'rxjs';
import { useLiveQuery } from '../../db/hooks/use-live-query.ts';
import type { ApplicationDocument, DealDocument, MessageDocument, ProfileDocument } from '../../domain/collections/index.ts';
import { recentMessages, sortNewestFirst } from './dashboard-model.ts';

export type ApplicationWithDeal = { application: ApplicationDocument; deal: DealDocument | null };

/**
 * The brand's deals (brand_id = user), or for an admin every deal on this device, newest first
 * (spec 000 §6). Live: a deal created or synced shows at once.
 */
export function useDashboardDeals(userId: string, all: boolean, enabled = true) {
  return useLiveQuery(
    (db) =>
      enabled &&
      db.deals
        .find(all ? {} : { selector: { brand_id: userId } })
        .$.pipe(map((docs) => sortNewestFirst(docs.map((d) => d.toJSON() as DealDocument)))),
    [userId, all, enabled],
  );
}

/** The creator's applications (or every application for an admin) with their deals, newest first. */
export function useDashboardApplications(userId: string, all: boolean, enabled = true) {
  return useLiveQuery(
    (db) =>
      enabled &&
      db.applications.find(all ? {} : { selector: { creator_id: userId } }).$.pipe(
        map((docs) => sortNewestFirst(docs.map((d) => d.toJSON() as ApplicationDocument))),
        switchMap((applications) => {
          const dealIds = [...new Set(applications.map((a) => a.deal_id))];
          if (dealIds.length === 0) return of([] as ApplicationWithDeal[]);
          return db.deals.findByIds(dealIds).$.pipe(
            map((deals) => applications.map((application) => ({ application, deal: (deals.get(application.deal_id)?.toJSON() as DealDocument | undefined) ?? null }))),
          );
        }),
      ),
    [userId, all, enabled],
  );
}

export type MessagePreview = { message: MessageDocument; counterpart: string };

/** The 5 newest messages the user sent or received, with the other person's name when known here. */
export function useRecentMessages(userId: string) {
  return useLiveQuery(
    (db) =>
      db.messages.find({ selector: { $or: [{ sender_id: userId }, { recipient_id: userId }] } }).$.pipe(
        map((docs) => recentMessages(docs.map((d) => d.toJSON() as MessageDocument), userId)),
        switchMap((messages) => {
          const others = [...new Set(messages.map((m) => (m.sender_id === userId ? m.recipient_id : m.sender_id)))];
          return combineLatest([of(messages), others.length ? db.profiles.findByIds(others).$ : of(new Map())]).pipe(
            map(([list, profiles]) =>
              list.map((message) => {
                const other = message.sender_id === userId ? message.recipient_id : message.sender_id;
                const profile = profiles.get(other)?.toJSON() as ProfileDocument | undefined;
                return { message, counterpart: profile?.full_name || 'A Pacta member' };
              }),
            ),
          );
        }),
      ),
    [userId],
  );
}
