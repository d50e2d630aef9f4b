import { dealPaymentSummary, formatUsd } from '../../domain/fees.ts';

const EXAMPLE_AMOUNT_CENTS = 120_000;

/** An illustrative deal card in the hero; its money lines come from the fee module. */
export function HeroDealCard() {
  const summary = dealPaymentSummary(EXAMPLE_AMOUNT_CENTS, { creatorIsPro: false });
  return (
    <figure className="hero-card" aria-label="Example deal">
      <div className="hero-card-top">
        <span className="badge">Fitness · Technology</span>
        <span className="escrow-pill">Escrow funded</span>
      </div>
      <p className="hero-card-title">Launch video for a smart water bottle</p>
      <p className="hero-card-brand">by Hydra Labs</p>
      <div className="hero-card-tags">
        <span className="chip">YouTube Video</span>
        <span className="chip">Instagram Story</span>
      </div>
      <dl className="hero-card-money">
        <div>
          <dt>Deal amount</dt>
          <dd>{formatUsd(summary.amountCents, { compact: true })}</dd>
        </div>
        <div>
          <dt>Creator receives</dt>
          <dd>{formatUsd(summary.creatorPayoutCents, { compact: true })}</dd>
        </div>
      </dl>
      <figcaption className="visually-hidden">
        An example of a deal on Pacta, with its payment held in escrow.
      </figcaption>
    </figure>
  );
}
