import { z } from 'zod';
import { messageAttachment } from '../media.ts';
import { jsonObject, syncColumns, timestamp, uuid } from './fields.ts';

export const conversationDocument = z.object({
  id: uuid,
  user1_id: uuid,
  user2_id: uuid,
  deal_id: uuid.nullable().default(null),
  title: z.string().default(''),
  last_message: z.string().default(''),
  last_message_at: timestamp.nullable().default(null),
  /** Server-owned: the sequence of the newest message (0 before the first). */
  last_seq: z.number().int().min(0).default(0),
  /** Each member's highest read sequence: only ever grows, merged as a maximum. */
  user1_read_seq: z.number().int().min(0).default(0),
  user2_read_seq: z.number().int().min(0).default(0),
  ...syncColumns,
});
export type ConversationDocument = z.infer<typeof conversationDocument>;

export const messageDocument = z.object({
  id: uuid,
  conversation_id: uuid,
  sender_id: uuid,
  recipient_id: uuid,
  body: z.string(),
  /** Files sent with the message (the body may then be empty). */
  attachments: z.array(messageAttachment).default([]),
  /** Server-owned: the position in the conversation, assigned on arrival; null while pending. */
  seq: z.number().int().min(1).nullable().default(null),
  read_at: timestamp.nullable().default(null),
  ...syncColumns,
});
export type MessageDocument = z.infer<typeof messageDocument>;

export const notificationDocument = z.object({
  id: uuid,
  user_id: uuid,
  type: z.string(),
  title: z.string(),
  message: z.string().default(''),
  data: jsonObject.default({}),
  read_at: timestamp.nullable().default(null),
  ...syncColumns,
});
export type NotificationDocument = z.infer<typeof notificationDocument>;
