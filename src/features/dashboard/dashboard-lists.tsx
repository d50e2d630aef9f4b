import { Link } from 'react-router-dom';
import type { DealDocument } from '../../domain/collections/index.ts';
import { useSyncStatus } from '../../db/hooks/use-sync-status.ts';
import { formatUsd } from '../../domain/fees.ts';
import { DASHBOARD_LIST_SIZE as SHOWN, type ApplicationWithDeal } from './data/dashboard-queries.ts';
import type { MessagePreview } from './data/use-dashboard-data.ts';

const STATUS_LABELS: Record<string, string> = {
  open: 'Open',
  in_progress: 'In progress',
  completed: 'Completed',
  cancelled: 'Cancelled',
  pending: 'Pending',
  accepted: 'Accepted',
  rejected: 'Rejected',
  withdrawn: 'Withdrawn',
};

function More({ total, to, label }: { total: number; to: string; label: string }) {
  if (total <= SHOWN) return null;
  return (
    <p className="muted">
      Showing {SHOWN} of {total}. <Link to={to}>{label}</Link>
    </p>
  );
}

/** The newest deals (at most SHOWN, read that way) out of `total`. */
export function DealList({ title, deals, total }: { title: string; deals: DealDocument[]; total: number }) {
  return (
    <section className="dashboard-section" aria-labelledby="deals-title">
      <h2 id="deals-title">{title}</h2>
      {deals.length === 0 ? (
        <div className="card empty-state">
          <p>You have not created any deals yet.</p>
          <Link className="button button-primary" to="/deals/new">
            Create Your First Deal
          </Link>
        </div>
      ) : (
        <>
          <ul className="item-list">
            {deals.map((deal) => (
              <li key={deal.id}>
                <Link className="card item-card" to={`/deals/${deal.id}`}>
                  <span className="item-title">{deal.title}</span>
                  <span className="item-meta">
                    {formatUsd(deal.amount_cents)} ·{' '}
                    <span className={`status status-${deal.status}`}>{STATUS_LABELS[deal.status]}</span> ·{' '}
                    {deal.applications_count === 1 ? '1 application' : `${deal.applications_count} applications`}
                  </span>
                </Link>
              </li>
            ))}
          </ul>
          <More total={total} to="/my-deals" label="See all deals" />
        </>
      )}
    </section>
  );
}

/** The newest applications (at most SHOWN, read that way) out of `total`. */
export function ApplicationList({
  title,
  items,
  total,
}: {
  title: string;
  items: ApplicationWithDeal[];
  total: number;
}) {
  // An application's deal reaches a new device with the deals' first sync: until then it is not gone.
  const dealsSyncing = useSyncStatus().status?.initialSync.complete === false;
  return (
    <section className="dashboard-section" aria-labelledby="applications-title">
      <h2 id="applications-title">{title}</h2>
      {items.length === 0 ? (
        <div className="card empty-state">
          <p>You have not applied to any deals yet.</p>
          <Link className="button button-primary" to="/deals">
            Browse Deals
          </Link>
        </div>
      ) : (
        <>
          <ul className="item-list">
            {items.map(({ application, deal }) => (
              <li key={application.id}>
                <Link
                  className={deal ? 'card item-card' : 'card item-card item-card-no-deal'}
                  to={`/deals/${application.deal_id}`}
                >
                  <span className="item-title">
                    {deal?.title ?? (dealsSyncing ? 'Deal details still syncing' : 'Deal no longer listed')}
                  </span>
                  <span className="item-meta">
                    {deal ? `${formatUsd(deal.amount_cents)} · ` : ''}
                    <span className={`status status-${application.status}`}>{STATUS_LABELS[application.status]}</span>
                  </span>
                </Link>
              </li>
            ))}
          </ul>
          <More total={total} to="/my-deals" label="See all applications" />
        </>
      )}
    </section>
  );
}

export function MessageList({ userId, items }: { userId: string; items: MessagePreview[] }) {
  return (
    <section className="dashboard-section" aria-labelledby="messages-title">
      <h2 id="messages-title">Recent messages</h2>
      {items.length === 0 ? (
        <div className="card empty-state">
          <p>No messages yet.</p>
          <Link to="/inbox">Open your inbox</Link>
        </div>
      ) : (
        <ul className="item-list">
          {items.map(({ message, counterpart }) => (
            <li key={message.id}>
              <Link className="card item-card" to={`/inbox/${message.conversation_id}`}>
                <span className="item-title">
                  {message.sender_id === userId ? `To ${counterpart}` : `From ${counterpart}`}
                </span>
                <span className="item-meta message-body">{message.body}</span>
              </Link>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
