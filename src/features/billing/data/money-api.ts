import type { z } from 'zod';
import { errorBody, type ErrorCode } from '../../../domain/contracts/errors.ts';
import {
  getDealPayment,
  getEarnings,
  getLedger,
  getPayoutStatus,
  getSubscription,
  postBillingPortal,
  postCancelCheckout,
  postCancellation,
  postCancellationConsent,
  postCheckoutSession,
  postDispute,
  postFundDeal,
  postPayoutOnboarding,
  postReleaseEscrow,
  postResolveDispute,
  type DealBalance,
  type DealPayment,
  type Earning,
  type Earnings,
  type EscrowStatus,
  type Interval,
  type LedgerEntry,
  type PayoutStatus,
  type SubscriptionState,
} from '../../../domain/contracts/money.ts';
import { syncServerUrl } from '../../../lib/config.ts';
import { sessionRetryFetch } from '../../../lib/session/session.ts';

/**
 * The money endpoints (online only, docs/design.md: "checkout, escrow release … go through /api/* and say
 * so in the UI when offline"). Errors carry the server's `{ code, message }`.
 */
export class MoneyApiError extends Error {
  constructor(
    readonly code: ErrorCode | 'offline' | 'network' | 'error',
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export const OFFLINE_MESSAGE = 'You are offline: this needs a connection.';

/** The spec's words when Checkout (Pro or a deal's funding) cannot start, whatever went wrong. */
export const CHECKOUT_FAILED = 'Failed to start checkout. Please try again.';

type Answer<T> = { parse(value: unknown): T };

/**
 * One money call: the answer is parsed with the route's contract (`src/domain/contracts/money.ts`),
 * the same schema the server serializes it with; a refusal's `{ code, message }` with the shared
 * error body.
 */
async function call<T>(answer: Answer<T>, method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
  if (typeof navigator !== 'undefined' && !navigator.onLine) throw new MoneyApiError('offline', 0, OFFLINE_MESSAGE);
  let response: Response;
  try {
    response = await sessionRetryFetch(`${syncServerUrl()}${path}`, {
      method,
      cache: 'no-store',
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new MoneyApiError('network', 0, 'Pacta could not be reached. Check your connection and try again.');
  }
  const json: unknown = await response.json().catch(() => ({}));
  if (!response.ok) {
    const refusal = errorBody.safeParse(json);
    throw refusal.success
      ? new MoneyApiError(refusal.data.code, response.status, refusal.data.message)
      : new MoneyApiError('error', response.status, 'Something went wrong. Please try again.');
  }
  return answer.parse(json);
}

export type {
  DealBalance,
  DealPayment,
  Earning,
  Earnings,
  EscrowStatus,
  Interval,
  LedgerEntry,
  PayoutStatus,
  SubscriptionState,
};

const dealPath = (dealId: string, rest = '') => `/api/deals/${encodeURIComponent(dealId)}${rest}`;

export const moneyApi = {
  startProCheckout: (body: z.input<typeof postCheckoutSession.body>) =>
    call(postCheckoutSession.response[200], 'POST', '/api/create-checkout-session', body),
  openBillingPortal: (returnTo: string) =>
    call(postBillingPortal.response[200], 'POST', '/api/billing-portal', { returnTo }),
  subscription: () => call(getSubscription.response[200], 'GET', '/api/billing/subscription'),
  payoutStatus: () => call(getPayoutStatus.response[200], 'GET', '/api/payouts/status'),
  startPayoutSetup: (returnTo: string) =>
    call(postPayoutOnboarding.response[200], 'POST', '/api/payouts/onboarding', { returnTo }),
  dealPayment: (dealId: string) => call(getDealPayment.response[200], 'GET', dealPath(dealId, '/payment')),
  fundDeal: (dealId: string) => call(postFundDeal.response[200], 'POST', dealPath(dealId, '/fund')),
  cancelCheckout: (dealId: string) => call(postCancelCheckout.response[200], 'POST', dealPath(dealId, '/fund/cancel')),
  requestCancellation: (dealId: string) =>
    call(postCancellation.response[200], 'POST', dealPath(dealId, '/cancellation')),
  consentToCancellation: (dealId: string) =>
    call(postCancellationConsent.response[200], 'POST', dealPath(dealId, '/cancellation/consent')),
  releaseEscrow: (dealId: string) => call(postReleaseEscrow.response[200], 'POST', '/api/release-escrow', { dealId }),
  openDispute: (dealId: string, reason: string) =>
    call(postDispute.response[200], 'POST', dealPath(dealId, '/dispute'), { reason }),
  resolveDispute: (dealId: string, refundCents: number) =>
    call(postResolveDispute.response[200], 'POST', `/api/admin/deals/${encodeURIComponent(dealId)}/resolve-dispute`, {
      refundCents,
    }),
  earnings: () => call(getEarnings.response[200], 'GET', '/api/earnings'),
  ledger: (dealId?: string) =>
    call(getLedger.response[200], 'GET', `/api/admin/ledger${dealId ? `?dealId=${encodeURIComponent(dealId)}` : ''}`),
};

/** Leaves the app for a Stripe-hosted page (Checkout, onboarding, the customer portal). */
export function goToStripe(url: string): void {
  window.location.assign(url);
}
