import './inbox.css';
import { useMemo } from 'react';
import { Link, useParams } from 'react-router-dom';
import { useAuth } from '../../lib/session/auth-context.ts';
import { useLocalData } from '../../db/hooks/use-database.ts';
import { otherMember } from '../../domain/messages.ts';
import { usePageTitle } from '../../lib/use-page-title.ts';
import { ConversationList } from './conversation-list.tsx';
import { ConversationPane } from './conversation-pane.tsx';
import { useConversations, usePeopleAndDeals } from './data/use-inbox-data.ts';
import { useBlockedPeople } from '../account/index.ts';

/**
 * /inbox and /inbox/{id}: the conversation list beside the open conversation; on a phone they are
 * two screens (the list at /inbox, the conversation at /inbox/{id} with a way back).
 */
export function InboxPage() {
  usePageTitle('Inbox');
  const { id: selectedId = null } = useParams();
  const me = useAuth().user?.id ?? null;
  const local = useLocalData();
  const conversations = useConversations(me);
  const blocked = useBlockedPeople(me);
  // "You do not see them": conversations with people the user blocked leave the list (still openable by link).
  const all = useMemo(() => conversations.data ?? [], [conversations.data]);
  const list = useMemo(() => all.filter((c) => !me || !blocked.includes(otherMember(c, me))), [all, blocked, me]);
  const { profiles, deals } = usePeopleAndDeals(
    me ? all.map((c) => otherMember(c, me)) : [],
    all.flatMap((c) => (c.deal_id ? [c.deal_id] : [])),
  );
  const selected = selectedId ? all.find((c) => c.id === selectedId) : undefined;

  const failed = local.status === 'error' || conversations.error;
  if (failed) {
    return (
      <div className="page container inbox-page">
        <h1 className="visually-hidden">Inbox</h1>
        <div className="card inbox-error" role="alert">
          <p>Failed to load inbox.</p>
          <button type="button" className="button button-primary" onClick={() => window.location.reload()}>
            Retry
          </button>
        </div>
      </div>
    );
  }
  if (!me || !local.db || conversations.loading) {
    return (
      <div className="page container inbox-page">
        <h1 className="visually-hidden">Inbox</h1>
        <p className="muted" role="status">
          Loading inbox...
        </p>
      </div>
    );
  }

  return (
    <div className={`page container inbox-page${selectedId ? ' has-selection' : ''}`}>
      <h1 className="inbox-title">Inbox</h1>
      <div className="inbox-layout card">
        <nav className="inbox-list" aria-label="Conversations">
          {list.length === 0 ? (
            <p className="inbox-empty">No conversations yet. Start a new conversation from a deal or profile.</p>
          ) : (
            <ConversationList me={me} conversations={list} profiles={profiles} deals={deals} selectedId={selectedId} />
          )}
        </nav>
        <div className="inbox-pane">
          {selected ? (
            <ConversationPane
              key={selected.id}
              me={me}
              conversation={selected}
              other={profiles.get(otherMember(selected, me))}
              deal={selected.deal_id ? deals.get(selected.deal_id) : undefined}
            />
          ) : selectedId ? (
            <div className="inbox-placeholder">
              <p>No messages found.</p>
              <Link to="/inbox" className="button button-secondary button-small">
                All conversations
              </Link>
            </div>
          ) : (
            <p className="inbox-placeholder">Select a conversation</p>
          )}
        </div>
      </div>
    </div>
  );
}
