import { syncServerUrl } from '../../lib/config.ts';
import { sessionRetryFetch } from '../../lib/session/session.ts';

/**
 * The money endpoints (online only, docs/design.md: "checkout, escrow release … go through /api/* and say
 * so in the UI when offline"). Errors carry the server's `{ code, message }`.
 */
export class MoneyApiError extends Error {
  constructor(
    readonly code: string,
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export const OFFLINE_MESSAGE = 'You are offline: this needs a connection.';

/** The spec's words when Checkout (Pro or a deal's funding) cannot start, whatever went wrong. */
export const CHECKOUT_FAILED = 'Failed to start checkout. Please try again.';

async function call<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
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
  const json = (await response.json().catch(() => ({}))) as { code?: string; message?: string };
  if (!response.ok)
    throw new MoneyApiError(
      json.code ?? 'error',
      response.status,
      json.message ?? 'Something went wrong. Please try again.',
    );
  return json as T;
}

export type Interval = 'monthly' | 'yearly';

export type SubscriptionState = {
  status: string | null;
  interval: Interval | null;
  tier: string;
  currentPeriodEnd: string | null;
  cancelAtPeriodEnd: boolean;
  canManage: boolean;
  isPro: boolean;
  /** One free trial per customer: false once the member ever had a subscription. */
  trialAvailable: boolean;
};

export type PayoutStatus = { hasAccount: boolean; ready: boolean; detailsSubmitted: boolean };

export type EscrowStatus = 'none' | 'pending' | 'released' | 'refunded' | 'disputed';

export type DealPayment = {
  dealId: string;
  dealStatus: 'open' | 'in_progress' | 'completed' | 'cancelled';
  escrowStatus: EscrowStatus;
  amountCents: number;
  serviceFeeCents: number;
  brandTotalCents: number;
  commissionBp: number;
  commissionCents: number;
  creatorPayoutCents: number;
  transferredCents: number;
  refundedCents: number;
  fundedAt: string | null;
  releasedAt: string | null;
  refundedAt: string | null;
  lastPaymentError: string | null;
  creatorPayoutsReady: boolean;
  autoReleaseAt: string | null;
  disputeWindowEndsAt: string | null;
  dispute: {
    openedAt: string;
    reason: string | null;
    openedBy: string | null;
    ticketId: string | null;
    byCard: boolean;
    resolvedAt: string | null;
  } | null;
  /** What the escrow's own payment charged the brand (amount + fee), from the ledger; 0 before funding. */
  chargedCents: number;
  /** Other payments of the deal (a replaced checkout, a second payment), refunded automatically. */
  extraPaymentsRefundedCents: number;
  /** A checkout is open: the deal's amount is frozen until it is paid or cancelled. */
  checkoutOpen: boolean;
  /** The brand asked to cancel this funded deal in progress; it is refunded once the creator agrees. */
  cancellation: { requestedAt: string; consentedByMe: boolean } | null;
  viewer: 'brand' | 'creator' | 'admin';
  canFund: boolean;
  canCancelCheckout: boolean;
  canRequestCancel: boolean;
  canConsentCancel: boolean;
  canRelease: boolean;
  canDispute: boolean;
  canResolve: boolean;
};

export type LedgerEntry = {
  id: number;
  dealId: string | null;
  dealTitle: string | null;
  userId: string | null;
  userName: string | null;
  kind: 'charge' | 'fee' | 'commission' | 'transfer' | 'refund' | 'subscription';
  amountCents: number;
  stripeRef: string | null;
  memo: string;
  createdAt: string;
};

export type DealBalance = {
  dealId: string;
  chargeCents: number;
  refundCents: number;
  feeCents: number;
  commissionCents: number;
  transferCents: number;
  heldCents: number;
};

export const moneyApi = {
  startProCheckout: (body: { userId: string; tier: 'basic' | 'premium'; interval: Interval; trigger: string }) =>
    call<{ url: string }>('POST', '/api/create-checkout-session', body),
  openBillingPortal: (returnTo: string) => call<{ url: string }>('POST', '/api/billing-portal', { returnTo }),
  subscription: () => call<SubscriptionState>('GET', '/api/billing/subscription'),
  payoutStatus: () => call<PayoutStatus>('GET', '/api/payouts/status'),
  startPayoutSetup: (returnTo: string) => call<{ url: string }>('POST', '/api/payouts/onboarding', { returnTo }),
  dealPayment: (dealId: string) => call<DealPayment>('GET', `/api/deals/${encodeURIComponent(dealId)}/payment`),
  fundDeal: (dealId: string) => call<{ url: string }>('POST', `/api/deals/${encodeURIComponent(dealId)}/fund`),
  cancelCheckout: (dealId: string) =>
    call<{ checkoutOpen: false }>('POST', `/api/deals/${encodeURIComponent(dealId)}/fund/cancel`),
  requestCancellation: (dealId: string) =>
    call<{ cancellationRequested: true }>('POST', `/api/deals/${encodeURIComponent(dealId)}/cancellation`),
  consentToCancellation: (dealId: string) =>
    call<{ cancelled: boolean }>('POST', `/api/deals/${encodeURIComponent(dealId)}/cancellation/consent`),
  releaseEscrow: (dealId: string) =>
    call<{ escrowStatus: EscrowStatus; transferCents: number; alreadyReleased: boolean }>(
      'POST',
      '/api/release-escrow',
      { dealId },
    ),
  openDispute: (dealId: string, reason: string) =>
    call<{ ticketId: string }>('POST', `/api/deals/${encodeURIComponent(dealId)}/dispute`, { reason }),
  resolveDispute: (dealId: string, refundCents: number) =>
    call<{ escrowStatus: EscrowStatus; refundedCents: number; transferCents: number }>(
      'POST',
      `/api/admin/deals/${encodeURIComponent(dealId)}/resolve-dispute`,
      {
        refundCents,
      },
    ),
  ledger: (dealId?: string) =>
    call<{ entries: LedgerEntry[]; balances: DealBalance[] }>(
      'GET',
      `/api/admin/ledger${dealId ? `?dealId=${encodeURIComponent(dealId)}` : ''}`,
    ),
};

/** Leaves the app for a Stripe-hosted page (Checkout, onboarding, the customer portal). */
export function goToStripe(url: string): void {
  window.location.assign(url);
}
