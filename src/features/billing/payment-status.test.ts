import { expect, test } from 'vitest';
import type { DealPayment } from './data/money-api.ts';
import { paymentStatus, releaseBlocker } from './payment-status.ts';

const base: DealPayment = {
  dealId: 'd',
  dealStatus: 'in_progress',
  escrowStatus: 'none',
  amountCents: 25_000,
  serviceFeeCents: 3_000,
  brandTotalCents: 28_000,
  commissionBp: 500,
  commissionCents: 1_250,
  creatorPayoutCents: 23_750,
  transferredCents: 0,
  refundedCents: 0,
  fundedAt: null,
  releasedAt: null,
  refundedAt: null,
  lastPaymentError: null,
  creatorPayoutsReady: true,
  autoReleaseAt: null,
  disputeWindowEndsAt: null,
  dispute: null,
  chargedCents: 0,
  extraPaymentsRefundedCents: 0,
  checkoutOpen: false,
  topUp: null,
  cancellation: null,
  viewer: 'brand',
  canFund: true,
  canCancelCheckout: false,
  canRequestCancel: false,
  canConsentCancel: false,
  canRelease: false,
  canDispute: false,
  canResolve: false,
};

test('after a cancelled checkout the panel says one thing: the cancellation, not also "not funded" and the earlier decline', () => {
  const view = { ...base, lastPaymentError: 'Your card was declined.' };
  const status = paymentStatus(view, 'cancelled');
  expect(status.headline).toBe('Checkout was cancelled: the deal is not funded.');
  expect(status.details).toEqual([]);
  // Without the cancellation the decline is the news, and it is an alert.
  expect(paymentStatus(view, null)).toMatchObject({ tone: 'error', details: [] });
  expect(paymentStatus(view, null).headline).toContain('Your card was declined.');
  expect(paymentStatus(base, null).headline).toBe('Not funded yet.');
});

test('a completed deal does not keep saying "you will be paid on completion", and the release is promised in the future tense with its date', () => {
  const funded = { ...base, escrowStatus: 'pending' as const, viewer: 'creator' as const };
  expect(paymentStatus(funded, null).headline).toBe('Funded — you will be paid once the deal is completed.');
  const completed = { ...funded, dealStatus: 'completed' as const, autoReleaseAt: '2026-12-11T12:00:00.000Z' };
  const creator = paymentStatus(completed, null);
  expect(creator.headline).toBe('Payout on hold until December 11, 2026');
  expect(creator.details).toEqual(['It will then be released to you automatically unless a dispute is opened.']);
  const all = [creator.headline, ...creator.details].join(' ');
  expect(all).not.toMatch(/on completion|Released automatically/);
  const brand = paymentStatus({ ...completed, viewer: 'brand', creatorPayoutsReady: false }, null);
  expect(brand.details).toContain('The creator has not set up payouts yet: the payout can be released once they have.');
  // Only once it has happened does it say so in the past tense.
  expect(paymentStatus({ ...completed, escrowStatus: 'released', transferredCents: 23_750 }, null).headline).toBe(
    'Payout released: $237.50 sent to your payout account.',
  );
});

test('the payout cannot be released (and the button says why) while the creator has no payout account', () => {
  expect(releaseBlocker({ ...base, creatorPayoutsReady: false })).toBe(
    'The creator has to set up payouts before the payout can be released.',
  );
  expect(releaseBlocker(base)).toBeNull();
});

test('a creator accepted after the deal was funded reads "Not funded yet" until the top-up of their price is paid', () => {
  const topUp = { creators: [], amountCents: 30_000, serviceFeeCents: 3_600, totalCents: 33_600 };
  const waiting = { ...base, escrowStatus: 'pending' as const, viewer: 'creator' as const, topUp };
  expect(paymentStatus(waiting, null)).toEqual({
    headline: 'Not funded yet: the brand funds the deal before the work starts.',
    tone: 'state',
    details: ['Your price of $300.00 is not in escrow yet.'],
  });
  expect(paymentStatus({ ...waiting, topUp: null }, null).headline).toBe(
    'Funded — you will be paid once the deal is completed.',
  );
  // The brand back from the top-up's checkout: confirming while it is open, never after.
  const brand = { ...waiting, viewer: 'brand' as const, checkoutOpen: true };
  expect(paymentStatus(brand, 'success').tone).toBe('waiting');
  expect(paymentStatus({ ...brand, checkoutOpen: false }, 'success').headline).toBe('Funded and held in escrow.');
});
