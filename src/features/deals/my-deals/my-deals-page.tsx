import '../deals.css';
import { useMemo, useState } from 'react';
import { Link } from 'react-router-dom';
import { useAuth } from '../../../lib/session/auth-context.ts';
import { useLocalData } from '../../../db/hooks/use-database.ts';
import { PageHeader } from '../../../components/page-header.tsx';
import type { ApplicationDocument, DealDocument } from '../../../domain/collections/index.ts';
import { formatUsd } from '../../../domain/fees.ts';
import { DEAL_STATUS_TEXT } from '../data/deal-status.ts';
import type { ApplicationWithDeal } from '../data/deal-queries.ts';
import {
  isWaitingToSync,
  useCreatorApplicationsPage,
  useCreatorDealCounts,
  useDealCountsByStatus,
  useDealsCount,
  useDealsPage,
} from '../data/use-deal-data.ts';
import { statusLabel } from '../detail/applicant-facts.ts';
import { RejectionNotice } from '../detail/rejection-notice.tsx';
import { ShowMore, usePagedList } from '../../../components/show-more.tsx';

const DEALS_PER_PAGE = 20;

type StatusFilter = 'all' | DealDocument['status'];
const STATUS_FILTERS: StatusFilter[] = ['all', 'open', 'in_progress', 'completed', 'cancelled'];

/** /my-deals: a brand's own deals (brand_id), a creator's deals applied to or won. */
export function MyDealsPage() {
  const auth = useAuth();
  const userId = auth.user?.id ?? null;
  const isBrand = auth.role === 'brand' || auth.role === 'admin';
  return isBrand ? <BrandDeals brandId={userId} /> : <CreatorDeals creatorId={userId} />;
}

/**
 * A brand may hold thousands of deals: the page reads the newest page of the chosen status through
 * the (brand, status, newest first) index, and the chips' figures are index counts. Those are asked
 * for once the page is read: an IndexedDB count walks its whole range, and the list would wait
 * behind it.
 */
function BrandDeals({ brandId }: { brandId: string | null }) {
  const { db } = useLocalData();
  const page = usePagedList(DEALS_PER_PAGE);
  // One long list is hard to work through: filter by status (the counts say where the work is).
  const [status, setStatus] = useState<StatusFilter>('all');
  const selector = brandId ? (status === 'all' ? { brand_id: brandId } : { brand_id: brandId, status }) : null;
  const cards = useDealsPage(selector, page.limit);
  const listRead = cards.data !== undefined;
  const total = useDealsCount(brandId && listRead ? { brand_id: brandId } : null);
  const byStatus = useDealCountsByStatus(listRead ? brandId : null);
  const rows = useMemo(() => (cards.data ?? []).map((deal) => ({ deal })), [cards.data]);
  const counts = useMemo(
    () => (total.data === undefined || !byStatus.data ? undefined : { ...byStatus.data, total: total.data }),
    [total.data, byStatus.data],
  );
  return (
    <MyDealsView
      isBrand
      loading={!db || !listRead}
      counts={counts}
      status={status}
      onStatus={setStatus}
      rows={rows}
      page={page}
      userId={brandId}
    />
  );
}

/**
 * A creator may have applied to thousands of deals: the page reads the newest page of its own
 * applications (all, or those whose deal is in the chosen status: the server keeps the deal's
 * status on each application) through the (creator, deal status, newest first) index, and those
 * deals by id; the chips' figures are index counts, asked for once the page is read.
 */
function CreatorDeals({ creatorId }: { creatorId: string | null }) {
  const { db } = useLocalData();
  const page = usePagedList(DEALS_PER_PAGE);
  const [status, setStatus] = useState<StatusFilter>('all');
  const applications = useCreatorApplicationsPage(creatorId, status === 'all' ? null : status, page.limit);
  const listRead = applications.data !== undefined;
  const counts = useCreatorDealCounts(listRead ? creatorId : null);
  return (
    <MyDealsView
      isBrand={false}
      loading={!db || !listRead}
      counts={counts.data}
      status={status}
      onStatus={setStatus}
      rows={applications.data ?? NO_ROWS}
      page={page}
      userId={creatorId}
    />
  );
}

/** A chip's figure while the counts are read. */
const COUNTING = '…';
const NO_ROWS: ApplicationWithDeal[] = [];

/**
 * A row of the list: a deal, with the creator's application to it on the creator's list. There an
 * application whose deal is not on this device (refused, or the deal left the creator's scope) is a
 * row of its own.
 */
type MyDealRowData = { deal: DealDocument | null; application?: ApplicationDocument };

function MyDealsView(props: {
  isBrand: boolean;
  /** The list's first page is not read yet. */
  loading: boolean;
  /** Rows per status, and every row of the list (the All chip); undefined while they are counted. */
  counts: (Record<DealDocument['status'], number> & { total: number }) | undefined;
  status: StatusFilter;
  onStatus(status: StatusFilter): void;
  /** The rows on screen (a page). */
  rows: readonly MyDealRowData[];
  page: ReturnType<typeof usePagedList>;
  userId: string | null;
}) {
  const { isBrand, loading, counts, status, onStatus, rows, page, userId } = props;
  /** How many rows the chosen status has, once counted. */
  const shownTotal = counts ? (status === 'all' ? counts.total : counts[status]) : undefined;
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
      ) : status === 'all' && rows.length === 0 ? (
        <p className="empty-state card">No deals found.</p>
      ) : (
        <>
          <div className="status-filter" role="group" aria-label="Show deals by status" aria-busy={!counts}>
            {STATUS_FILTERS.map((f) => (
              <button key={f} type="button" className="chip" aria-pressed={status === f} onClick={() => onStatus(f)}>
                {f === 'all' ? 'All' : DEAL_STATUS_TEXT[f]}{' '}
                <span className="status-filter-count">
                  {counts ? (f === 'all' ? counts.total : counts[f]) : COUNTING}
                </span>
              </button>
            ))}
          </div>
          {rows.length === 0 ? (
            <p className="empty-state card">
              No {DEAL_STATUS_TEXT[status as DealDocument['status']]?.toLowerCase()} deals.
            </p>
          ) : null}
          <ul className="my-deal-list">
            {rows.map(({ deal, application }) =>
              deal ? (
                <MyDealRow
                  key={deal.id}
                  deal={deal}
                  application={application}
                  winner={!!userId && deal.winner_id === userId}
                  showCount={isBrand}
                />
              ) : application ? (
                <li key={application.id} className="card my-deal">
                  <h2 className="my-deal-title">A deal you applied to</h2>
                  {application.sync_rejection ? (
                    <RejectionNotice what="application" message={application.sync_rejection.message} />
                  ) : (
                    <p className="muted">This deal is no longer available.</p>
                  )}
                </li>
              ) : null,
            )}
          </ul>
          {shownTotal !== undefined && shownTotal > DEALS_PER_PAGE ? (
            <ShowMore shown={page.limit} total={shownTotal} noun="deals" onMore={page.more} />
          ) : null}
        </>
      )}
    </div>
  );
}

function MyDealRow({
  deal,
  application,
  winner,
  showCount,
}: {
  deal: DealDocument;
  application: ApplicationDocument | undefined;
  winner: boolean;
  showCount: boolean;
}) {
  return (
    <li className="card my-deal">
      <div className="my-deal-head">
        <h2 className="my-deal-title">{deal.title}</h2>
        <span className="deal-amount">{formatUsd(deal.amount_cents, { compact: true })}</span>
      </div>
      <p className="my-deal-description">{deal.description}</p>
      <p className="my-deal-meta">
        <span className={`badge badge-deal-${deal.status}`}>{DEAL_STATUS_TEXT[deal.status]}</span>
        {application ? (
          <span className={`badge badge-status-${application.status}`}>
            Application: {statusLabel(application.status)}
          </span>
        ) : null}
        {winner ? <span className="badge badge-status-accepted">Won</span> : null}
        {showCount ? (
          <span className="muted my-deal-count" data-testid="applications-count">
            {deal.applications_count === 1 ? '1 application' : `${deal.applications_count} applications`}
          </span>
        ) : null}
        {isWaitingToSync(deal) || (application && isWaitingToSync(application) && !application.sync_rejection) ? (
          <span className="badge badge-pending">Waiting to sync</span>
        ) : null}
      </p>
      {application?.sync_rejection ? (
        <RejectionNotice what="application" message={application.sync_rejection.message} />
      ) : null}
      <Link
        to={`/deals/${deal.id}`}
        className="button button-secondary button-small"
        aria-label={`View Details: ${deal.title}`}
      >
        View Details
      </Link>
    </li>
  );
}
