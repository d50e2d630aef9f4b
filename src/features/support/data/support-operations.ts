import { v7 as uuidv7 } from 'uuid';
import type { PactaDatabase } from '../../../db/index.ts';
import { prepareDocument } from '../../../db/index.ts';
import type { TicketPriority, TicketStatus } from '../../../domain/collections/index.ts';
import { replyText, validateTicketDraft, type TicketDraft } from '../../../domain/support.ts';

/**
 * The support desk's named writes. Each writes the local database only (so it works offline);
 * replication sends tickets before their replies, and the server applies the rules (priority,
 * status, who may reply). Every write clears `sync_rejection`: a refused document is only sent
 * again when the user acts on it.
 */

export class SupportActionError extends Error {}

const nowIso = () => new Date().toISOString();

export type NewTicket = TicketDraft & { priority: TicketPriority; dealId: string | null };

/** Opens a ticket for the signed-in user; answers its id (a UUID v7 made here, so it works offline). */
export async function openTicket(db: PactaDatabase, userId: string, ticket: NewTicket): Promise<string> {
  const errors = validateTicketDraft(ticket);
  const first = errors.subject ?? errors.message;
  if (first) throw new SupportActionError(first);
  const id = uuidv7();
  const now = nowIso();
  // created_at and last_activity_at are placeholders for sorting until the server stamps them.
  await db.support_tickets.insert(
    prepareDocument('support_tickets', {
      id,
      user_id: userId,
      subject: ticket.subject.trim(),
      message: ticket.message.trim(),
      priority: ticket.priority,
      kind: 'question',
      deal_id: ticket.dealId,
      created_at: now,
      last_activity_at: now,
    }),
  );
  return id;
}

/** Adds a reply to the thread; a blank reply is ignored (answers false). */
export async function replyToTicket(
  db: PactaDatabase,
  ticketId: string,
  userId: string,
  text: string,
): Promise<boolean> {
  const message = replyText(text);
  if (!message) return false;
  await db.support_messages.insert(
    prepareDocument('support_messages', {
      id: uuidv7(),
      ticket_id: ticketId,
      user_id: userId,
      message,
      created_at: nowIso(),
    }),
  );
  return true;
}

/** Closes or reopens a ticket (the server decides who may: the asker within 14 days, staff always). */
export async function setTicketStatus(db: PactaDatabase, ticketId: string, status: TicketStatus): Promise<void> {
  const doc = await db.support_tickets.findOne(ticketId).exec();
  if (!doc) throw new SupportActionError('Ticket not found.');
  await doc.incrementalPatch({ status, sync_rejection: null });
}

/** Staff set a ticket's priority. */
export async function setTicketPriority(db: PactaDatabase, ticketId: string, priority: TicketPriority): Promise<void> {
  const doc = await db.support_tickets.findOne(ticketId).exec();
  if (!doc) throw new SupportActionError('Ticket not found.');
  await doc.incrementalPatch({ priority, sync_rejection: null });
}

/** Sends a refused ticket again (after closing another one, for instance): clears the refusal. */
export async function retryTicket(db: PactaDatabase, ticketId: string): Promise<void> {
  const doc = await db.support_tickets.findOne(ticketId).exec();
  if (doc?.sync_rejection) await doc.incrementalPatch({ sync_rejection: null });
}
