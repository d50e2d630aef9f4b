import '../deals.css';
import { useMemo } from 'react';
import { Link } from 'react-router-dom';
import { useAuth } from '../../../lib/session/auth-context.ts';
import { useLocalData } from '../../../db/hooks/use-database.ts';
import { PageHeader } from '../../../components/page-header.tsx';
import type { ApplicationDocument, DealDocument } from '../../../domain/collections/index.ts';
import { formatUsd } from '../../../domain/fees.ts';
import { DEAL_STATUS_TEXT } from '../data/deal-status.ts';
import { isWaitingToSync, useBrandDeals, useCreatorApplications, useDealsByIds } from '../data/use-deal-data.ts';
import { statusLabel } from '../detail/applicants-panel.tsx';
import { RejectionNotice } from '../detail/rejection-notice.tsx';
import { ShowMore, usePagedList } from '../../../components/show-more.tsx';

const DEALS_PER_PAGE = 20;

/** /my-deals: a brand's own deals (brand_id), a creator's deals applied to or won. */
export function MyDealsPage() {
  const auth = useAuth();
  const { db } = useLocalData();
  const userId = auth.user?.id ?? null;
  const isBrand = auth.role === 'brand' || auth.role === 'admin';
  const own = useBrandDeals(isBrand ? userId : null);
  const applications = useCreatorApplications(isBrand ? null : userId);
  const appliedIds = useMemo(() => applications.value.map((a) => a.deal_id), [applications.value]);
  const applied = useDealsByIds(isBrand ? [] : appliedIds);
  const byDeal = useMemo(() => new Map(applications.value.map((a) => [a.deal_id, a])), [applications.value]);

  const deals = useMemo(() => {
    const list = isBrand ? own.value : applied.value;
    return [...list].sort((a, b) => (b.created_at ?? '').localeCompare(a.created_at ?? '') || a.id.localeCompare(b.id));
  }, [isBrand, own.value, applied.value]);
  // A creator's application whose deal is no longer on this device (refused, or the deal left their scope).
  const orphans = isBrand ? [] : applications.value.filter((a) => !applied.value.some((d) => d.id === a.deal_id));
  const loading = !db || (isBrand ? own.loading : applications.loading || applied.loading);
  const page = usePagedList(DEALS_PER_PAGE);

  return (
    <div className="page container my-deals">
      <PageHeader title="My Deals" lead={isBrand ? 'The deals you published.' : 'The deals you applied to.'}>
        {isBrand ? (
          <Link to="/deals/new" className="button button-primary">
            Create Deal
          </Link>
        ) : null}
      </PageHeader>
      {loading ? (
        <p className="muted" role="status">
          Loading deals...
        </p>
      ) : deals.length === 0 && orphans.length === 0 ? (
        <p className="empty-state card">No deals found.</p>
      ) : (
        <>
          <ul className="my-deal-list">
            {deals.slice(0, page.limit).map((deal) => (
              <MyDealRow key={deal.id} deal={deal} application={byDeal.get(deal.id)} winner={!!userId && deal.winner_id === userId} showCount={isBrand} />
            ))}
            {orphans.map((a) => (
              <li key={a.id} className="card my-deal">
                <h2 className="my-deal-title">A deal you applied to</h2>
                {a.sync_rejection ? <RejectionNotice what="application" message={a.sync_rejection.message} /> : <p className="muted">This deal is no longer available.</p>}
              </li>
            ))}
          </ul>
          {deals.length > DEALS_PER_PAGE ? (
            <ShowMore shown={page.limit} total={deals.length} noun="deals" onMore={page.more} />
          ) : null}
        </>
      )}
    </div>
  );
}

function MyDealRow({ deal, application, winner, showCount }: { deal: DealDocument; application: ApplicationDocument | undefined; winner: boolean; showCount: boolean }) {
  return (
    <li className="card my-deal">
      <div className="my-deal-head">
        <h2 className="my-deal-title">{deal.title}</h2>
        <span className="deal-amount">{formatUsd(deal.amount_cents, { compact: true })}</span>
      </div>
      <p className="my-deal-description">{deal.description}</p>
      <p className="my-deal-meta">
        <span className={`badge badge-deal-${deal.status}`}>{DEAL_STATUS_TEXT[deal.status]}</span>
        {application ? <span className={`badge badge-status-${application.status}`}>Application: {statusLabel(application.status)}</span> : null}
        {winner ? <span className="badge badge-status-accepted">Won</span> : null}
        {showCount ? (
          <span className="muted my-deal-count" data-testid="applications-count">
            {deal.applications_count === 1 ? '1 application' : `${deal.applications_count} applications`}
          </span>
        ) : null}
        {isWaitingToSync(deal) || (application && isWaitingToSync(application) && !application.sync_rejection) ? <span className="badge badge-pending">Waiting to sync</span> : null}
      </p>
      {application?.sync_rejection ? <RejectionNotice what="application" message={application.sync_rejection.message} /> : null}
      <Link to={`/deals/${deal.id}`} className="button button-secondary button-small" aria-label={`View Details: ${deal.title}`}>
        View Details
      </Link>
    </li>
  );
}
