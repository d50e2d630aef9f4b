import { z } from 'zod';

/**
 * The money endpoints under /api: Pro subscriptions, payouts, a deal's escrow and the staff ledger.
 * Each needs a signed-in user; without Stripe settings they answer 503 `payments_unavailable`.
 * (The Stripe webhook is Stripe's own contract, checked by its signature.)
 */

const dealIdParams = z.object({ id: z.guid() });
const returnTo = z.object({ returnTo: z.string().optional() }).nullish();
const redirect = z.object({ url: z.string() });

export const DEAL_STATUSES = ['open', 'in_progress', 'completed', 'cancelled'] as const;
export const ESCROW_STATUSES = ['none', 'pending', 'released', 'refunded', 'disputed'] as const;
const escrowStatus = z.enum(ESCROW_STATUSES);
const instant = z.string().describe('an ISO 8601 timestamp');

export const postCheckoutSession = {
  summary: 'Starts a Stripe Checkout for Pro',
  body: z.object({
    userId: z.guid(),
    tier: z.enum(['basic', 'premium']).default('premium'),
    interval: z.enum(['monthly', 'yearly']),
    trigger: z.string().max(200).optional(),
  }),
  response: { 200: redirect },
};

export const postBillingPortal = {
  summary: "Opens Stripe's customer portal for the signed-in member",
  body: returnTo,
  response: { 200: redirect },
};

export const getSubscription = {
  summary: "The signed-in member's Pro subscription",
  response: {
    200: z.object({
      status: z.string().nullable(),
      interval: z.enum(['monthly', 'yearly']).nullable(),
      tier: z.string(),
      currentPeriodEnd: instant.nullable(),
      cancelAtPeriodEnd: z.boolean(),
      canManage: z.boolean(),
      isPro: z.boolean(),
      /** One free trial per customer: false once the member ever had a subscription. */
      trialAvailable: z.boolean(),
    }),
  },
};
export type SubscriptionState = z.infer<(typeof getSubscription.response)[200]>;
export type Interval = NonNullable<SubscriptionState['interval']>;

export const postPayoutOnboarding = {
  summary: "Starts or continues the creator's Stripe Express onboarding",
  body: returnTo,
  response: { 200: redirect },
};

export const getPayoutStatus = {
  summary: "The creator's payout account",
  response: { 200: z.object({ hasAccount: z.boolean(), ready: z.boolean(), detailsSubmitted: z.boolean() }) },
};
export type PayoutStatus = z.infer<(typeof getPayoutStatus.response)[200]>;

export const postFundDeal = {
  summary: "Starts the brand's Checkout that funds a deal's escrow",
  params: dealIdParams,
  response: { 200: redirect },
};

export const postCancelCheckout = {
  summary: "Cancels a deal's open Checkout",
  params: dealIdParams,
  response: { 200: z.object({ checkoutOpen: z.literal(false) }) },
};

export const postCancellation = {
  summary: 'The brand asks to cancel a funded deal in progress',
  params: dealIdParams,
  response: { 200: z.object({ cancellationRequested: z.literal(true) }) },
};

export const postCancellationConsent = {
  summary: "The accepted creator agrees to the brand's cancellation",
  params: dealIdParams,
  response: { 200: z.object({ cancelled: z.boolean() }) },
};

/** The payment panel's figures for the brand, the deal's creators and staff. */
export const dealPayment = z.object({
  dealId: z.guid(),
  dealStatus: z.enum(DEAL_STATUSES),
  escrowStatus,
  amountCents: z.number().int(),
  serviceFeeCents: z.number().int(),
  brandTotalCents: z.number().int(),
  commissionBp: z.number().int(),
  commissionCents: z.number().int(),
  creatorPayoutCents: z.number().int(),
  transferredCents: z.number().int(),
  refundedCents: z.number().int(),
  fundedAt: instant.nullable(),
  releasedAt: instant.nullable(),
  refundedAt: instant.nullable(),
  lastPaymentError: z.string().nullable(),
  creatorPayoutsReady: z.boolean(),
  autoReleaseAt: instant.nullable(),
  disputeWindowEndsAt: instant.nullable(),
  dispute: z
    .object({
      openedAt: instant,
      reason: z.string().nullable(),
      openedBy: z.string().nullable(),
      ticketId: z.string().nullable(),
      byCard: z.boolean(),
      resolvedAt: instant.nullable(),
    })
    .nullable(),
  /** What the escrow's own payment charged the brand (amount + fee), from the ledger; 0 before funding. */
  chargedCents: z.number().int(),
  /** Other payments of the deal (a replaced checkout, a second payment), refunded automatically. */
  extraPaymentsRefundedCents: z.number().int(),
  /** A checkout is open: the deal's amount is frozen until it is paid or cancelled. */
  checkoutOpen: z.boolean(),
  /**
   * The accepted creators of a funded deal whose prices are not funded yet (they joined after it was
   * funded): the brand funds them with a top-up of their prices plus the service fee. Null when none.
   */
  topUp: z
    .object({
      creators: z.array(z.object({ creatorId: z.guid(), name: z.string(), priceCents: z.number().int() })),
      amountCents: z.number().int(),
      serviceFeeCents: z.number().int(),
      totalCents: z.number().int(),
    })
    .nullable(),
  /** The brand asked to cancel this funded deal in progress; it is refunded once the creator agrees. */
  cancellation: z.object({ requestedAt: instant, consentedByMe: z.boolean() }).nullable(),
  viewer: z.enum(['brand', 'creator', 'admin']),
  canFund: z.boolean(),
  canCancelCheckout: z.boolean(),
  canRequestCancel: z.boolean(),
  canConsentCancel: z.boolean(),
  canRelease: z.boolean(),
  canDispute: z.boolean(),
  canResolve: z.boolean(),
});
export type DealPayment = z.infer<typeof dealPayment>;
export type EscrowStatus = DealPayment['escrowStatus'];

export const getDealPayment = {
  summary: "A deal's payment as its brand, its creator or staff see it",
  params: dealIdParams,
  response: { 200: dealPayment },
};

export const postReleaseEscrow = {
  summary: 'The brand (or staff) releases the payout of a completed deal',
  body: z.object({ dealId: z.guid() }),
  response: {
    200: z.object({
      escrowStatus: z.literal('released'),
      transferCents: z.number().int(),
      alreadyReleased: z.boolean(),
    }),
  },
};

export const postDispute = {
  summary: 'The brand or the creator disputes a funded deal',
  params: dealIdParams,
  body: z.object({
    reason: z.string(),
    /** On a deal with submissions: the deliverable and the submission (a draft or live link) in question. */
    deliverableId: z.string().max(40).optional(),
    submissionId: z.guid().optional(),
  }),
  response: { 200: z.object({ escrowStatus: z.literal('disputed'), ticketId: z.string() }) },
};

export const postResolveDispute = {
  summary: 'Staff settle a dispute: part refunded to the brand, the rest released',
  params: dealIdParams,
  body: z.object({ refundCents: z.number().int() }),
  response: {
    200: z.object({
      escrowStatus: z.enum(['released', 'refunded']),
      refundedCents: z.number().int(),
      transferCents: z.number().int(),
    }),
  },
};

export const LEDGER_KINDS = ['charge', 'fee', 'commission', 'transfer', 'refund', 'subscription'] as const;

const ledgerEntry = z.object({
  id: z.number().int(),
  dealId: z.guid().nullable(),
  dealTitle: z.string().nullable(),
  userId: z.guid().nullable(),
  userName: z.string().nullable(),
  kind: z.enum(LEDGER_KINDS),
  amountCents: z.number().int(),
  stripeRef: z.string().nullable(),
  memo: z.string(),
  createdAt: instant,
});
export type LedgerEntry = z.infer<typeof ledgerEntry>;

const dealBalance = z.object({
  dealId: z.guid(),
  chargeCents: z.number().int(),
  refundCents: z.number().int(),
  feeCents: z.number().int(),
  commissionCents: z.number().int(),
  transferCents: z.number().int(),
  heldCents: z.number().int(),
});
export type DealBalance = z.infer<typeof dealBalance>;

export const getLedger = {
  summary: 'The ledger for staff: every movement, newest first, and each deal’s balance',
  querystring: z.object({ dealId: z.guid().optional() }),
  response: { 200: z.object({ entries: z.array(ledgerEntry), balances: z.array(dealBalance) }) },
};

/**
 * What one deal pays the signed-in creator, from the ledger: paid once transferred (its commission as
 * recorded), otherwise what escrow holds for them minus the commission the release will take.
 */
export const EARNING_STATUSES = ['paid', 'held', 'disputed', 'refunded'] as const;
const earning = z.object({
  dealId: z.guid(),
  dealTitle: z.string(),
  brandName: z.string().nullable(),
  status: z.enum(EARNING_STATUSES),
  /** The creator's price for the deal: what the brand's escrow holds for them. */
  amountCents: z.number().int(),
  /** The commission's rate; null when the deal was refunded (no commission) or an old payout fits no rate. */
  commissionBp: z.number().int().nullable(),
  commissionCents: z.number().int(),
  /** Paid: what was transferred. Held or disputed: what the release will transfer. Refunded: 0. */
  payoutCents: z.number().int(),
  fundedAt: instant,
  paidAt: instant.nullable(),
  /** Held: when escrow is released on its own; null while not known (the work or the deal not done). */
  releaseAt: instant.nullable(),
});
export type Earning = z.infer<typeof earning>;

export const getEarnings = {
  summary: "The signed-in creator's earnings: every funded deal, paid or held, newest first",
  response: {
    200: z.object({
      earnings: z.array(earning),
      totals: z.object({ paidCents: z.number().int(), heldCents: z.number().int(), commissionCents: z.number().int() }),
    }),
  },
};
export type Earnings = z.infer<(typeof getEarnings.response)[200]>;
