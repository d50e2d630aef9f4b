import { useState } from 'react';
import { Link } from 'react-router-dom';
import { map } from 'rxjs';
import { useAuth } from '../../../lib/session/auth-context.ts';
import { useLiveQuery } from '../../../db/hooks/use-live-query.ts';
import { PageHeader } from '../../../components/page-header.tsx';
import type { GrowthDocument } from '../../../domain/collections/index.ts';
import { formatUsd } from '../../../domain/fees.ts';
import { FilterChips } from '../filter-chips.tsx';
import { PAYOUT_FILTER_LABELS, PAYOUT_FILTERS, payoutRows, type PayoutFilter } from './payout-history.ts';
import '../growth.css';

const formatDate = (iso: string) => (iso ? new Date(iso).toLocaleDateString(undefined, { dateStyle: 'medium' }) : '–');

/** /referrals/payouts: the user's referral rewards from the synced growth records (works offline). */
export function PayoutsPage() {
  const { user } = useAuth();
  const userId = user?.id ?? '';
  const [filter, setFilter] = useState<PayoutFilter>('all');
  const rewards = useLiveQuery(
    (db) =>
      db.growth
        .find({ selector: { kind: 'referral_reward' } })
        .$.pipe(map((docs) => docs.map((d) => d.toJSON() as GrowthDocument))),
    [],
  );
  const rows = payoutRows(userId, rewards.data ?? [], filter);

  return (
    <div className="container page growth-page">
      <PageHeader
        title="Referral payouts"
        lead="Rewards from your referrals: pending until the monthly payout, then paid."
      />
      <FilterChips
        label="Status"
        options={PAYOUT_FILTERS}
        labels={PAYOUT_FILTER_LABELS}
        value={filter}
        onChange={setFilter}
      />
      {rewards.error ? (
        <p className="callout callout-warning" role="alert">
          Failed to fetch rewards
        </p>
      ) : rewards.loading ? (
        <p className="muted" role="status">
          Loading rewards…
        </p>
      ) : rows.length === 0 ? (
        <p className="muted">{filter === 'all' ? 'No referral rewards yet.' : `No ${filter} rewards.`}</p>
      ) : (
        <div className="table-scroll">
          <table className="table payouts-table">
            <caption className="visually-hidden">Referral rewards</caption>
            <thead>
              <tr>
                <th scope="col">Type</th>
                <th scope="col" className="num">
                  Amount
                </th>
                <th scope="col">Status</th>
                <th scope="col">Date</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={r.id}>
                  <td className="reward-type">{r.type}</td>
                  <td className="num">{formatUsd(r.amountCents)}</td>
                  <td>
                    <span className={`badge reward-${r.status}`}>{r.status === 'paid' ? 'Paid' : 'Pending'}</span>
                  </td>
                  <td>{formatDate(r.date)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <p>
        <Link className="button button-secondary" to="/dashboard">
          Back to Dashboard
        </Link>
      </p>
    </div>
  );
}
