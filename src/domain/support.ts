/**
 * The support desk's rules, shared by the UI (which predicts them) and the server tests (which check
 * the database keeps them: 20261123000301_support_rules.sql holds the same limits and sentences).
 */
import type { SupportTicketDocument, TicketPriority, TicketStatus } from './collections/support.ts';

export const SUBJECT_MAX_LENGTH = 200;
export const MESSAGE_MAX_LENGTH = 10_000;
/** "the asker can close, and reopen within 14 days" (of closing). */
export const REOPEN_WINDOW_DAYS = 14;
/** The free plan's open questions at a time; Pro users have no limit. Disputes never count. */
export const FREE_OPEN_TICKET_LIMIT = 3;
/** The average first-response time covers tickets opened in the last 30 days. */
export const RESPONSE_TIME_WINDOW_DAYS = 30;

/** The sentences the server refuses with (word for word the database's). */
export const SUPPORT_ERRORS = {
  subjectRequired: 'Please enter a subject.',
  subjectTooLong: `The subject can be at most ${SUBJECT_MAX_LENGTH} characters.`,
  messageRequired: 'Please describe what you need help with.',
  messageTooLong: `The message can be at most ${MESSAGE_MAX_LENGTH.toLocaleString('en-US')} characters.`,
  ticketClosed: 'This ticket is closed, so it takes no more replies. Open a new ticket if you still need help.',
  openTicketLimit:
    `The free plan allows ${FREE_OPEN_TICKET_LIMIT} open tickets at a time. ` +
    'Pro users have no limit: upgrade, or close a ticket you no longer need.',
  reopenExpired: `A ticket can be reopened within ${REOPEN_WINDOW_DAYS} days of closing. Please open a new ticket.`,
} as const;

export type TicketDraft = { subject: string; message: string };
export type TicketDraftErrors = Partial<Record<keyof TicketDraft, string>>;

/** "New ticket: subject and message required", with the server's length limits. */
export function validateTicketDraft(draft: TicketDraft): TicketDraftErrors {
  const errors: TicketDraftErrors = {};
  const subject = draft.subject.trim();
  const message = draft.message.trim();
  if (!subject) errors.subject = SUPPORT_ERRORS.subjectRequired;
  else if (subject.length > SUBJECT_MAX_LENGTH) errors.subject = SUPPORT_ERRORS.subjectTooLong;
  if (!message) errors.message = SUPPORT_ERRORS.messageRequired;
  else if (message.length > MESSAGE_MAX_LENGTH) errors.message = SUPPORT_ERRORS.messageTooLong;
  return errors;
}

/** A reply's text, or null when it is to be ignored ("a blank reply is ignored"). */
export function replyText(text: string): string | null {
  const trimmed = text.trim();
  return trimmed ? trimmed : null;
}

const PRIORITY_RANK: Record<TicketPriority, number> = { high: 0, normal: 1, low: 2 };

type QueueTicket = Pick<SupportTicketDocument, 'priority' | 'id'> & { created_at?: string | undefined };

/** The staff queue's order: priority (high first), then age (oldest first); the id breaks ties. */
export function compareQueue(a: QueueTicket, b: QueueTicket): number {
  return (
    PRIORITY_RANK[a.priority] - PRIORITY_RANK[b.priority] ||
    (a.created_at ?? '').localeCompare(b.created_at ?? '') ||
    a.id.localeCompare(b.id)
  );
}

/**
 * The average time from opening a ticket to the first staff reply, in whole minutes, over tickets
 * opened in the last 30 days that have been answered; null when there is none.
 */
export function averageFirstResponseMinutes(
  tickets: readonly Pick<SupportTicketDocument, 'first_response_at' | 'created_at'>[],
  now: Date,
): number | null {
  const since = now.getTime() - RESPONSE_TIME_WINDOW_DAYS * 24 * 60 * 60 * 1000;
  let total = 0;
  let count = 0;
  for (const t of tickets) {
    if (!t.first_response_at || !t.created_at) continue;
    const opened = Date.parse(t.created_at);
    if (opened < since) continue;
    total += Date.parse(t.first_response_at) - opened;
    count += 1;
  }
  return count ? Math.round(total / count / 60_000) : null;
}

export function countsByStatus(
  tickets: readonly Pick<SupportTicketDocument, 'status'>[],
): Record<TicketStatus, number> {
  const counts: Record<TicketStatus, number> = { open: 0, closed: 0 };
  for (const t of tickets) counts[t.status] += 1;
  return counts;
}

/** Whether the asker may still reopen a closed ticket (staff always may). */
export function askerCanReopen(ticket: Pick<SupportTicketDocument, 'status' | 'closed_at'>, now: Date): boolean {
  if (ticket.status !== 'closed') return false;
  if (!ticket.closed_at) return true;
  return now.getTime() - Date.parse(ticket.closed_at) <= REOPEN_WINDOW_DAYS * 24 * 60 * 60 * 1000;
}
