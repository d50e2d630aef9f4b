import { z } from 'zod';
import { syncColumns, timestamp, uuid } from './fields.ts';

export const TICKET_PRIORITIES = ['high', 'normal', 'low'] as const;
export const TICKET_STATUSES = ['open', 'closed'] as const;
/**
 * What a ticket is: a user's question, a dispute about a deal (opened by the payments feature), or
 * a contact-form message, or a report of a person or a deal (both created by the server, so staff
 * answer them from the same queue).
 */
export const TICKET_KINDS = ['question', 'dispute', 'contact', 'report'] as const;
export type TicketPriority = (typeof TICKET_PRIORITIES)[number];
export type TicketStatus = (typeof TICKET_STATUSES)[number];
export type TicketKind = (typeof TICKET_KINDS)[number];

export const supportTicketDocument = z.object({
  id: uuid,
  /** The asker; null only on a contact ticket from a signed-out visitor (see contact_name/email). */
  user_id: uuid.nullable(),
  subject: z.string(),
  message: z.string(),
  priority: z.enum(TICKET_PRIORITIES).default('normal'),
  status: z.enum(TICKET_STATUSES).default('open'),
  kind: z.enum(TICKET_KINDS).default('question'),
  /** The deal the ticket is about (always set on a dispute). */
  deal_id: uuid.nullable().default(null),
  // server-owned
  is_pro: z.boolean().default(false),
  first_response_at: timestamp.nullable().default(null),
  last_activity_at: timestamp.nullable().default(null),
  closed_at: timestamp.nullable().default(null),
  contact_name: z.string().nullable().default(null),
  contact_email: z.string().nullable().default(null),
  ...syncColumns,
});
export type SupportTicketDocument = z.infer<typeof supportTicketDocument>;

export const supportMessageDocument = z.object({
  id: uuid,
  ticket_id: uuid,
  user_id: uuid,
  message: z.string(),
  /** Written by staff on someone else's ticket (server-owned). */
  is_staff: z.boolean().default(false),
  ...syncColumns,
});
export type SupportMessageDocument = z.infer<typeof supportMessageDocument>;
