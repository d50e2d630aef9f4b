import { map } from 'rxjs';
import { useLiveQuery, type LiveResult } from '../../../db/hooks/use-live-query.ts';
import type {
  ConversationDocument,
  DealDocument,
  MessageDocument,
  NotificationDocument,
  ProfileDocument,
} from '../../../domain/collections/index.ts';
import { compareMessages } from '../../../domain/messages.ts';

/** Newest activity first; a conversation with no message yet by when it was started. */
function byActivity(a: ConversationDocument, b: ConversationDocument): number {
  const at = (c: ConversationDocument) => c.last_message_at ?? c.created_at ?? '';
  return at(b).localeCompare(at(a)) || a.id.localeCompare(b.id);
}

/** My conversations, live (the server only gives each user the ones they take part in). */
export function useConversations(me: string | null): LiveResult<ConversationDocument[]> {
  return useLiveQuery(
    (db) =>
      me
        ? db.conversations
            .find({ selector: { $or: [{ user1_id: me }, { user2_id: me }] } })
            .$.pipe(map((docs) => docs.map((d) => d.toJSON() as ConversationDocument).sort(byActivity)))
        : null,
    [me],
  );
}

/** A conversation's messages in the order everyone sees: the server's, then this device's pending ones. */
export function useMessages(conversationId: string | null): LiveResult<MessageDocument[]> {
  return useLiveQuery(
    (db) =>
      conversationId
        ? db.messages
            .find({ selector: { conversation_id: conversationId } })
            .$.pipe(map((docs) => docs.map((d) => d.toJSON() as MessageDocument).sort(compareMessages)))
        : null,
    [conversationId],
  );
}

/** The profiles and deals a list of conversations mentions, by id (what this device holds). */
export function usePeopleAndDeals(
  profileIds: string[],
  dealIds: string[],
): { profiles: Map<string, ProfileDocument>; deals: Map<string, DealDocument> } {
  const profileKey = [...new Set(profileIds)].sort().join(',');
  const dealKey = [...new Set(dealIds)].sort().join(',');
  const profiles = useLiveQuery(
    (db) =>
      profileKey
        ? db.profiles
            .findByIds(profileKey.split(','))
            .$.pipe(map((m) => new Map([...m].map(([id, d]) => [id, d.toJSON() as ProfileDocument]))))
        : null,
    [profileKey],
  );
  const deals = useLiveQuery(
    (db) =>
      dealKey
        ? db.deals
            .findByIds(dealKey.split(','))
            .$.pipe(map((m) => new Map([...m].map(([id, d]) => [id, d.toJSON() as DealDocument]))))
        : null,
    [dealKey],
  );
  return { profiles: profiles.data ?? new Map(), deals: deals.data ?? new Map() };
}

/** My notifications, newest first, live. */
export function useNotifications(me: string | null): LiveResult<NotificationDocument[]> {
  return useLiveQuery(
    (db) =>
      me
        ? db.notifications
            .find({ selector: { user_id: me } })
            .$.pipe(
              map((docs) =>
                docs
                  .map((d) => d.toJSON() as NotificationDocument)
                  .sort((a, b) => (b.created_at ?? '').localeCompare(a.created_at ?? '') || b.id.localeCompare(a.id)),
              ),
            )
        : null,
    [me],
  );
}
