import { useEffect, useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { PageHeader } from '../../components/page-header.tsx';
import { formatUsd } from '../../domain/fees.ts';
import { usePageTitle } from '../../lib/use-page-title.ts';
import { moneyApi, type DealBalance, type LedgerEntry } from './money-api.ts';
import { useOnline } from './use-online.ts';

const KIND_LABEL: Record<LedgerEntry['kind'], string> = {
  charge: 'Charge',
  fee: 'Service fee',
  commission: 'Commission',
  transfer: 'Transfer to creator',
  refund: 'Refund to brand',
  subscription: 'Pro subscription',
};

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
      {error ? (
        <p className="form-error" role="alert">
          {error}
        </p>
      ) : null}
      {data ? (
        <>
          {data.balances.length ? (
            <section className="card detail-section" aria-labelledby="balances-title">
              <h2 id="balances-title">Balances per deal</h2>
              <div className="table-scroll">
                <table className="ledger-table ledger-table-stacks">
                  <thead>
                    <tr>
                      <th scope="col">Deal</th>
                      <th scope="col">Charged</th>
                      <th scope="col">Refunded</th>
                      <th scope="col">Fees</th>
                      <th scope="col">Commission</th>
                      <th scope="col">Transferred</th>
                      <th scope="col">Held</th>
                    </tr>
                  </thead>
                  <tbody>
                    {data.balances.map((b) => (
                      <tr key={b.dealId}>
                        <td data-label="Deal">
                          <Link to={`/deals/${b.dealId}`}>{data.entries.find((e) => e.dealId === b.dealId)?.dealTitle ?? b.dealId.slice(0, 8)}</Link>
                        </td>
                        <td data-label="Charged">{formatUsd(b.chargeCents)}</td>
                        <td data-label="Refunded">{formatUsd(b.refundCents)}</td>
                        <td data-label="Fees">{formatUsd(b.feeCents)}</td>
                        <td data-label="Commission">{formatUsd(b.commissionCents)}</td>
                        <td data-label="Transferred">{formatUsd(b.transferCents)}</td>
                        <td data-label="Held" data-testid="held">{formatUsd(b.heldCents)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            </section>
          ) : null}
          <section className="card detail-section" aria-labelledby="entries-title">
            <h2 id="entries-title">Movements</h2>
            {data.entries.length === 0 ? (
              <p className="empty-state">No money has moved yet.</p>
            ) : (
              <div className="table-scroll">
                <table className="ledger-table ledger-table-stacks">
                  <thead>
                    <tr>
                      <th scope="col">When</th>
                      <th scope="col">Kind</th>
                      <th scope="col">Amount</th>
                      <th scope="col">Deal</th>
                      <th scope="col">Who</th>
                      <th scope="col">Note</th>
                    </tr>
                  </thead>
                  <tbody>
                    {data.entries.map((e) => (
                      <tr key={e.id}>
                        <td data-label="When">{new Date(e.createdAt).toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short' })}</td>
                        <td data-label="Kind">{KIND_LABEL[e.kind]}</td>
                        <td data-label="Amount" className="ledger-amount">{formatUsd(e.amountCents)}</td>
                        <td data-label="Deal">{e.dealId ? <Link to={`/admin/ledger?deal=${e.dealId}`}>{e.dealTitle ?? e.dealId.slice(0, 8)}</Link> : '—'}</td>
                        <td data-label="Who">{e.userName ?? '—'}</td>
                        <td data-label="Note">{e.memo}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )}
          </section>
        </>
      ) : null}
    </div>
  );
}
