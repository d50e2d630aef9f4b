import { z } from 'zod';
import { syncColumns, timestamp, uuid } from './fields.ts';

export const TICKET_PRIORITIES = ['high', 'normal', 'low'] as const;
export const TICKET_STATUSES = ['open', 'closed'] as const;

export const supportTicketDocument = z.object({
  id: uuid,
  user_id: uuid,
  subject: z.string(),
  message: z.string(),
  priority: z.enum(TICKET_PRIORITIES).default('normal'),
  status: z.enum(TICKET_STATUSES).default('open'),
  is_pro: z.boolean().default(false),
  first_response_at: timestamp.nullable().default(null),
  ...syncColumns,
});
export type SupportTicketDocument = z.infer<typeof supportTicketDocument>;

export const supportMessageDocument = z.object({
  id: uuid,
  ticket_id: uuid,
  user_id: uuid,
  message: z.string(),
  ...syncColumns,
});
export type SupportMessageDocument = z.infer<typeof supportMessageDocument>;
