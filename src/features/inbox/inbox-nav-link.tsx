import { Link } from 'react-router-dom';
import { InboxIcon } from '../../components/icons.tsx';
import { unreadCount } from '../../domain/messages.ts';
import { useAuth } from '../../lib/session/auth-context.ts';
import { useConversations } from './data/use-inbox-data.ts';

/** The inbox icon: its dot shows only when a conversation has unread messages (docs/design.md "inbox dot"). */
export function InboxNavLink() {
  const me = useAuth().user?.id ?? null;
  const conversations = useConversations(me);
  const unread = me ? (conversations.data ?? []).filter((c) => unreadCount(c, me) > 0).length : 0;
  return (
    <Link
      className="icon-button"
      to="/inbox"
      aria-label={unread ? `Inbox (${unread} unread ${unread === 1 ? 'conversation' : 'conversations'})` : 'Inbox'}
    >
      <InboxIcon />
      {unread ? <span className="unread-dot" aria-hidden="true" /> : null}
    </Link>
  );
}
