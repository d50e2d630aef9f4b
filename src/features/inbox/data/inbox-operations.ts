import { v7 as uuidv7 } from 'uuid';
import type { PactaDatabase } from '../../../db/index.ts';
import { prepareDocument } from '../../../db/index.ts';
import type { ConversationDocument } from '../../../domain/collections/index.ts';
import { conversationIdFor } from '../../../domain/conversation-id.ts';
import { messageBodyProblem, otherMember, readSeqField } from '../../../domain/messages.ts';

/**
 * The named writes of the inbox and the notifications. Each writes the local database only;
 * replication publishes it now or when the device is back online, and the server decides the order
 * (message sequence), the sender and who may write.
 */

export class InboxActionError extends Error {}

const nowIso = () => new Date().toISOString();

/**
 * The conversation between me and another person about a deal (or about nothing in particular):
 * found again if this device has it, otherwise started under the id both sides derive from the pair
 * and the deal, so two devices starting it offline at once still make one conversation.
 */
export async function findOrStartConversation(
  db: PactaDatabase,
  me: string,
  other: string,
  dealId: string | null,
  title = '',
): Promise<string> {
  if (!other || other === me) throw new InboxActionError('You cannot start a conversation with yourself.');
  const existing = await db.conversations
    .findOne({
      selector: {
        deal_id: dealId,
        $or: [
          { user1_id: me, user2_id: other },
          { user1_id: other, user2_id: me },
        ],
      },
    })
    .exec();
  if (existing) return existing.id;
  const id = conversationIdFor(me, other, dealId);
  const doc = prepareDocument('conversations', {
    id,
    user1_id: me,
    user2_id: other,
    deal_id: dealId,
    title: title.slice(0, 200),
    created_at: nowIso(),
  });
  // The other side's copy may have arrived meanwhile (same id): that is the one conversation.
  await db.conversations.insert(doc).catch(async (error: unknown) => {
    if (!(await db.conversations.findOne(id).exec())) throw error;
  });
  return id;
}

/** Writes a message; it shows at once as pending and is sent now or on reconnect. */
export async function sendMessage(
  db: PactaDatabase,
  conversation: ConversationDocument,
  me: string,
  body: string,
): Promise<void> {
  const problem = messageBodyProblem(body);
  if (problem) throw new InboxActionError(problem);
  const doc = prepareDocument('messages', {
    id: uuidv7(),
    conversation_id: conversation.id,
    sender_id: me,
    recipient_id: otherMember(conversation, me),
    body: body.trim(),
    seq: null,
    created_at: nowIso(),
  });
  await db.messages.insert(doc);
}

/** Sends a refused message again, under the same id (a resend lands once). */
export async function retryMessage(db: PactaDatabase, messageId: string): Promise<void> {
  const doc = await db.messages.findOne(messageId).exec();
  if (!doc) throw new InboxActionError('Message not found.');
  await doc.incrementalPatch({ sync_rejection: null });
}

/**
 * Marks the conversation read up to its newest message. The position only grows: a lower one (from a
 * late device) is ignored here, on the server, and when a conflict is merged.
 */
export async function markConversationRead(db: PactaDatabase, conversationId: string, me: string): Promise<void> {
  const doc = await db.conversations.findOne(conversationId).exec();
  if (!doc) return;
  const field = readSeqField(doc, me);
  if ((doc[field] ?? 0) >= (doc.last_seq ?? 0)) return;
  await doc.incrementalModify((c) => {
    const next = Math.max(c[field] ?? 0, c.last_seq ?? 0);
    return next === c[field] ? c : { ...c, [field]: next, sync_rejection: null };
  });
}

export async function markNotificationRead(db: PactaDatabase, notificationId: string): Promise<void> {
  const doc = await db.notifications.findOne(notificationId).exec();
  if (!doc || doc.read_at) return;
  await doc.incrementalPatch({ read_at: nowIso(), sync_rejection: null });
}

/** 'Mark all read': every unread notification of mine, in one local write. */
export async function markAllNotificationsRead(db: PactaDatabase, userId: string): Promise<void> {
  const unread = await db.notifications.find({ selector: { user_id: userId, read_at: null } }).exec();
  const at = nowIso();
  await db.notifications.bulkUpsert(unread.map((n) => ({ ...n.toMutableJSON(), read_at: at, sync_rejection: null })));
}
