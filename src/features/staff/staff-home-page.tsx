import { useEffect, useState, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { FormError } from '../../components/form-error.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { formatUsd } from '../../domain/fees.ts';
import { fetchStaffOverview, type StaffOverview } from './data/staff-api.ts';
import './staff.css';

const JOB_LABEL: Record<StaffOverview['jobsBehind'][number]['job'], string> = {
  auto_release: 'Automatic payout releases',
  cancelled_refund: 'Refunds of cancelled deals',
  review_publish: 'Reviews to publish',
  auto_confirm: 'Live links to confirm',
  push: 'Push notifications to send',
  referral_payout: 'Monthly referral payouts',
};

const day = (iso: string) => new Date(iso).toLocaleDateString('en-US', { month: 'short', day: 'numeric' });

/** One thing that waits on staff: how many, what it means, and where to act on it. */
function Waiting({
  title,
  count,
  testId,
  children,
}: {
  title: string;
  count: number;
  testId: string;
  children: ReactNode;
}) {
  const id = `${testId}-title`;
  return (
    <section className="card staff-tile" aria-labelledby={id} data-testid={testId}>
      <h2 id={id}>
        <span className="stat staff-count">{count}</span> {title}
      </h2>
      {children}
    </section>
  );
}

function DealLinks({ deals }: { deals: StaffOverview['disputes']['oldest'] }) {
  if (deals.length === 0) return null;
  return (
    <ul className="staff-list">
      {deals.map((d) => (
        <li key={d.dealId}>
          <Link to={`/deals/${d.dealId}`}>{d.title}</Link> <span className="muted">since {day(d.since)}</span>
        </li>
      ))}
    </ul>
  );
}

/** /admin — the staff home: what waits on Pacta staff, with counts and the way to each. */
export function StaffHomePage() {
  const [data, setData] = useState<StaffOverview | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let current = true;
    fetchStaffOverview().then(
      (d) => current && setData(d),
      (err: unknown) => current && setError(err instanceof Error ? err.message : 'Failed to load.'),
    );
    return () => {
      current = false;
    };
  }, []);

  return (
    <div className="page container staff-home">
      <PageHeader title="Staff" lead="What waits on Pacta staff, oldest first." />
      <FormError message={error} />
      {data ? (
        <div className="staff-tiles">
          <Waiting title="Open tickets" count={data.tickets.open} testId="staff-tickets">
            <p className="muted">
              {data.tickets.highPriority} high priority
              {data.tickets.oldestOpenAt ? ` · oldest since ${day(data.tickets.oldestOpenAt)}` : ''}
            </p>
            <Link to="/support">Open the support queue</Link>
          </Waiting>
          <Waiting title="Open disputes" count={data.disputes.count} testId="staff-disputes">
            <p className="muted">Settle each from its deal&apos;s payment panel.</p>
            <DealLinks deals={data.disputes.oldest} />
          </Waiting>
          <Waiting title="Payouts waiting on release" count={data.awaitingRelease.count} testId="staff-release">
            <p className="muted">{formatUsd(data.awaitingRelease.heldCents)} held for completed deals.</p>
            <DealLinks deals={data.awaitingRelease.oldest} />
            <Link to="/admin/ledger">Open the ledger</Link>
          </Waiting>
          <Waiting title="Jobs behind" count={data.jobsBehind.length} testId="staff-jobs">
            {data.jobsBehind.length === 0 ? (
              <p className="muted">Every scheduled job is up to date.</p>
            ) : (
              <ul className="staff-list">
                {data.jobsBehind.map((j) => (
                  <li key={j.job}>
                    {JOB_LABEL[j.job]}: {j.dueItems} due <span className="muted">since {day(j.oldestDueAt)}</span>
                  </li>
                ))}
              </ul>
            )}
          </Waiting>
        </div>
      ) : null}
    </div>
  );
}
