import './pricing.css';
import { Link } from 'react-router-dom';
import { PageHeader } from '../../../components/page-header.tsx';
import {
  COMMISSION_BP,
  PRO_COMMISSION_BP,
  PRO_MONTHLY_PRICE_CENTS,
  PRO_TRIAL_DAYS,
  PRO_YEARLY_PRICE_CENTS,
  SERVICE_FEE_BP,
  formatRate,
  formatUsd,
  proYearlySavingPercent,
} from '../../../domain/fees.ts';

export function PricingPage() {
  const monthly = formatUsd(PRO_MONTHLY_PRICE_CENTS, { compact: true });
  const yearly = formatUsd(PRO_YEARLY_PRICE_CENTS, { compact: true });
  return (
    <div className="container page">
      <PageHeader
        title="Pricing"
        lead="Free to join. You pay only when a deal is paid — and Pro lowers what creators pay."
      />
      <div className="pricing-plans">
        <section className="card" aria-labelledby="plan-free">
          <h2 id="plan-free">Free</h2>
          <p className="stat">$0</p>
          <ul>
            <li>Browse, swipe and apply to deals</li>
            <li>Creator commission: {formatRate(COMMISSION_BP)} of each paid deal</li>
            <li>Brand service fee: {formatRate(SERVICE_FEE_BP)} on top of the deal amount</li>
            <li>Escrow and dispute resolution on every deal</li>
          </ul>
          <Link className="button button-secondary" to="/auth/signup">
            Sign Up
          </Link>
        </section>
        <section className="card" aria-labelledby="plan-pro">
          <h2 id="plan-pro">Pro</h2>
          <p className="stat">{monthly}</p>
          <p className="muted">
            per month, or {yearly}/year <span className="badge">Save {proYearlySavingPercent()}%</span>
          </p>
          <ul>
            <li>Creator commission: {formatRate(PRO_COMMISSION_BP)} of each paid deal</li>
            <li>Pro-only deals and priority matching</li>
            <li>Advanced analytics and priority support</li>
            <li>{PRO_TRIAL_DAYS}-day free trial · Cancel anytime</li>
          </ul>
          <Link className="button button-primary" to="/pro">
            See Pro
          </Link>
        </section>
      </div>
      <p className="muted" style={{ marginTop: '2rem' }}>
        Full details in the <Link to="/commission-policy">Commission Policy</Link>.
      </p>
    </div>
  );
}
