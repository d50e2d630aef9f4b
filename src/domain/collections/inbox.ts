import { z } from 'zod';
import { jsonObject, syncColumns, timestamp, uuid } from './fields.ts';

export const conversationDocument = z.object({
  id: uuid,
  user1_id: uuid,
  user2_id: uuid,
  deal_id: uuid.nullable().default(null),
  title: z.string().default(''),
  last_message: z.string().default(''),
  last_message_at: timestamp.nullable().default(null),
  ...syncColumns,
});
export type ConversationDocument = z.infer<typeof conversationDocument>;

export const messageDocument = z.object({
  id: uuid,
  conversation_id: uuid,
  sender_id: uuid,
  recipient_id: uuid,
  body: z.string(),
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
