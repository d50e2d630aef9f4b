import { useState } from 'react';
import { Link } from 'react-router-dom';
import { UpgradeButton } from '../../billing/index.ts';
import { PageHeader } from '../../../components/page-header.tsx';
import {
  COMMISSION_BP,
  PRO_COMMISSION_BP,
  PRO_MONTHLY_PRICE_CENTS,
  PRO_TRIAL_DAYS,
  PRO_YEARLY_PRICE_CENTS,
  formatRate,
  formatUsd,
  proYearlySavingPercent,
} from '../../../domain/fees.ts';
import { BRAND_PRO_BENEFITS, CREATOR_PRO_BENEFITS } from './pro-benefits.ts';

type Plan = 'monthly' | 'yearly';

/** /upgrade and /pro: a brand sees Brand Pro, anyone else (signed out, creator, admin) Creator Pro. */
export function ProPage({ audience }: { audience: 'brand' | 'creator' }) {
  const [plan, setPlan] = useState<Plan>('yearly');
  const brand = audience === 'brand';
  const title = brand ? 'Brand Pro' : 'Creator Pro';
  const benefits = brand ? BRAND_PRO_BENEFITS : CREATOR_PRO_BENEFITS;
  const monthly = formatUsd(PRO_MONTHLY_PRICE_CENTS, { compact: true });
  const yearly = formatUsd(PRO_YEARLY_PRICE_CENTS, { compact: true });
  return (
    <div className="container page">
      <PageHeader
        title={title}
        lead={
          brand
            ? 'Find the right creators faster and run campaigns at scale.'
            : 'Get seen first, keep more of every deal and grow faster.'
        }
      />
      <div
        style={{
          display: 'grid',
          gap: '2rem',
          gridTemplateColumns: 'repeat(auto-fit, minmax(min(100%, 20rem), 1fr))',
          alignItems: 'start',
        }}
      >
        <section className="card" aria-labelledby="pro-benefits">
          <h2 id="pro-benefits">What you get</h2>
          <ul>
            {benefits.map((benefit) => (
              <li key={benefit}>{benefit}</li>
            ))}
            {brand ? null : (
              <li>
                Lower commission: {formatRate(PRO_COMMISSION_BP)} instead of {formatRate(COMMISSION_BP)}
              </li>
            )}
          </ul>
        </section>
        <section className="card" aria-labelledby="pro-price">
          <h2 id="pro-price">
            {monthly}/month or {yearly}/year
          </h2>
          <fieldset style={{ border: 0, padding: 0, margin: '0 0 1rem', display: 'grid', gap: '0.5rem' }}>
            <legend className="visually-hidden">Billing period</legend>
            <label>
              <input
                type="radio"
                name="plan"
                value="monthly"
                checked={plan === 'monthly'}
                onChange={() => setPlan('monthly')}
              />{' '}
              Monthly — {monthly}
              /month
            </label>
            <label>
              <input
                type="radio"
                name="plan"
                value="yearly"
                checked={plan === 'yearly'}
                onChange={() => setPlan('yearly')}
              />{' '}
              Yearly — {yearly}
              /year <span className="badge">Save {proYearlySavingPercent()}%</span>
            </label>
          </fieldset>
          <p className="muted">{PRO_TRIAL_DAYS}-day free trial. Cancel anytime.</p>
          <UpgradeButton interval={plan} trigger={brand ? 'brand_pro_page' : 'creator_pro_page'} />
          <p className="muted" style={{ marginTop: '0.75rem' }}>
            Secure checkout by Stripe. Compare plans on the <Link to="/pricing">pricing page</Link>.
          </p>
        </section>
      </div>
    </div>
  );
}
