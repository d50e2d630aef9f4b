import { useEffect, useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { FormError } from '../../components/form-error.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { formatUsd } from '../../domain/fees.ts';
import { usePageTitle } from '../../lib/use-page-title.ts';
import { moneyApi, type DealBalance, type LedgerEntry } from './data/money-api.ts';
import { LedgerTable, type LedgerColumn } from './ledger-table.tsx';
import { useOnline } from './use-online.ts';

const KIND_LABEL: Record<LedgerEntry['kind'], string> = {
  charge: 'Charge',
  fee: 'Service fee',
  commission: 'Commission',
  transfer: 'Transfer to creator',
  refund: 'Refund to brand',
  subscription: 'Pro subscription',
};

const ENTRY_COLUMNS: LedgerColumn<LedgerEntry>[] = [
  {
    header: 'When',
    cell: (e) => new Date(e.createdAt).toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short' }),
  },
  { header: 'Kind', cell: (e) => KIND_LABEL[e.kind] },
  { header: 'Amount', cell: (e) => formatUsd(e.amountCents), className: 'ledger-amount' },
  {
    header: 'Deal',
    cell: (e) =>
      e.dealId ? <Link to={`/admin/ledger?deal=${e.dealId}`}>{e.dealTitle ?? e.dealId.slice(0, 8)}</Link> : '—',
  },
  { header: 'Who', cell: (e) => e.userName ?? '—' },
  { header: 'Note', cell: (e) => e.memo },
];

/** A deal's balance row is named by the title its movements carry. */
const balanceColumns = (entries: LedgerEntry[]): LedgerColumn<DealBalance>[] => [
  {
    header: 'Deal',
    cell: (b) => (
      <Link to={`/deals/${b.dealId}`}>
        {entries.find((e) => e.dealId === b.dealId)?.dealTitle ?? b.dealId.slice(0, 8)}
      </Link>
    ),
  },
  { header: 'Charged', cell: (b) => formatUsd(b.chargeCents), className: 'ledger-amount' },
  { header: 'Refunded', cell: (b) => formatUsd(b.refundCents), className: 'ledger-amount' },
  { header: 'Fees', cell: (b) => formatUsd(b.feeCents), className: 'ledger-amount' },
  { header: 'Commission', cell: (b) => formatUsd(b.commissionCents), className: 'ledger-amount' },
  { header: 'Transferred', cell: (b) => formatUsd(b.transferCents), className: 'ledger-amount' },
  { header: 'Held', cell: (b) => formatUsd(b.heldCents), className: 'ledger-amount', testId: 'held' },
];

/** /admin/ledger — every money movement (staff only; the server refuses anyone else). */
export function AdminLedgerPage() {
  usePageTitle('Ledger');
  const online = useOnline();
  const [params] = useSearchParams();
  const dealId = params.get('deal') ?? undefined;
  const [data, setData] = useState<{ entries: LedgerEntry[]; balances: DealBalance[] } | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (!online) return;
    let current = true;
    moneyApi.ledger(dealId).then(
      (d) => current && setData(d),
      (err: unknown) => current && setError(err instanceof Error ? err.message : 'Failed to load the ledger.'),
    );
    return () => {
      current = false;
    };
  }, [dealId, online]);

  return (
    <div className="page container">
      <PageHeader title="Ledger" lead={dealId ? 'Money movements of one deal.' : 'Every money movement, newest first.'}>
        {dealId ? (
          <Link to="/admin/ledger" className="button button-ghost">
            All deals
          </Link>
        ) : null}
      </PageHeader>
      {!online ? <p className="muted">The ledger needs a connection.</p> : null}
      <FormError message={error} />
      {data ? (
        <>
          {data.balances.length ? (
            <section className="card detail-section" aria-labelledby="balances-title">
              <h2 id="balances-title">Balances per deal</h2>
              <LedgerTable columns={balanceColumns(data.entries)} rows={data.balances} rowKey={(b) => b.dealId} />
            </section>
          ) : null}
          <section className="card detail-section" aria-labelledby="entries-title">
            <h2 id="entries-title">Movements</h2>
            {data.entries.length === 0 ? (
              <p className="empty-state">No money has moved yet.</p>
            ) : (
              <LedgerTable columns={ENTRY_COLUMNS} rows={data.entries} rowKey={(e) => e.id} />
            )}
          </section>
        </>
      ) : null}
    </div>
  );
}
