import { combineLatest, map, of, switchMap } from 'rxjs';
import { useLiveQuery } from '../../../db/hooks/use-live-query.ts';
import type { MessageDocument, ProfileDocument } from '../../../domain/collections/index.ts';
import { recentMessages } from '../dashboard-model.ts';
import { brandDashboard$, creatorDashboard$, dealWork$ } from './dashboard-queries.ts';

/** The brand's (or, for an admin, every) newest deals and Quick Stats; live. */
export function useDashboardDeals(userId: string, all: boolean, enabled = true) {
  return useLiveQuery((db) => enabled && brandDashboard$(db, userId, all), [userId, all, enabled]);
}

/** The creator's (or, for an admin, every) newest applications with their deals, and Quick Stats; live. */
export function useDashboardApplications(userId: string, all: boolean, enabled = true) {
  return useLiveQuery((db) => enabled && creatorDashboard$(db, userId, all), [userId, all, enabled]);
}

/** The deals' work in progress on this side, for "What waits on whom"; live. */
export function useDealWork(userId: string, side: 'creator' | 'brand') {
  return useLiveQuery((db) => dealWork$(db, userId, side), [userId, side]);
}

export type MessagePreview = { message: MessageDocument; counterpart: string };

/** The 5 newest messages the user sent or received, with the other person's name when known here. */
export function useRecentMessages(userId: string) {
  return useLiveQuery(
    (db) =>
      db.messages.find({ selector: { $or: [{ sender_id: userId }, { recipient_id: userId }] } }).$.pipe(
        map((docs) =>
          recentMessages(
            docs.map((d) => d.toJSON() as MessageDocument),
            userId,
          ),
        ),
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
