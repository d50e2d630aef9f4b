import type { DealDocument } from '../../../domain/collections/index.ts';
import { dealPaymentSummary, formatRate, formatUsd, SERVICE_FEE_BP } from '../../../domain/fees.ts';
import { endSentence } from '../../../domain/end-sentence.ts';

/** Nothing says "released" before it is (the payment panel shows the parties the details). */
const ESCROW_TEXT: Record<DealDocument['escrow_status'], string> = {
  none: 'Paid through escrow: the brand funds it, the creator is paid on completion.',
  pending: 'Funded and held in escrow until the payout is released.',
  released: 'Payout released from escrow.',
  refunded: 'Escrow refunded to the brand.',
  disputed: 'Disputed: the payout is on hold.',
};

/** Completed deals only; every figure comes from the one fee module. */
export function PaymentSummary({
  deal,
  winnerIsPro,
  winnerName,
}: {
  deal: DealDocument;
  winnerIsPro: boolean;
  winnerName: string | null;
}) {
  const s = dealPaymentSummary(deal.amount_cents, { creatorIsPro: winnerIsPro });
  return (
    <section className="card detail-section" aria-labelledby="payment-summary-heading">
      <h2 id="payment-summary-heading">Payment summary</h2>
      {winnerName ? <p className="muted">{endSentence(`Completed with ${winnerName}`)}</p> : null}
      <dl className="summary-list">
        <div>
          <dt>Deal amount</dt>
          <dd>{formatUsd(s.amountCents)}</dd>
        </div>
        <div>
          <dt>Service fee ({formatRate(SERVICE_FEE_BP)})</dt>
          <dd>{formatUsd(s.serviceFeeCents)}</dd>
        </div>
        <div>
          <dt>Brand total</dt>
          <dd>{formatUsd(s.brandTotalCents)}</dd>
        </div>
        <div>
          <dt>Platform commission ({formatRate(s.commissionBp)})</dt>
          <dd>−{formatUsd(s.commissionCents)}</dd>
        </div>
        <div className="summary-total">
          <dt>Creator payout</dt>
          <dd>{formatUsd(s.creatorPayoutCents)}</dd>
        </div>
      </dl>
      <p className="muted">{ESCROW_TEXT[deal.escrow_status]}</p>
    </section>
  );
}
