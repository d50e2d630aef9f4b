import { formatUsd } from '../../domain/fees.ts';
import { formatDate } from './format.ts';
import type { DealPayment } from './data/money-api.ts';

/**
 * What the payment panel says about the escrow: one headline and the details under it. The rule:
 * say what will happen and when, in the future tense, until it has happened; and say one thing about
 * funding at a time (a cancelled checkout is the news, not the earlier decline or "not funded").
 */
export type PaymentStatus = {
  headline: string;
  /** How the headline is announced: an error (the payment failed) is an alert. */
  tone: 'state' | 'error' | 'waiting';
  details: string[];
};

export function paymentStatus(view: DealPayment, funding: string | null): PaymentStatus {
  const creator = view.viewer === 'creator';
  const completed = view.dealStatus === 'completed';
  const details: string[] = [];
  switch (view.escrowStatus) {
    case 'none': {
      if (funding === 'success' && !view.lastPaymentError)
        return { headline: 'Payment received — confirming with Stripe…', tone: 'waiting', details };
      if (funding === 'cancelled' && !view.checkoutOpen)
        return { headline: 'Checkout was cancelled: the deal is not funded.', tone: 'state', details };
      if (view.lastPaymentError)
        return {
          headline: `The payment did not go through: ${view.lastPaymentError} The deal is not funded.`,
          tone: 'error',
          details,
        };
      return {
        headline: creator ? 'Not funded yet: the brand funds the deal before the work starts.' : 'Not funded yet.',
        tone: 'state',
        details,
      };
    }
    case 'pending': {
      // A creator accepted after the deal was funded: their own price waits for the brand's top-up.
      if (creator && view.topUp)
        return {
          headline: 'Not funded yet: the brand funds the deal before the work starts.',
          tone: 'state',
          details: [`Your price of ${formatUsd(view.topUp.amountCents)} is not in escrow yet.`],
        };
      if (funding === 'success' && view.topUp && view.checkoutOpen && !view.lastPaymentError)
        return { headline: 'Payment received — confirming with Stripe…', tone: 'waiting', details };
      if (view.topUp && view.lastPaymentError)
        return {
          headline: `The payment did not go through: ${view.lastPaymentError} The new creator's price is not funded.`,
          tone: 'error',
          details,
        };
      if (!completed) {
        return {
          headline: creator ? 'Funded — you will be paid once the deal is completed.' : 'Funded and held in escrow.',
          tone: 'state',
          details,
        };
      }
      // The words both sides see for the hold: 'Payout on hold until {date}'.
      const headline = view.autoReleaseAt
        ? `Payout on hold until ${formatDate(view.autoReleaseAt)}`
        : 'Completed — the payout is held in escrow until it is released.';
      if (creator) {
        if (view.autoReleaseAt)
          details.push('It will then be released to you automatically unless a dispute is opened.');
        if (!view.creatorPayoutsReady) details.push('Set up payouts so it can be paid to you.');
        return { headline, tone: 'state', details };
      }
      if (view.autoReleaseAt)
        details.push('It will then be released to the creator automatically unless a dispute is opened.');
      if (!view.creatorPayoutsReady)
        details.push('The creator has not set up payouts yet: the payout can be released once they have.');
      return { headline, tone: 'state', details };
    }
    case 'released':
      return {
        headline: creator
          ? `Payout released: ${formatUsd(view.transferredCents)} sent to your payout account.`
          : `Payout released to the creator: ${formatUsd(view.transferredCents)}.`,
        tone: 'state',
        details,
      };
    case 'refunded':
      return { headline: `Refunded to the brand: ${formatUsd(view.refundedCents)}.`, tone: 'state', details };
    case 'disputed':
      if (view.dispute?.byCard) details.push('The card payment was disputed with the bank.');
      return {
        headline: 'Disputed — the payout is on hold until Pacta staff resolve it.',
        tone: 'state',
        details,
      };
  }
}

/** Release Payout is offered only when it can succeed; otherwise the reason, said beside it. */
export function releaseBlocker(view: DealPayment): string | null {
  return view.creatorPayoutsReady ? null : 'The creator has to set up payouts before the payout can be released.';
}
