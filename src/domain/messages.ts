import type { ConversationDocument, MessageDocument } from './collections/index.ts';

/** The longest message body the server takes (20261123000200_conversations.sql). */
export const MESSAGE_MAX_LENGTH = 4000;

/**
 * Why a message cannot be sent, or null. "Messages are sent only if non-empty after trimming";
 * bodies up to 4,000 characters (the server says the same).
 */
export function messageBodyProblem(body: string): string | null {
  if (body.trim().length === 0) return 'Type a message before sending.';
  if (body.length > MESSAGE_MAX_LENGTH) {
    return `A message can be at most 4,000 characters (this one has ${body.length.toLocaleString('en-US')}).`;
  }
  return null;
}

type Membership = Pick<
  ConversationDocument,
  'user1_id' | 'user2_id' | 'user1_read_seq' | 'user2_read_seq' | 'last_seq'
>;

/** The other participant of a conversation. */
export function otherMember(c: Pick<ConversationDocument, 'user1_id' | 'user2_id'>, me: string): string {
  return c.user1_id === me ? c.user2_id : c.user1_id;
}

export function readSeqField(
  c: Pick<ConversationDocument, 'user1_id'>,
  me: string,
): 'user1_read_seq' | 'user2_read_seq' {
  return c.user1_id === me ? 'user1_read_seq' : 'user2_read_seq';
}

/** My highest read sequence in a conversation. */
export function myReadSeq(c: Membership, me: string): number {
  return c[readSeqField(c, me)] ?? 0;
}

/**
 * Unread messages for me, derived from the read state: every message after my read position is the
 * other member's (sending one moves my own position past it), so the count is the gap.
 */
export function unreadCount(c: Membership, me: string): number {
  return Math.max(0, (c.last_seq ?? 0) - myReadSeq(c, me));
}

/**
 * The order everyone sees: the server's sequence. Messages not yet on the server (no sequence) come
 * after, in the order this device wrote them.
 */
export function compareMessages(a: MessageDocument, b: MessageDocument): number {
  if (a.seq != null && b.seq != null) return a.seq - b.seq;
  if (a.seq != null) return -1;
  if (b.seq != null) return 1;
  return (a.created_at ?? '').localeCompare(b.created_at ?? '') || a.id.localeCompare(b.id);
}

/** The bell's badge: the count, '99+' above 99 (spec 001). */
export function badgeCount(n: number): string {
  return n > 99 ? '99+' : String(n);
}
