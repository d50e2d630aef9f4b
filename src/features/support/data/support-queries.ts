import { map, type Observable } from 'rxjs';
import type { PactaDatabase } from '../../../db/index.ts';
import type { SupportMessageDocument, SupportTicketDocument } from '../../../domain/collections/index.ts';

/**
 * Live reads of the support collections as plain objects. What each user holds is decided by the
 * server: the asker's own tickets and threads, or every ticket for staff.
 */
type Plain<T> = { toJSON(): unknown } & T;
const plain = <T>(docs: Plain<T>[]): T[] => docs.map((d) => d.toJSON() as T);

export function ticketsOf$(db: PactaDatabase, userId: string): Observable<SupportTicketDocument[]> {
  return db.support_tickets
    .find({ selector: { user_id: userId } })
    .$.pipe(map((docs) => plain<SupportTicketDocument>(docs as Plain<SupportTicketDocument>[])));
}

/** Every ticket on the device (for staff: all of them). */
export function allTickets$(db: PactaDatabase): Observable<SupportTicketDocument[]> {
  return db.support_tickets
    .find()
    .$.pipe(map((docs) => plain<SupportTicketDocument>(docs as Plain<SupportTicketDocument>[])));
}

export function ticket$(db: PactaDatabase, id: string): Observable<SupportTicketDocument | null> {
  return db.support_tickets.findOne(id).$.pipe(map((doc) => (doc ? (doc.toJSON() as SupportTicketDocument) : null)));
}

/** A ticket's thread, oldest first (a reply written here sorts by its local time until stamped). */
export function ticketMessages$(db: PactaDatabase, ticketId: string): Observable<SupportMessageDocument[]> {
  return db.support_messages
    .find({ selector: { ticket_id: ticketId } })
    .$.pipe(
      map((docs) =>
        plain<SupportMessageDocument>(docs as Plain<SupportMessageDocument>[]).sort(
          (a, b) => (a.created_at ?? '').localeCompare(b.created_at ?? '') || a.id.localeCompare(b.id),
        ),
      ),
    );
}

/** Every reply on the device (the list's last activity for tickets whose replies are not yet stamped). */
export function allMessages$(db: PactaDatabase): Observable<SupportMessageDocument[]> {
  return db.support_messages
    .find()
    .$.pipe(map((docs) => plain<SupportMessageDocument>(docs as Plain<SupportMessageDocument>[])));
}
