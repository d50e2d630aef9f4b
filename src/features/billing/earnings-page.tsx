import { useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import { FormError } from '../../components/form-error.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { formatRate, formatUsd } from '../../domain/fees.ts';
import { moneyApi, type Earning, type Earnings } from './data/money-api.ts';
import { EARNING_STATUS_LABEL, earningsCsv } from './earnings-csv.ts';
import { formatDate } from './format.ts';
import { LedgerTable, type LedgerColumn } from './ledger-table.tsx';
import { PayoutSetup } from './payout-setup.tsx';
import { useOnline } from './use-online.ts';

/** When the money came or will come, in the payment panel's words: the future tense until it happened. */
function whenPaid(e: Earning): string {
  switch (e.status) {
    case 'paid':
      return e.paidAt ? `Paid on ${formatDate(e.paidAt)}` : 'Paid';
    case 'held':
      return e.releaseAt ? `On hold until ${formatDate(e.releaseAt)}` : 'Released once the work is done';
    case 'disputed':
      return 'On hold until Pacta staff resolve the dispute';
    case 'refunded':
      return 'Not paid: refunded to the brand';
  }
}

const COLUMNS: LedgerColumn<Earning>[] = [
  { header: 'Deal', cell: (e) => <Link to={`/deals/${e.dealId}`}>{e.dealTitle}</Link> },
  { header: 'Brand', cell: (e) => e.brandName ?? '—' },
  { header: 'Status', cell: (e) => EARNING_STATUS_LABEL[e.status] },
  { header: 'Amount', cell: (e) => formatUsd(e.amountCents), className: 'ledger-amount' },
  {
    header: 'Commission',
    cell: (e) =>
      e.commissionBp === null
        ? formatUsd(e.commissionCents)
        : `${formatUsd(e.commissionCents)} (${formatRate(e.commissionBp)})`,
    className: 'ledger-amount',
  },
  { header: 'Payout', cell: (e) => formatUsd(e.payoutCents), className: 'ledger-amount', testId: 'earning-payout' },
  { header: 'When', cell: whenPaid, testId: 'earning-when' },
];

/** Hands the CSV to the browser as a file download. */
function downloadCsv(earnings: Earning[]): void {
  const url = URL.createObjectURL(new Blob([earningsCsv(earnings)], { type: 'text/csv;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = `pacta-earnings-${new Date().toISOString().slice(0, 10)}.csv`;
  link.click();
  URL.revokeObjectURL(url);
}

/** /earnings — what the creator's deals paid them and what escrow still holds for them, from the server's ledger. */
export function EarningsPage() {
  const online = useOnline();
  const [data, setData] = useState<Earnings | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (!online) return;
    let current = true;
    moneyApi.earnings().then(
      (d) => current && setData(d),
      (err: unknown) => current && setError(err instanceof Error ? err.message : 'Failed to load your earnings.'),
    );
    return () => {
      current = false;
    };
  }, [online]);

  return (
    <div className="page container earnings-page">
      <PageHeader title="Earnings" lead="What your deals paid you, and what escrow holds for you until it is released.">
        {data?.earnings.length ? (
          <button type="button" className="button button-secondary" onClick={() => downloadCsv(data.earnings)}>
            Download CSV
          </button>
        ) : null}
      </PageHeader>
      {!online ? <p className="muted">Your earnings need a connection.</p> : null}
      <FormError message={error} />
      {data ? (
        <>
          <dl className="earnings-totals">
            <div className="card">
              <dt>Paid to you</dt>
              <dd className="stat" data-testid="total-paid">
                {formatUsd(data.totals.paidCents)}
              </dd>
            </div>
            <div className="card">
              <dt>Held in escrow</dt>
              <dd className="stat" data-testid="total-held">
                {formatUsd(data.totals.heldCents)}
              </dd>
            </div>
            <div className="card">
              <dt>Commission paid</dt>
              <dd className="stat">{formatUsd(data.totals.commissionCents)}</dd>
            </div>
          </dl>
          <section className="card detail-section" aria-labelledby="earnings-title">
            <h2 id="earnings-title">Per deal</h2>
            {data.earnings.length === 0 ? (
              <p className="empty-state">
                Nothing yet: a deal appears here once its brand has funded it. <Link to="/deals">Browse deals</Link>
              </p>
            ) : (
              <LedgerTable columns={COLUMNS} rows={data.earnings} rowKey={(e) => e.dealId} />
            )}
          </section>
        </>
      ) : null}
      <section className="card detail-section" aria-labelledby="payout-account-title">
        <h2 id="payout-account-title">Payout account</h2>
        <PayoutSetup returnTo="/earnings" />
      </section>
    </div>
  );
}
