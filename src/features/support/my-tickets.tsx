import { Link } from 'react-router-dom';
import { PageHeader } from '../../components/page-header.tsx';
import { FREE_OPEN_TICKET_LIMIT } from '../../domain/support.ts';
import { useLastActivity, useMyTickets } from './data/use-support-data.ts';
import { timeAgo } from './format-time.ts';
import { TicketBadges } from './ticket-badges.tsx';

/** The user's tickets, newest first: subject, status, priority, Pro badge and last activity. */
export function MyTickets({ userId, isPro }: { userId: string; isPro: boolean }) {
  const { tickets, loading } = useMyTickets(userId);
  const lastActivity = useLastActivity(tickets);
  const sorted = [...tickets].sort(
    (a, b) => (b.created_at ?? '').localeCompare(a.created_at ?? '') || b.id.localeCompare(a.id),
  );
  return (
    <div className="page container support">
      <PageHeader
        title="Support"
        lead="Questions about a deal, a payment or your account? Open a ticket and we answer right here."
      >
        <div className="support-header-actions">
          <Link className="button button-primary" to="/support/new">
            New Ticket
          </Link>
          <Link className="button button-ghost" to="/contact">
            Contact us
          </Link>
        </div>
      </PageHeader>
      <p className="support-plan muted">
        {isPro
          ? 'As a Pro member, your tickets are answered first.'
          : `Free plan: up to ${FREE_OPEN_TICKET_LIMIT} open tickets at a time. Pro users have no limit and are answered first.`}
      </p>
      <section aria-labelledby="your-tickets">
        <h2 id="your-tickets">Your tickets</h2>
        {loading ? (
          <p className="muted">Loading tickets...</p>
        ) : sorted.length === 0 ? (
          <div className="card support-empty">
            <p>No support tickets yet.</p>
            <Link className="button button-primary" to="/support/new">
              Create Ticket
            </Link>
          </div>
        ) : (
          <ul className="ticket-list" aria-label="Your tickets">
            {sorted.map((t) => (
              <li key={t.id}>
                <Link className="card ticket-row" to={`/support/${t.id}`}>
                  <span className="ticket-subject">{t.subject}</span>
                  <TicketBadges ticket={t} />
                  <span className="muted ticket-meta">Last activity {timeAgo(lastActivity.get(t.id))}</span>
                </Link>
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
