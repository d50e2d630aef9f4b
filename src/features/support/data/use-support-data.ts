import { useMemo } from 'react';
import { combineLatest, map, of } from 'rxjs';
import { useLiveQuery } from '../../../db/hooks/use-live-query.ts';
import type {
  DealDocument,
  ProfileDocument,
  SupportMessageDocument,
  SupportTicketDocument,
} from '../../../domain/collections/index.ts';
import { allMessages$, allTickets$, ticket$, ticketMessages$, ticketsOf$ } from './support-queries.ts';

const NONE: never[] = [];

/** The signed-in user's own tickets. */
export function useMyTickets(userId: string | null) {
  const live = useLiveQuery((db) => (userId ? ticketsOf$(db, userId) : null), [userId]);
  return { tickets: live.data ?? (NONE as SupportTicketDocument[]), loading: live.loading, error: live.error };
}

/** Every ticket on the device: for staff, the whole desk. */
export function useAllTickets(enabled: boolean) {
  const live = useLiveQuery((db) => (enabled ? allTickets$(db) : null), [enabled]);
  return { tickets: live.data ?? (NONE as SupportTicketDocument[]), loading: live.loading, error: live.error };
}

export function useTicket(id: string) {
  const live = useLiveQuery((db) => ticket$(db, id), [id]);
  return { ticket: live.data ?? null, loading: live.loading, error: live.error };
}

export function useTicketMessages(ticketId: string) {
  const live = useLiveQuery((db) => ticketMessages$(db, ticketId), [ticketId]);
  return live.data ?? (NONE as SupportMessageDocument[]);
}

/**
 * The latest moment something happened on each ticket: the server's last activity, or a reply
 * written on this device that the server has not stamped yet.
 */
export function useLastActivity(tickets: readonly SupportTicketDocument[]): ReadonlyMap<string, string> {
  const live = useLiveQuery((db) => allMessages$(db), []);
  const messages = live.data ?? (NONE as SupportMessageDocument[]);
  return useMemo(() => {
    const latest = new Map<string, string>();
    for (const t of tickets) latest.set(t.id, t.last_activity_at ?? t.created_at ?? '');
    for (const m of messages) {
      const at = m.created_at ?? '';
      if (latest.has(m.ticket_id) && at > (latest.get(m.ticket_id) ?? '')) latest.set(m.ticket_id, at);
    }
    return latest;
  }, [tickets, messages]);
}

/** The title of the deal a ticket is about, when that deal is on this device (null: not, or none). */
export function useDealTitle(dealId: string | null | undefined): string | null {
  const live = useLiveQuery(
    (db) => (dealId ? db.deals.findOne(dealId).$.pipe(map((doc) => (doc ? doc.title : null))) : of(null)),
    [dealId],
  );
  return live.data ?? null;
}

/** Profiles by id (askers' usernames and avatars, reply authors). */
export function useProfilesById(): ReadonlyMap<string, ProfileDocument> {
  const live = useLiveQuery(
    (db) => db.profiles.find().$.pipe(map((docs) => docs.map((d) => d.toJSON() as ProfileDocument))),
    [],
  );
  return useMemo(() => new Map((live.data ?? []).map((p) => [p.id, p])), [live.data]);
}

/** The deals a user takes part in (their own as a brand, the ones they applied to): what a ticket can be about. */
export function useMyDeals(userId: string | null): DealDocument[] {
  const live = useLiveQuery(
    (db) =>
      userId
        ? combineLatest([
            db.deals.find({ selector: { brand_id: userId } }).$,
            db.applications.find({ selector: { creator_id: userId } }).$,
          ]).pipe(
            map(([own, applied]) => ({
              own: own.map((d) => d.toJSON() as DealDocument),
              appliedIds: applied.map((a) => a.deal_id),
            })),
          )
        : of(null),
    [userId],
  );
  // A string key, so a new array with the same ids does not re-subscribe.
  const appliedKey = (live.data?.appliedIds ?? NONE).join(',');
  const applied = useLiveQuery(
    (db) => (appliedKey ? db.deals.findByIds(appliedKey.split(',')).$ : of(new Map())),
    [appliedKey],
  );
  return useMemo(() => {
    const byId = new Map<string, DealDocument>();
    for (const d of live.data?.own ?? NONE) byId.set(d.id, d);
    for (const d of applied.data?.values() ?? []) byId.set(d.id, d.toJSON() as DealDocument);
    return [...byId.values()].sort((a, b) => a.title.localeCompare(b.title));
  }, [live.data, applied.data]);
}
