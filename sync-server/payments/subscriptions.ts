import type Stripe from 'stripe';
import { PRO_MONTHLY_PRICE_CENTS, PRO_TRIAL_DAYS, PRO_YEARLY_PRICE_CENTS } from '../../src/domain/fees.ts';
import type { Tx } from '../db/database.ts';
import { HttpError } from '../http/errors.ts';
import { recordLedger } from './ledger.ts';
import { ensureCustomer, loadCaller, notify, type PaymentsDeps } from './payments-deps.ts';
import { stripeMessage } from './stripe-client.ts';

export type ProInterval = 'monthly' | 'yearly';
export type ProTier = 'basic' | 'premium';

/** One Stripe price per interval, found by lookup key (or created) at start; amounts from the fee module. */
const PRICE_PLANS: Record<ProInterval, { lookupKey: string; amountCents: number; interval: 'month' | 'year' }> = {
  monthly: { lookupKey: 'pacta_pro_monthly', amountCents: PRO_MONTHLY_PRICE_CENTS, interval: 'month' },
  yearly: { lookupKey: 'pacta_pro_yearly', amountCents: PRO_YEARLY_PRICE_CENTS, interval: 'year' },
};

/** Subscription states in which the member has Pro (a past_due one keeps it while Stripe retries). */
const LIVE_STATUSES = new Set<Stripe.Subscription.Status>(['trialing', 'active', 'past_due']);

export function createProPrices(deps: PaymentsDeps) {
  let prices: Promise<Record<ProInterval, string>> | undefined;

  async function ensureOne(interval: ProInterval): Promise<string> {
    const plan = PRICE_PLANS[interval];
    const found = await deps.stripe.prices.list({ lookup_keys: [plan.lookupKey], active: true, limit: 1 });
    const price = found.data[0];
    if (price && price.unit_amount === plan.amountCents && price.recurring?.interval === plan.interval) return price.id;
    // No price yet, or the fee module's amount changed: a new price takes the lookup key over.
    const created = await deps.stripe.prices.create({
      currency: 'usd',
      unit_amount: plan.amountCents,
      recurring: { interval: plan.interval },
      lookup_key: plan.lookupKey,
      transfer_lookup_key: Boolean(price),
      product_data: { name: interval === 'monthly' ? 'Pacta Pro (monthly)' : 'Pacta Pro (yearly)' },
    });
    return created.id;
  }

  return {
    /** Looks the prices up once; a failure is retried on the next call. */
    ensure(): Promise<Record<ProInterval, string>> {
      prices ??= (async () => ({ monthly: await ensureOne('monthly'), yearly: await ensureOne('yearly') }))().catch(
        (err: unknown) => {
          prices = undefined;
          throw err;
        },
      );
      return prices;
    },
  };
}

export function createSubscriptions(deps: PaymentsDeps, prices: ReturnType<typeof createProPrices>) {
  const { stripe, db, config } = deps;

  async function createCheckoutSession(
    userId: string,
    body: { userId: string; tier: ProTier; interval: ProInterval; trigger?: string },
  ) {
    // "The caller may only buy for themselves."
    if (body.userId !== userId) throw new HttpError(403, 'not_yourself', 'You can only upgrade your own account.');
    const caller = await db.asService((tx) => loadCaller(tx, userId));
    if (!caller) throw new HttpError(404, 'profile_not_found', 'Profile not found.');
    const { current, hadSubscription } = await db.asService(async (tx) => {
      const { rows } = await tx.query<{ subscription_status: string | null; had_subscription: boolean }>(
        `select subscription_status, stripe_subscription_id is not null as had_subscription
           from public.billing_accounts where user_id = $1`,
        [userId],
      );
      return { current: rows[0]?.subscription_status ?? null, hadSubscription: Boolean(rows[0]?.had_subscription) };
    });
    if (current && LIVE_STATUSES.has(current as Stripe.Subscription.Status)) {
      throw new HttpError(
        409,
        'already_subscribed',
        'You already have a Pro subscription: use Manage subscription to change it.',
      );
    }
    try {
      const priceIds = await prices.ensure();
      const customer = await ensureCustomer(deps, caller);
      // "One free trial per customer": a member or a Stripe customer that ever had a subscription (a
      // trial included, whatever became of it) starts paying at once.
      const trial = !hadSubscription && !(await hadAnySubscription(customer));
      const session = await stripe.checkout.sessions.create({
        mode: 'subscription',
        customer,
        client_reference_id: userId,
        line_items: [{ price: priceIds[body.interval], quantity: 1 }],
        subscription_data: {
          ...(trial ? { trial_period_days: PRO_TRIAL_DAYS } : {}),
          metadata: { user_id: userId, tier: body.tier, interval: body.interval },
        },
        metadata: {
          kind: 'pro_subscription',
          user_id: userId,
          tier: body.tier,
          trigger: (body.trigger ?? '').slice(0, 100),
        },
        success_url: `${config.publicUrl}/pro/success?session_id={CHECKOUT_SESSION_ID}`,
        cancel_url: `${config.publicUrl}/pro?checkout=cancelled`,
      });
      if (!session.url) throw new Error('Checkout session without url');
      return { url: session.url };
    } catch (err) {
      if (err instanceof HttpError) throw err;
      deps.log.error({ err }, 'checkout session failed');
      throw new HttpError(502, 'checkout_failed', 'Failed to start checkout. Please try again.', {
        detail: stripeMessage(err),
      });
    }
  }

  async function hadAnySubscription(customer: string): Promise<boolean> {
    const { data } = await stripe.subscriptions.list({ customer, status: 'all', limit: 1 });
    return data.length > 0;
  }

  async function createBillingPortal(userId: string, returnPath: string) {
    const customer = await db.asService(async (tx) => {
      const { rows } = await tx.query<{ stripe_customer_id: string | null }>(
        `select stripe_customer_id from public.billing_accounts where user_id = $1`,
        [userId],
      );
      return rows[0]?.stripe_customer_id ?? undefined;
    });
    if (!customer) throw new HttpError(409, 'no_subscription', 'You have no subscription to manage yet.');
    try {
      const session = await stripe.billingPortal.sessions.create({
        customer,
        return_url: `${config.publicUrl}${returnPath}`,
      });
      return { url: session.url };
    } catch (err) {
      throw new HttpError(502, 'portal_failed', 'Failed to open the billing portal. Please try again.', {
        detail: stripeMessage(err),
      });
    }
  }

  async function subscriptionState(userId: string) {
    return db.asService(async (tx) => {
      const { rows } = await tx.query(
        `select b.subscription_status, b.subscription_interval, b.subscription_tier, b.current_period_end, b.cancel_at_period_end,
                b.stripe_customer_id is not null as has_customer, b.stripe_subscription_id is not null as had_subscription,
                public.is_pro_user($1) as is_pro, p.pro_tier, p.pro_until
         from public.profiles p left join public.billing_accounts b on b.user_id = p.id where p.id = $1`,
        [userId],
      );
      const r = rows[0];
      return {
        status: (r?.subscription_status as string | null) ?? null,
        interval: (r?.subscription_interval as 'monthly' | 'yearly' | null) ?? null,
        tier: (r?.pro_tier as string | undefined) ?? 'free',
        currentPeriodEnd: (r?.current_period_end as Date | null)?.toISOString() ?? null,
        cancelAtPeriodEnd: Boolean(r?.cancel_at_period_end),
        canManage: Boolean(r?.has_customer),
        isPro: Boolean(r?.is_pro),
        trialAvailable: !r?.had_subscription,
      };
    });
  }

  /**
   * Applies the subscription as Stripe holds it now (never an old event's copy), so events in any
   * order end in the same state. Trialing and active are Pro until the period's end; cancel at period
   * end keeps Pro until then; an ended subscription moves the member to free (which clears the dates).
   */
  async function applySubscription(tx: Tx, sub: Stripe.Subscription): Promise<void> {
    const customerId = typeof sub.customer === 'string' ? sub.customer : sub.customer.id;
    const { rows } = await tx.query<{
      user_id: string;
      stripe_subscription_id: string | null;
      subscription_status: string | null;
    }>(
      `select user_id, stripe_subscription_id, subscription_status from public.billing_accounts
       where stripe_customer_id = $1 or user_id = $2 for update`,
      [customerId, sub.metadata?.user_id ?? null],
    );
    const account = rows[0];
    if (!account) {
      deps.log.warn({ subscription: sub.id }, 'subscription of an unknown customer ignored');
      return;
    }
    const live = LIVE_STATUSES.has(sub.status);
    // An ended older subscription must not undo a newer one the member took since.
    if (!live && account.stripe_subscription_id && account.stripe_subscription_id !== sub.id) return;
    const item = sub.items.data[0];
    const periodEnd = item?.current_period_end ?? sub.trial_end ?? null;
    const interval = item?.price.recurring?.interval === 'year' ? 'yearly' : 'monthly';
    const tier = sub.metadata?.tier === 'basic' ? 'basic' : 'premium';
    const wasLive =
      account.stripe_subscription_id === sub.id &&
      LIVE_STATUSES.has((account.subscription_status ?? '') as Stripe.Subscription.Status);
    await tx.query(
      `update public.billing_accounts set stripe_customer_id = coalesce(stripe_customer_id, $2), stripe_subscription_id = $3,
         subscription_status = $4, subscription_interval = $5, subscription_tier = $6,
         current_period_end = to_timestamp($7), cancel_at_period_end = $8, updated_at = now()
       where user_id = $1`,
      [account.user_id, customerId, sub.id, sub.status, interval, tier, periodEnd, sub.cancel_at_period_end],
    );
    if (live) {
      await tx.query(
        `update public.profiles set pro_tier = $2, pro_since = coalesce(pro_since, to_timestamp($3)), pro_until = to_timestamp($4) where id = $1`,
        [account.user_id, tier, sub.start_date, periodEnd],
      );
      if (!wasLive) {
        await notify(tx, [account.user_id], {
          type: 'pro_started',
          title: 'Welcome to Pro',
          message: sub.status === 'trialing' ? 'Your 7-day free trial has started.' : 'Your Pro membership is active.',
          link: '/settings?section=pro',
        });
        await tx.query(`select public.award_xp($1, 'PRO_UPGRADE', 500, $2)`, [
          account.user_id,
          { subject: sub.id, subscription: sub.id },
        ]);
      }
      // "$10 when a referred user starts a paid Pro subscription": a free trial is not paid yet, so the
      // referrer is rewarded at the first active status (the trial's end, charged by its first paid
      // invoice), not when the trial starts; past_due never paid either. The database pays once per
      // referred user, so a replayed webhook or a later subscription adds nothing.
      const wasActive = account.stripe_subscription_id === sub.id && account.subscription_status === 'active';
      if (sub.status === 'active' && !wasActive) {
        await tx.query(`select public.referral_reward_for_pro_subscription($1, $2)`, [account.user_id, sub.id]);
      }
    } else {
      await tx.query(`update public.profiles set pro_tier = 'free' where id = $1 and pro_tier <> 'free'`, [
        account.user_id,
      ]);
      if (wasLive) {
        await notify(tx, [account.user_id], {
          type: 'pro_ended',
          title: 'Pro membership ended',
          message: 'Your Pro subscription has ended.',
          link: '/pro',
        });
      }
    }
  }

  /** A paid invoice is money in: one ledger row per invoice (trial invoices of $0 are not movements). */
  async function applyInvoice(tx: Tx, invoice: Stripe.Invoice): Promise<void> {
    if (invoice.status !== 'paid' || !invoice.amount_paid) return;
    const customerId = typeof invoice.customer === 'string' ? invoice.customer : invoice.customer?.id;
    const { rows } = await tx.query<{ user_id: string }>(
      `select user_id from public.billing_accounts where stripe_customer_id = $1`,
      [customerId],
    );
    await recordLedger(tx, {
      userId: rows[0]?.user_id,
      kind: 'subscription',
      amountCents: invoice.amount_paid,
      stripeRef: invoice.id,
      memo: 'Pro subscription',
    });
  }

  async function notifyPaymentFailed(tx: Tx, invoice: Stripe.Invoice): Promise<void> {
    const customerId = typeof invoice.customer === 'string' ? invoice.customer : invoice.customer?.id;
    const { rows } = await tx.query<{ user_id: string }>(
      `select user_id from public.billing_accounts where stripe_customer_id = $1`,
      [customerId],
    );
    if (rows[0]) {
      await notify(tx, [rows[0].user_id], {
        type: 'pro_payment_failed',
        title: 'Payment failed',
        message: 'We could not charge your card for Pro. Update it under Manage subscription to keep Pro.',
        link: '/settings?section=pro',
      });
    }
  }

  return {
    createCheckoutSession,
    createBillingPortal,
    subscriptionState,
    applySubscription,
    applyInvoice,
    notifyPaymentFailed,
  };
}

export type Subscriptions = ReturnType<typeof createSubscriptions>;

export function invoiceSubscriptionId(invoice: Stripe.Invoice): string | undefined {
  const ref = invoice.parent?.subscription_details?.subscription;
  return typeof ref === 'string' ? ref : ref?.id;
}
