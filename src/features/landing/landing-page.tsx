import { Link } from 'react-router-dom';
import { AlertIcon, ShieldIcon } from '../../components/icons.tsx';
import { usePageTitle } from '../../lib/use-page-title.ts';
import { COMMISSION_BP, PRO_COMMISSION_BP, SERVICE_FEE_BP, formatRate } from '../../domain/fees.ts';
import { HeroDealCard } from './hero-deal-card.tsx';
import '../../styles/landing.css';

const STEPS = [
  {
    title: 'Brands post deals',
    text: 'Publish a paid sponsorship or a full campaign brief with deliverables, budget and timeline.',
  },
  {
    title: 'Creators swipe and apply',
    text: 'Creators browse deals that match their niches — even offline — and apply in one tap.',
  },
  {
    title: 'Escrow pays out',
    text: 'The brand funds the deal up front. When the work is done, the payout is released from escrow.',
  },
];

export function LandingPage() {
  usePageTitle(undefined);
  return (
    <div className="landing">
      <section className="hero" aria-labelledby="hero-title">
        <div className="container hero-grid">
          <div>
            <p className="eyebrow">The sponsorship marketplace for creators and brands</p>
            <h1 id="hero-title">Sponsorship deals, safely made.</h1>
            <p className="lead">
              Brands publish paid deals, creators swipe and apply, and every payment runs through{' '}
              <strong>built-in escrow and dispute resolution</strong>.
            </p>
            <div className="hero-actions">
              <Link className="button button-primary" to="/auth/signup">
                Get started — it's free
              </Link>
              <Link className="button button-secondary" to="/deals">
                Browse deals
              </Link>
            </div>
            <ul className="trust-row" aria-label="Why Pacta">
              <li>Safe transactions</li>
              <li>Works offline</li>
              <li>No fee until a deal is paid</li>
            </ul>
          </div>
          <HeroDealCard />
        </div>
      </section>

      <section className="container landing-section" aria-labelledby="escrow-title">
        <div className="escrow-card">
          <ShieldIcon className="escrow-icon" />
          <div>
            <h2 id="escrow-title">Built-in escrow and dispute resolution</h2>
            <p>
              Safe transactions for both sides: the brand's payment is held in escrow before work starts and released to
              the creator when the deal is complete. If something goes wrong, our team resolves the dispute.
            </p>
          </div>
        </div>
      </section>

      <section className="container landing-section" aria-labelledby="how-title">
        <h2 id="how-title">How Pacta works</h2>
        <ol className="steps">
          {STEPS.map((step, i) => (
            <li key={step.title} className="card">
              <span className="step-number" aria-hidden="true">
                {i + 1}
              </span>
              <h3>{step.title}</h3>
              <p>{step.text}</p>
            </li>
          ))}
        </ol>
      </section>

      <section className="container landing-section" aria-labelledby="fees-title">
        <h2 id="fees-title">Simple, published fees</h2>
        <div className="fee-grid">
          <div className="card">
            <p className="stat">{formatRate(SERVICE_FEE_BP)}</p>
            <p>service fee for brands, on top of the deal amount</p>
          </div>
          <div className="card">
            <p className="stat">{formatRate(COMMISSION_BP)}</p>
            <p>commission from a creator's payout</p>
          </div>
          <div className="card">
            <p className="stat">{formatRate(PRO_COMMISSION_BP)}</p>
            <p>
              commission for <Link to="/pro">Pro creators</Link>
            </p>
          </div>
        </div>
        <p className="muted">
          See the <Link to="/commission-policy">Commission Policy</Link> for a worked example.
        </p>
      </section>

      <section className="container landing-section" aria-labelledby="warning-title">
        <div className="callout callout-warning off-platform" role="note">
          <AlertIcon className="warning-icon" />
          <div>
            <h2 id="warning-title">Keep your deals on Pacta</h2>
            <p>
              <strong>Deals made outside Pacta are not protected.</strong> Payments arranged elsewhere have no escrow
              and no dispute resolution — if someone asks you to pay or get paid off-platform, decline and report it.
            </p>
          </div>
        </div>
      </section>

      <section className="container landing-section final-cta" aria-labelledby="cta-title">
        <h2 id="cta-title">Ready for your next deal?</h2>
        <p className="lead">Join as a content creator or as a business owner.</p>
        <div className="hero-actions">
          <Link className="button button-primary" to="/auth/signup">
            Sign Up
          </Link>
          <Link className="button button-secondary" to="/about">
            Learn more about Pacta
          </Link>
        </div>
      </section>
    </div>
  );
}
