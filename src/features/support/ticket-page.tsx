import './support.css';
import { useState, type FormEvent } from 'react';
import { Link, useParams } from 'react-router-dom';
import { useAuth } from '../../lib/session/auth-context.ts';
import { useLocalData } from '../../db/hooks/use-database.ts';
import { PageLoading } from '../../components/page-loading.tsx';
import {
  TICKET_PRIORITIES,
  type ProfileDocument,
  type SupportTicketDocument,
  type TicketPriority,
} from '../../domain/collections/index.ts';
import { askerCanReopen, REOPEN_WINDOW_DAYS } from '../../domain/support.ts';
import { usePageTitle } from '../../lib/use-page-title.ts';
import { Asker, Avatar } from './asker.tsx';
import { replyToTicket, retryTicket, setTicketPriority, setTicketStatus } from './data/support-operations.ts';
import { useDealTitle, useProfilesById, useTicket, useTicketMessages } from './data/use-support-data.ts';
import { dateTime } from './format-time.ts';
import { LocalDataError, SupportErrorPanel } from './support-error-panel.tsx';
import { isWaitingToSync, KIND_TEXT, PRIORITY_TEXT, TicketBadges } from './ticket-badges.tsx';

type Viewer = { id: string; staff: boolean };

/** /support/{id}: the ticket, its thread, and a reply box while it is open. */
export function TicketPage() {
  const { id = '' } = useParams();
  const auth = useAuth();
  const local = useLocalData();
  const { ticket, loading } = useTicket(id);
  const profiles = useProfilesById();
  usePageTitle(ticket?.subject ?? 'Support ticket');

  if (local.status === 'error') return <LocalDataError message={local.error} onRetry={local.retry} />;
  if (!local.db || !auth.user || loading) return <PageLoading label="Loading ticket..." />;
  if (!ticket) {
    return (
      <div className="page container narrow support">
        <div className="card support-empty">
          <h1>Ticket not found.</h1>
          <p className="muted">It may not have reached this device yet; it appears here once it syncs.</p>
          <Link to="/support" className="button button-primary">
            Back to support
          </Link>
        </div>
      </div>
    );
  }
  return <TicketView ticket={ticket} viewer={{ id: auth.user.id, staff: auth.isAdmin }} profiles={profiles} />;
}

function TicketView({
  ticket,
  viewer,
  profiles,
}: {
  ticket: SupportTicketDocument;
  viewer: Viewer;
  profiles: ReadonlyMap<string, ProfileDocument>;
}) {
  const local = useLocalData();
  const db = local.db!;
  const messages = useTicketMessages(ticket.id);
  const isAsker = ticket.user_id === viewer.id;
  const asker = ticket.user_id ? profiles.get(ticket.user_id) : undefined;
  const onServer = !isWaitingToSync(ticket) && !ticket.sync_rejection;
  const canReopen = viewer.staff || (isAsker && askerCanReopen(ticket, new Date()));

  return (
    <div className="page container support ticket-page">
      <p>
        <Link to="/support">← {viewer.staff ? 'Back to the queue' : 'Back to your tickets'}</Link>
      </p>
      <header className="page-header ticket-header">
        <h1>{ticket.subject}</h1>
        <TicketBadges ticket={ticket} />
        <p className="muted ticket-meta">
          {KIND_TEXT[ticket.kind]} · opened {dateTime(ticket.created_at) || 'on this device'}
          {ticket.deal_id ? (
            <>
              {' · '}
              <TicketDeal dealId={ticket.deal_id} />
            </>
          ) : null}
        </p>
        {viewer.staff ? (
          <div className="ticket-asker">
            <Asker ticket={ticket} profile={asker} />
            {ticket.contact_email ? (
              <a
                className="button button-secondary button-small"
                href={`mailto:${ticket.contact_email}?subject=${encodeURIComponent(`Re: ${ticket.subject}`)}`}
              >
                E-mail {ticket.contact_name ?? 'the visitor'}
              </a>
            ) : null}
          </div>
        ) : null}
      </header>

      {ticket.sync_rejection ? (
        <SupportErrorPanel
          title="This ticket was not sent"
          message={ticket.sync_rejection.message}
          onRetry={() => void retryTicket(db, ticket.id)}
        />
      ) : null}

      <section aria-labelledby="thread-heading">
        <h2 id="thread-heading" className="visually-hidden">
          Messages
        </h2>
        <ol className="thread" aria-label="Messages">
          <li className="card thread-message">
            <MessageAuthor
              profile={asker}
              fallback={ticket.contact_name ?? 'Visitor'}
              isYou={isAsker}
              at={ticket.created_at}
            />
            <p className="thread-text">{ticket.message}</p>
          </li>
          {messages.map((m) => (
            <li key={m.id} className={`card thread-message${m.is_staff ? ' thread-staff' : ''}`}>
              <MessageAuthor
                profile={profiles.get(m.user_id)}
                fallback="Pacta"
                isYou={m.user_id === viewer.id}
                staff={m.is_staff}
                at={m.created_at}
              />
              <p className="thread-text">{m.message}</p>
              {m.sync_rejection ? (
                <p className="callout callout-warning reply-refused" role="status">
                  This reply did not go through: {m.sync_rejection.message}
                </p>
              ) : isWaitingToSync(m) ? (
                <span className="ticket-badge ticket-pending">Waiting to sync</span>
              ) : null}
            </li>
          ))}
        </ol>
      </section>

      {ticket.status === 'open' && !ticket.sync_rejection ? (
        <ReplyBox ticketId={ticket.id} userId={viewer.id} />
      ) : ticket.status === 'closed' ? (
        <div className="card ticket-closed">
          <p>This ticket is closed{ticket.closed_at ? ` (${dateTime(ticket.closed_at)})` : ''}.</p>
          {canReopen ? (
            <button
              type="button"
              className="button button-secondary"
              onClick={() => void setTicketStatus(db, ticket.id, 'open')}
            >
              Reopen Ticket
            </button>
          ) : isAsker ? (
            <p className="muted">
              Tickets can be reopened within {REOPEN_WINDOW_DAYS} days of closing.{' '}
              <Link to="/support/new">Open a new ticket</Link>
            </p>
          ) : null}
        </div>
      ) : null}

      {ticket.status === 'open' && onServer && (isAsker || viewer.staff) ? (
        <div className="support-actions ticket-actions">
          <button
            type="button"
            className="button button-secondary"
            onClick={() => void setTicketStatus(db, ticket.id, 'closed')}
          >
            Close Ticket
          </button>
          {viewer.staff ? <PrioritySelect ticket={ticket} /> : null}
        </div>
      ) : null}
    </div>
  );
}

function MessageAuthor({
  profile,
  fallback,
  isYou,
  staff = false,
  at,
}: {
  profile: ProfileDocument | undefined;
  fallback: string;
  isYou: boolean;
  staff?: boolean;
  at: string | undefined;
}) {
  const name = isYou ? 'You' : profile?.full_name || profile?.username || fallback;
  return (
    <p className="thread-author">
      <Avatar url={profile?.avatar_url ?? null} name={profile?.full_name || fallback} />
      <span className="thread-name">{name}</span>
      {staff ? <span className="ticket-badge ticket-staff">Pacta Staff</span> : null}
      <span className="muted thread-time">{dateTime(at)}</span>
    </p>
  );
}

/** The reply box: a blank reply is ignored; the reply is saved on the device at once, also offline. */
function ReplyBox({ ticketId, userId }: { ticketId: string; userId: string }) {
  const { db } = useLocalData();
  const [text, setText] = useState('');
  const [failure, setFailure] = useState<string | null>(null);
  async function send(event?: FormEvent) {
    event?.preventDefault();
    if (!db) return;
    try {
      setFailure(null);
      if (await replyToTicket(db, ticketId, userId, text)) setText('');
    } catch (err) {
      setFailure(err instanceof Error ? err.message : 'The reply could not be saved.');
    }
  }
  return (
    <form className="card reply-box" onSubmit={(e) => void send(e)}>
      {failure ? (
        <SupportErrorPanel title="The reply was not saved" message={failure} onRetry={() => void send()} />
      ) : null}
      <div className="field">
        <label htmlFor="reply-text">Your reply</label>
        <textarea id="reply-text" value={text} onChange={(e) => setText(e.target.value)} />
      </div>
      <div className="support-actions">
        <button type="submit" className="button button-primary">
          Send Reply
        </button>
      </div>
    </form>
  );
}

function PrioritySelect({ ticket }: { ticket: SupportTicketDocument }) {
  const { db } = useLocalData();
  return (
    <div className="field ticket-priority-field">
      <label htmlFor="ticket-priority-staff">Priority</label>
      <select
        id="ticket-priority-staff"
        value={ticket.priority}
        onChange={(e) => db && void setTicketPriority(db, ticket.id, e.target.value as TicketPriority)}
      >
        {TICKET_PRIORITIES.map((p) => (
          <option key={p} value={p}>
            {PRIORITY_TEXT[p]}
          </option>
        ))}
      </select>
    </div>
  );
}

/** "About “{deal title}”", or "About a deal" while the deal is not on this device (staff may not hold it). */
function TicketDeal({ dealId }: { dealId: string }) {
  const title = useDealTitle(dealId);
  return <Link to={`/deals/${dealId}`}>{title ? `About “${title}”` : 'About a deal'}</Link>;
}
