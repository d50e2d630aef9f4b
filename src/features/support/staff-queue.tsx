import { useMemo, useState } from 'react';
import { Link } from 'react-router-dom';
import { PageHeader } from '../../components/page-header.tsx';
import { TICKET_KINDS, TICKET_PRIORITIES, type SupportTicketDocument } from '../../domain/collections/index.ts';
import {
  averageFirstResponseMinutes,
  compareQueue,
  countsByStatus,
  RESPONSE_TIME_WINDOW_DAYS,
} from '../../domain/support.ts';
import { Asker } from './asker.tsx';
import { useAllTickets, useProfilesById } from './data/use-support-data.ts';
import { timeAgo } from './format-time.ts';
import { KIND_TEXT, PRIORITY_TEXT, TicketBadges } from './ticket-badges.tsx';

type Filters = {
  status: 'open' | 'closed' | 'all';
  priority: 'all' | SupportTicketDocument['priority'];
  pro: 'all' | 'pro' | 'free';
  kind: 'all' | SupportTicketDocument['kind'];
};
const DEFAULT_FILTERS: Filters = { status: 'open', priority: 'all', pro: 'all', kind: 'all' };

function matchesFilters(t: SupportTicketDocument, f: Filters): boolean {
  return (
    (f.status === 'all' || t.status === f.status) &&
    (f.priority === 'all' || t.priority === f.priority) &&
    (f.pro === 'all' || t.is_pro === (f.pro === 'pro')) &&
    (f.kind === 'all' || t.kind === f.kind)
  );
}

/**
 * The staff queue: every ticket on the desk, open ones first by priority (high first) then age
 * (oldest first), with filters, each asker's username and avatar, the counts by status and the
 * average first-response time. It reads the replicated tickets, so it updates live.
 */
export function StaffQueue() {
  const { tickets, loading } = useAllTickets(true);
  const profiles = useProfilesById();
  const [filters, setFilters] = useState<Filters>(DEFAULT_FILTERS);
  const counts = useMemo(() => countsByStatus(tickets), [tickets]);
  // Recomputed with the tickets: a staff reply arriving updates the figure.
  const average = useMemo(() => averageFirstResponseMinutes(tickets, new Date()), [tickets]);
  const shown = useMemo(() => tickets.filter((t) => matchesFilters(t, filters)).sort(compareQueue), [tickets, filters]);
  const set = <K extends keyof Filters>(key: K, value: Filters[K]) => setFilters((f) => ({ ...f, [key]: value }));

  return (
    <div className="page container support">
      <PageHeader
        title="Support queue"
        lead="Open tickets, highest priority first, then the oldest. Pro members' tickets come in as high priority."
      />
      <dl className="support-stats" aria-label="Support figures">
        <div className="card">
          <dt>Open</dt>
          <dd data-testid="count-open">{counts.open}</dd>
        </div>
        <div className="card">
          <dt>Closed</dt>
          <dd data-testid="count-closed">{counts.closed}</dd>
        </div>
        <div className="card">
          <dt>Avg. first response</dt>
          <dd data-testid="average-response">{average === null ? '—' : `${average} min`}</dd>
          <dd className="muted support-stat-note">Tickets opened in the last {RESPONSE_TIME_WINDOW_DAYS} days</dd>
        </div>
      </dl>

      <form className="card support-filters" aria-label="Filter tickets" onSubmit={(e) => e.preventDefault()}>
        <div className="field">
          <label htmlFor="filter-status">Status</label>
          <select
            id="filter-status"
            value={filters.status}
            onChange={(e) => set('status', e.target.value as Filters['status'])}
          >
            <option value="open">Open</option>
            <option value="closed">Closed</option>
            <option value="all">All</option>
          </select>
        </div>
        <div className="field">
          <label htmlFor="filter-priority">Priority</label>
          <select
            id="filter-priority"
            value={filters.priority}
            onChange={(e) => set('priority', e.target.value as Filters['priority'])}
          >
            <option value="all">All</option>
            {TICKET_PRIORITIES.map((p) => (
              <option key={p} value={p}>
                {PRIORITY_TEXT[p].replace(' priority', '')}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="filter-pro">Pro</label>
          <select id="filter-pro" value={filters.pro} onChange={(e) => set('pro', e.target.value as Filters['pro'])}>
            <option value="all">All</option>
            <option value="pro">Pro only</option>
            <option value="free">Not Pro</option>
          </select>
        </div>
        <div className="field">
          <label htmlFor="filter-kind">Kind</label>
          <select
            id="filter-kind"
            value={filters.kind}
            onChange={(e) => set('kind', e.target.value as Filters['kind'])}
          >
            <option value="all">All</option>
            {TICKET_KINDS.map((k) => (
              <option key={k} value={k}>
                {KIND_TEXT[k]}
              </option>
            ))}
          </select>
        </div>
      </form>

      <section aria-labelledby="queue-heading">
        <h2 id="queue-heading">
          Tickets <span className="muted support-count">({shown.length})</span>
        </h2>
        {loading ? (
          <p className="muted">Loading tickets...</p>
        ) : shown.length === 0 ? (
          <div className="card support-empty">
            <p>No tickets match these filters.</p>
          </div>
        ) : (
          <ol className="ticket-list" aria-label="Support queue">
            {shown.map((t) => (
              <li key={t.id}>
                <Link className="card ticket-row queue-row" to={`/support/${t.id}`}>
                  <Asker ticket={t} profile={t.user_id ? profiles.get(t.user_id) : undefined} />
                  <span className="ticket-subject">{t.subject}</span>
                  <TicketBadges ticket={t} />
                  <span className="muted ticket-meta">
                    Opened {timeAgo(t.created_at)}
                    {t.first_response_at ? '' : ' · awaiting first response'}
                  </span>
                </Link>
              </li>
            ))}
          </ol>
        )}
      </section>
    </div>
  );
}
