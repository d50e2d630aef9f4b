import { Link } from 'react-router-dom';
import { COMMISSION_BP, PRO_COMMISSION_BP, SERVICE_FEE_BP, formatRate } from '../../../domain/fees.ts';
import { FeeExample } from './fee-example.tsx';
import { LEGAL_UPDATED, LegalPage } from './legal-page.tsx';

export function CommissionPolicyPage() {
  return (
    <LegalPage title="Commission Policy" updated={LEGAL_UPDATED}>
      <p>
        Pacta charges for completed, paid deals only. There is no fee to create an account, publish a deal or apply to
        one.
      </p>
      <h2>What each side pays</h2>
      <ul>
        <li>
          <strong>Brands</strong> pay the deal amount plus a{' '}
          <strong data-fee="service">{formatRate(SERVICE_FEE_BP)}</strong> service fee. The total is charged when the
          deal is funded and held in escrow.
        </li>
        <li>
          <strong>Creators</strong> pay a platform commission of{' '}
          <strong data-fee="commission">{formatRate(COMMISSION_BP)}</strong> of the deal amount, taken from the payout
          when it is released.
        </li>
        <li>
          <strong>Pro creators</strong> pay a lower commission of{' '}
          <strong data-fee="pro-commission">{formatRate(PRO_COMMISSION_BP)}</strong>.{' '}
          <Link to="/pro">Learn about Pro</Link>.
        </li>
      </ul>
      <h2>Example</h2>
      <FeeExample amountCents={100_000} />
      <h2>When commission is charged</h2>
      <p>
        Commission is taken once, when the brand releases the payout from escrow on a completed deal. If a deal is
        cancelled and the escrow is refunded, no commission is charged.
      </p>
      <h2>Deals outside Pacta</h2>
      <p>
        Deals made outside Pacta are not protected: they have no escrow and no dispute resolution, and arranging them to
        avoid fees breaks our <Link to="/terms">Terms of Service</Link>.
      </p>
    </LegalPage>
  );
}
