import { Link } from 'react-router-dom';
import type { ConversationDocument, DealDocument, ProfileDocument } from '../../domain/collections/index.ts';
import { otherMember, unreadCount } from '../../domain/messages.ts';
import { Avatar } from './avatar.tsx';
import { displayName, shortTime } from './inbox-format.ts';
import { useAbsentName } from './use-absent-name.ts';

type Props = {
  me: string;
  conversations: ConversationDocument[];
  profiles: Map<string, ProfileDocument>;
  deals: Map<string, DealDocument>;
  selectedId: string | null;
};

/** The conversation list: the other person, the deal's title, last message, time, unread count. */
export function ConversationList({ me, conversations, profiles, deals, selectedId }: Props) {
  const absent = useAbsentName();
  return (
    <ul className="conversation-list" aria-label="Conversations">
      {conversations.map((c) => {
        const other = profiles.get(otherMember(c, me));
        const name = displayName(other, absent);
        const dealTitle = c.deal_id ? (deals.get(c.deal_id)?.title ?? c.title) : c.title;
        const unread = unreadCount(c, me);
        return (
          <li key={c.id}>
            <Link
              to={`/inbox/${c.id}`}
              className={`conversation-item${c.id === selectedId ? ' is-selected' : ''}${unread ? ' is-unread' : ''}`}
              aria-current={c.id === selectedId ? 'page' : undefined}
            >
              <Avatar profile={other} absent={absent} />
              <span className="conversation-text">
                <span className="conversation-top">
                  <span className="conversation-name">{name}</span>
                  <time className="conversation-time" dateTime={c.last_message_at ?? c.created_at ?? undefined}>
                    {shortTime(c.last_message_at ?? c.created_at)}
                  </time>
                </span>
                {dealTitle ? <span className="conversation-deal">{dealTitle}</span> : null}
                <span className="conversation-bottom">
                  <span className="conversation-preview">{c.last_message || 'No messages yet'}</span>
                  {unread ? (
                    <span className="unread-count" aria-label={`${unread} unread`}>
                      {unread > 99 ? '99+' : unread}
                    </span>
                  ) : null}
                </span>
              </span>
            </Link>
          </li>
        );
      })}
    </ul>
  );
}
