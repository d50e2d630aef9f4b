import { Link } from 'react-router-dom';
import {
  COMMISSION_BP,
  DISPUTE_WINDOW_DAYS,
  PRO_COMMISSION_BP,
  PRO_MONTHLY_PRICE_CENTS,
  PRO_TRIAL_DAYS,
  PRO_YEARLY_PRICE_CENTS,
  SERVICE_FEE_BP,
  formatRate,
  formatUsd,
} from '../../../domain/fees.ts';
import { LEGAL_UPDATED, LegalPage } from './legal-page.tsx';

export function TermsPage() {
  return (
    <LegalPage title="Terms of Service" updated={LEGAL_UPDATED}>
      <p>
        These terms govern your use of Pacta, the marketplace where brands and content creators make paid sponsorship
        deals.
      </p>
      <h2>1. Accounts</h2>
      <p>
        You sign up as a content creator or as a business owner (brand). You are responsible for your account and for
        keeping your password secret. The information in your profile, including your social links, must be accurate.
      </p>
      <h2>2. Deals and escrow</h2>
      <p>
        A brand funds a deal before the work starts; the money is held in escrow until the deal is completed and the
        brand releases the payout to the creator. Pacta does not take part in the creative work and does not guarantee
        the results of a sponsorship.
      </p>
      <h2>3. Fees</h2>
      <ul>
        <li>
          Brands pay a service fee of <strong data-fee="service">{formatRate(SERVICE_FEE_BP)}</strong> on top of the
          deal amount.
        </li>
        <li>
          Free creators pay a commission of <strong data-fee="commission">{formatRate(COMMISSION_BP)}</strong> of the
          deal amount.
        </li>
        <li>
          Pro creators pay a commission of <strong data-fee="pro-commission">{formatRate(PRO_COMMISSION_BP)}</strong> of
          the deal amount.
        </li>
      </ul>
      <p>
        Service fees are non-refundable. Details and a worked example are in the{' '}
        <Link to="/commission-policy">Commission Policy</Link>.
      </p>
      <h2>4. Payment disputes</h2>
      <p>
        Payment disputes must be reported within <strong>{DISPUTE_WINDOW_DAYS} days</strong> of the payment through{' '}
        <Link to="/support">Support</Link>. We review both sides' evidence and decide whether escrow is released or
        refunded.
      </p>
      <h2>5. Deals outside Pacta</h2>
      <p>
        Deals made outside Pacta are not protected by escrow or dispute resolution. Do not take payment for a Pacta deal
        elsewhere.
      </p>
      <h2>6. Pro membership</h2>
      <p>
        Pro costs {formatUsd(PRO_MONTHLY_PRICE_CENTS, { compact: true })}/month or{' '}
        {formatUsd(PRO_YEARLY_PRICE_CENTS, { compact: true })}/year, starts with a {PRO_TRIAL_DAYS}-day free trial and
        can be cancelled anytime; it then ends at the close of the paid period.
      </p>
      <h2>7. Conduct</h2>
      <p>
        No fake accounts, misleading deals, harassment, or content that breaks the law or the rules of the platforms you
        publish on.
      </p>
      <h2>8. Ending your account</h2>
      <p>
        You may close your account at any time. We may suspend accounts that break these terms; open escrow is settled
        first.
      </p>
      <h2>9. Contact</h2>
      <p>
        Questions about these terms: <Link to="/contact">contact us</Link>.
      </p>
    </LegalPage>
  );
}
