/**
 * The local Stripe: a small HTTP server speaking the subset of Stripe's API that Pacta's payment
 * adapter uses, so `npm start` and the tests run the whole money flow with no Stripe account while
 * the production adapter (stripe-node, pointed here with its host/port/protocol options) is the code
 * under test. Its limits are written down in docs/decisions/014-money-on-stripe-and-the-local-stripe.md; it is deliberately
 * small and keeps everything in memory.
 *
 * What it does like Stripe: form-encoded requests, `{ error: { type, code, message, param } }` errors,
 * Idempotency-Key replay (same key + same parameters → the first answer again, with
 * `Idempotent-Replayed: true`; same key + other parameters → 400), object shapes with the fields the
 * adapter reads, and webhooks signed with `Stripe-Signature: t=…,v1=HMAC-SHA256(secret, "t.payload")`.
 */
import { createHmac, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseStripeForm, type FormObject, type FormValue } from './form-body.ts';
import { checkoutPage, onboardingPage, portalPage, usd, type CheckoutLine } from './pages.ts';

type Json = string | number | boolean | null | undefined | Json[] | { [key: string]: Json };
export type StripeObject = { id: string; object: string; [key: string]: Json };
export type LocalStripeEvent = {
  id: string;
  object: 'event';
  type: string;
  created: number;
  data: { object: StripeObject };
  [key: string]: Json;
};

export type LocalStripeOptions = {
  /** The key stripe-node must send (`Authorization: Bearer …`). */
  secretKey: string;
  /** Signs webhooks; the server verifies with the same secret. */
  webhookSecret: string;
  /** Where webhooks go (settable later: the app's port may be known only after this starts). */
  webhookUrl?: string;
  /** 'auto' delivers each event as it happens; 'manual' only records them (tests deliver them in any order). */
  delivery?: 'auto' | 'manual';
  port?: number;
  /** Interface to listen on (default 127.0.0.1). */
  host?: string;
  /** Host name the browser uses for the hosted pages (default: `host`). */
  publicHostname?: string;
};

export type LocalStripe = {
  url: string;
  port: number;
  /** Every event created so far, oldest first. */
  events: LocalStripeEvent[];
  setWebhookUrl(url: string): void;
  /** Switches between delivering events as they happen and only recording them. */
  setDelivery(mode: 'auto' | 'manual'): void;
  /** Posts one event to the webhook URL, signed; resolves with the HTTP status the server answered. */
  deliver(event: LocalStripeEvent): Promise<number>;
  /** Resolves once every event queued for automatic delivery has been delivered (or given up on). */
  idle(): Promise<void>;
  close(): Promise<void>;
};

class StripeApiError extends Error {
  constructor(
    readonly status: number,
    readonly type: string,
    message: string,
    readonly extra: { code?: string; param?: string; decline_code?: string } = {},
  ) {
    super(message);
  }
}

const API_VERSION = '2025-local';
const now = () => Math.floor(Date.now() / 1000);
const newId = (prefix: string) => `${prefix}_${randomBytes(12).toString('base64url').replace(/[-_]/g, 'x')}`;

function str(value: FormValue | undefined): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}
function obj(value: FormValue | undefined): FormObject {
  return value && typeof value === 'object' && !Array.isArray(value) ? value : {};
}
function list(value: FormValue | undefined): FormValue[] {
  return Array.isArray(value) ? value : [];
}
function int(value: FormValue | undefined, param: string, opts: { required?: boolean } = {}): number | undefined {
  const text = str(value);
  if (text === undefined) {
    if (opts.required) throw missing(param);
    return undefined;
  }
  if (!/^\d+$/.test(text))
    throw new StripeApiError(400, 'invalid_request_error', `Invalid integer: ${text}`, {
      code: 'parameter_invalid_integer',
      param,
    });
  return Number(text);
}
function metadata(value: FormValue | undefined): { [key: string]: Json } {
  const out: { [key: string]: Json } = {};
  for (const [k, v] of Object.entries(obj(value))) if (typeof v === 'string') out[k] = v;
  return out;
}
const missing = (param: string) =>
  new StripeApiError(400, 'invalid_request_error', `Missing required param: ${param}.`, {
    code: 'parameter_missing',
    param,
  });
const noSuch = (what: string, id: string, param = 'id') =>
  new StripeApiError(404, 'invalid_request_error', `No such ${what}: '${id}'`, { code: 'resource_missing', param });

function listOf(data: StripeObject[], url: string): StripeObject {
  return { id: '', object: 'list', data, has_more: false, url } as unknown as StripeObject;
}

export async function startLocalStripe(options: LocalStripeOptions): Promise<LocalStripe> {
  const store = new Map<string, StripeObject>();
  const idempotency = new Map<string, { fingerprint: string; status: number; body: string }>();
  const events: LocalStripeEvent[] = [];
  /** Hosted-page tokens (account links are single-use, as Stripe's are). */
  const onboardingLinks = new Map<
    string,
    { account: string; returnUrl: string; refreshUrl: string; expiresAt: number; used: boolean }
  >();
  let webhookUrl = options.webhookUrl;
  let delivery = options.delivery ?? 'auto';
  let baseUrl = '';
  let queue: Promise<void> = Promise.resolve();

  const put = (o: StripeObject): StripeObject => {
    store.set(o.id, o);
    return o;
  };
  const get = (id: string | undefined, object: string, what: string, param = 'id'): StripeObject => {
    const o = id ? store.get(id) : undefined;
    if (!o || o.object !== object) throw noSuch(what, id ?? '', param);
    return o;
  };
  const snapshot = (o: StripeObject): StripeObject => structuredClone(o);

  function emit(type: string, o: StripeObject): void {
    const event: LocalStripeEvent = {
      id: newId('evt'),
      object: 'event',
      api_version: API_VERSION,
      created: now(),
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      type,
      data: { object: snapshot(o) },
    };
    events.push(event);
    if (delivery === 'auto') {
      queue = queue.then(() => deliverWithRetries(event));
    }
  }

  async function deliver(event: LocalStripeEvent): Promise<number> {
    if (!webhookUrl) return 0;
    const payload = JSON.stringify(event);
    const timestamp = now();
    const signature = createHmac('sha256', options.webhookSecret).update(`${timestamp}.${payload}`).digest('hex');
    const response = await fetch(webhookUrl, {
      method: 'POST',
      headers: {
        'content-type': 'application/json; charset=utf-8',
        'stripe-signature': `t=${timestamp},v1=${signature}`,
      },
      body: payload,
    });
    await response.arrayBuffer();
    return response.status;
  }

  /** Stripe retries failed deliveries for days; locally a few quick tries are enough. */
  async function deliverWithRetries(event: LocalStripeEvent): Promise<void> {
    for (let attempt = 0; attempt < 5; attempt++) {
      try {
        const status = await deliver(event);
        if (status === 0 || (status >= 200 && status < 300)) return;
      } catch {
        // server not reachable yet: retry
      }
      await new Promise((r) => setTimeout(r, 200 * 2 ** attempt));
    }
  }

  // ------------------------------------------------------------------ resources

  function createCustomer(p: FormObject): StripeObject {
    return put({
      id: newId('cus'),
      object: 'customer',
      created: now(),
      livemode: false,
      email: str(p.email) ?? null,
      name: str(p.name) ?? null,
      metadata: metadata(p.metadata),
    });
  }

  function createPrice(p: FormObject): StripeObject {
    const unitAmount = int(p.unit_amount, 'unit_amount', { required: true })!;
    const currency = str(p.currency);
    if (!currency) throw missing('currency');
    let product = str(p.product);
    if (!product) {
      const data = obj(p.product_data);
      if (!str(data.name)) throw missing('product_data[name]');
      product = put({ id: newId('prod'), object: 'product', name: str(data.name)!, active: true, created: now() }).id;
    }
    const lookupKey = str(p.lookup_key);
    if (lookupKey) {
      for (const o of store.values()) {
        if (o.object === 'price' && o.lookup_key === lookupKey && o.active) {
          if (str(p.transfer_lookup_key) === 'true') o.lookup_key = null;
          else
            throw new StripeApiError(
              400,
              'invalid_request_error',
              `A price (\`${o.id}\`) already uses that lookup key.`,
              { code: 'lookup_key_exists', param: 'lookup_key' },
            );
        }
      }
    }
    const recurring = obj(p.recurring);
    const interval = str(recurring.interval);
    if (recurring.interval !== undefined && !['day', 'week', 'month', 'year'].includes(interval ?? '')) {
      throw new StripeApiError(400, 'invalid_request_error', 'Invalid recurring[interval].', {
        param: 'recurring[interval]',
      });
    }
    return put({
      id: newId('price'),
      object: 'price',
      active: true,
      created: now(),
      currency,
      unit_amount: unitAmount,
      product,
      lookup_key: lookupKey ?? null,
      type: interval ? 'recurring' : 'one_time',
      recurring: interval ? { interval, interval_count: 1 } : null,
      metadata: metadata(p.metadata),
    });
  }

  function listPrices(q: FormObject): StripeObject {
    const keys = list(q.lookup_keys).filter((k): k is string => typeof k === 'string');
    const active = str(q.active);
    const data = [...store.values()].filter(
      (o) =>
        o.object === 'price' &&
        (keys.length === 0 || keys.includes(String(o.lookup_key))) &&
        (active === undefined || String(o.active) === active),
    );
    return listOf(data, '/v1/prices');
  }

  type SessionLine = { name: string; amount: number; quantity: number; price: string | null; interval: string | null };
  const sessionLines = new Map<string, SessionLine[]>();
  const sessionExtras = new Map<string, { subscriptionData: FormObject; paymentIntentData: FormObject }>();

  function createCheckoutSession(p: FormObject): StripeObject {
    const mode = str(p.mode);
    if (mode !== 'payment' && mode !== 'subscription') {
      throw new StripeApiError(
        400,
        'invalid_request_error',
        'Invalid mode: must be one of payment or subscription (setup is not supported locally).',
        { param: 'mode' },
      );
    }
    const successUrl = str(p.success_url);
    if (!successUrl) throw missing('success_url');
    const customer = str(p.customer);
    if (customer) get(customer, 'customer', 'customer', 'customer');
    const items = list(p.line_items);
    if (items.length === 0) throw missing('line_items');
    const lines: SessionLine[] = items.map((raw, i) => {
      const item = obj(raw);
      const quantity = int(item.quantity, `line_items[${i}][quantity]`) ?? 1;
      const priceId = str(item.price);
      if (priceId) {
        const price = get(priceId, 'price', 'price', `line_items[${i}][price]`);
        const product = store.get(String(price.product));
        const recurring = price.recurring as { interval: string } | null;
        return {
          name: String(product?.name ?? 'Item'),
          amount: Number(price.unit_amount),
          quantity,
          price: priceId,
          interval: recurring?.interval ?? null,
        };
      }
      const data = obj(item.price_data);
      const amount = int(data.unit_amount, `line_items[${i}][price_data][unit_amount]`, { required: true })!;
      const name = str(obj(data.product_data).name);
      if (!name) throw missing(`line_items[${i}][price_data][product_data][name]`);
      return { name, amount, quantity, price: null, interval: str(obj(data.recurring).interval) ?? null };
    });
    if (mode === 'subscription' && lines.some((l) => !l.interval)) {
      throw new StripeApiError(
        400,
        'invalid_request_error',
        'In subscription mode every line item needs a recurring price.',
        { param: 'line_items' },
      );
    }
    if (mode === 'payment' && lines.some((l) => l.interval)) {
      throw new StripeApiError(400, 'invalid_request_error', 'In payment mode line items need one-time prices.', {
        param: 'line_items',
      });
    }
    const id = newId('cs_test');
    sessionLines.set(id, lines);
    sessionExtras.set(id, {
      subscriptionData: obj(p.subscription_data),
      paymentIntentData: obj(p.payment_intent_data),
    });
    return put({
      id,
      object: 'checkout.session',
      mode,
      status: 'open',
      payment_status: 'unpaid',
      url: `${baseUrl}/checkout/${id}`,
      success_url: successUrl,
      cancel_url: str(p.cancel_url) ?? null,
      customer: customer ?? null,
      customer_email: str(p.customer_email) ?? null,
      client_reference_id: str(p.client_reference_id) ?? null,
      metadata: metadata(p.metadata),
      amount_total: lines.reduce((s, l) => s + l.amount * l.quantity, 0),
      currency: 'usd',
      payment_intent: null,
      subscription: null,
      created: now(),
      expires_at: now() + 24 * 3600,
      livemode: false,
    });
  }

  /** What the hosted checkout page does when a card is submitted. Returns an error message for the page, or undefined. */
  function payCheckoutSession(session: StripeObject, form: FormObject): string | undefined {
    if (session.status !== 'open') return 'This checkout session is no longer open.';
    const card = (str(form.card) ?? '').replace(/\D/g, '');
    const lines = sessionLines.get(session.id)!;
    const extras = sessionExtras.get(session.id)!;
    const outcome =
      card === '4242424242424242'
        ? 'succeeds'
        : card === '4000000000000259'
          ? 'disputed'
          : card === '4000000000000002'
            ? 'declined'
            : 'invalid';
    if (outcome === 'invalid') return 'Your card number is incorrect.';
    let customer = session.customer as string | null;
    if (!customer) {
      customer = createCustomer({ email: str(form.email) ?? '' }).id;
      session.customer = customer;
    }

    if (session.mode === 'subscription') {
      if (outcome === 'declined') return 'Your card was declined.';
      const trialDays = int(extras.subscriptionData.trial_period_days, 'subscription_data[trial_period_days]') ?? 0;
      const line = lines[0]!;
      const start = now();
      const periodEnd =
        trialDays > 0 ? start + trialDays * 86400 : start + (line.interval === 'year' ? 365 : 30) * 86400;
      const subscription = put({
        id: newId('sub'),
        object: 'subscription',
        customer,
        status: trialDays > 0 ? 'trialing' : 'active',
        items: {
          object: 'list',
          data: [
            {
              id: newId('si'),
              object: 'subscription_item',
              quantity: line.quantity,
              price: snapshot(store.get(line.price!)!),
              current_period_start: start,
              current_period_end: periodEnd,
            },
          ],
        },
        metadata: metadata(extras.subscriptionData.metadata),
        cancel_at_period_end: false,
        cancel_at: null,
        canceled_at: null,
        ended_at: null,
        start_date: start,
        trial_start: trialDays > 0 ? start : null,
        trial_end: trialDays > 0 ? periodEnd : null,
        latest_invoice: null,
        created: start,
        livemode: false,
      });
      const amount = trialDays > 0 ? 0 : line.amount * line.quantity;
      const invoice = put({
        id: newId('in'),
        object: 'invoice',
        customer,
        status: 'paid',
        amount_due: amount,
        amount_paid: amount,
        currency: 'usd',
        parent: {
          type: 'subscription_details',
          subscription_details: { subscription: subscription.id, metadata: subscription.metadata },
        },
        created: start,
      });
      subscription.latest_invoice = invoice.id;
      session.status = 'complete';
      session.payment_status = trialDays > 0 ? 'no_payment_required' : 'paid';
      session.subscription = subscription.id;
      emit('customer.subscription.created', subscription);
      emit('invoice.paid', invoice);
      emit('checkout.session.completed', session);
      return undefined;
    }

    // payment mode: one PaymentIntent per session, reused across attempts (as Stripe's is)
    const piData = extras.paymentIntentData;
    let intent = session.payment_intent ? store.get(String(session.payment_intent))! : undefined;
    if (!intent) {
      intent = put({
        id: newId('pi'),
        object: 'payment_intent',
        amount: Number(session.amount_total),
        amount_received: 0,
        currency: 'usd',
        customer,
        status: 'requires_payment_method',
        latest_charge: null,
        last_payment_error: null,
        transfer_group: str(piData.transfer_group) ?? null,
        metadata: metadata(piData.metadata),
        created: now(),
        livemode: false,
      });
      session.payment_intent = intent.id;
    }
    if (outcome === 'declined') {
      intent.status = 'requires_payment_method';
      intent.last_payment_error = {
        type: 'card_error',
        code: 'card_declined',
        decline_code: 'generic_decline',
        message: 'Your card was declined.',
      };
      emit('payment_intent.payment_failed', intent);
      return 'Your card was declined.';
    }
    const charge = put({
      id: newId('ch'),
      object: 'charge',
      amount: Number(intent.amount),
      amount_captured: Number(intent.amount),
      amount_refunded: 0,
      currency: 'usd',
      customer,
      paid: true,
      captured: true,
      refunded: false,
      disputed: false,
      status: 'succeeded',
      payment_intent: intent.id,
      transfer_group: intent.transfer_group,
      metadata: intent.metadata,
      refunds: { object: 'list', data: [], has_more: false },
      created: now(),
      livemode: false,
    });
    intent.status = 'succeeded';
    intent.amount_received = intent.amount;
    intent.latest_charge = charge.id;
    intent.last_payment_error = null;
    session.status = 'complete';
    session.payment_status = 'paid';
    emit('charge.succeeded', charge);
    emit('payment_intent.succeeded', intent);
    emit('checkout.session.completed', session);
    if (outcome === 'disputed') {
      const dispute = put({
        id: newId('dp'),
        object: 'dispute',
        amount: Number(charge.amount),
        currency: 'usd',
        charge: charge.id,
        payment_intent: intent.id,
        reason: 'fraudulent',
        status: 'needs_response',
        created: now(),
        livemode: false,
      });
      charge.disputed = true;
      emit('charge.dispute.created', dispute);
    }
    return undefined;
  }

  /**
   * As Stripe: only an open session can be expired; it can no longer be paid, its URL is gone, and
   * a PaymentIntent it had started (a declined attempt) is canceled.
   */
  function expireCheckoutSession(session: StripeObject): StripeObject {
    if (session.status !== 'open') {
      throw new StripeApiError(
        400,
        'invalid_request_error',
        'Only Checkout Sessions with a status in ["open"] can be expired.',
        { code: 'checkout_session_not_open' },
      );
    }
    session.status = 'expired';
    session.url = null;
    const intent = session.payment_intent ? store.get(String(session.payment_intent)) : undefined;
    if (intent && intent.status !== 'succeeded') {
      intent.status = 'canceled';
      intent.canceled_at = now();
      emit('payment_intent.canceled', intent);
    }
    emit('checkout.session.expired', session);
    return session;
  }

  function updateSubscription(sub: StripeObject, p: FormObject): StripeObject {
    const cancel = str(p.cancel_at_period_end);
    if (cancel !== undefined) {
      if (sub.status === 'canceled')
        throw new StripeApiError(
          400,
          'invalid_request_error',
          'A canceled subscription can only update its cancellation_details and metadata.',
        );
      const item = (sub.items as { data: { current_period_end: number }[] }).data[0]!;
      sub.cancel_at_period_end = cancel === 'true';
      sub.cancel_at = cancel === 'true' ? item.current_period_end : null;
      sub.canceled_at = cancel === 'true' ? now() : null;
    }
    if (p.metadata) sub.metadata = { ...(sub.metadata as { [k: string]: Json }), ...metadata(p.metadata) };
    const trialEnd = str(p.trial_end);
    if (trialEnd !== undefined) {
      // Stripe's way to end a trial early (the local Stripe has no clock): trial_end=now charges the
      // first period at once, so the subscription becomes active with a paid invoice.
      if (trialEnd !== 'now')
        throw new StripeApiError(400, 'invalid_request_error', 'The local Stripe supports only trial_end=now.', {
          param: 'trial_end',
        });
      if (sub.status !== 'trialing')
        throw new StripeApiError(400, 'invalid_request_error', 'This subscription is not in a trial.', {
          param: 'trial_end',
        });
      const item = (
        sub.items as {
          data: {
            quantity: number;
            price: { unit_amount: number; recurring: { interval: string } };
            current_period_start: number;
            current_period_end: number;
          }[];
        }
      ).data[0]!;
      const start = now();
      item.current_period_start = start;
      item.current_period_end = start + (item.price.recurring.interval === 'year' ? 365 : 30) * 86400;
      sub.trial_end = start;
      sub.status = 'active';
      const amount = item.price.unit_amount * item.quantity;
      const invoice = put({
        id: newId('in'),
        object: 'invoice',
        customer: sub.customer,
        status: 'paid',
        amount_due: amount,
        amount_paid: amount,
        currency: 'usd',
        parent: {
          type: 'subscription_details',
          subscription_details: { subscription: sub.id, metadata: sub.metadata },
        },
        created: start,
      });
      sub.latest_invoice = invoice.id;
      emit('invoice.paid', invoice);
    }
    emit('customer.subscription.updated', sub);
    return sub;
  }

  function cancelSubscription(sub: StripeObject): StripeObject {
    if (sub.status === 'canceled') return sub;
    sub.status = 'canceled';
    sub.canceled_at = sub.canceled_at ?? now();
    sub.ended_at = now();
    emit('customer.subscription.deleted', sub);
    return sub;
  }

  function chargeOfIntent(intentId: string | undefined, param: string): { intent: StripeObject; charge: StripeObject } {
    const intent = get(intentId, 'payment_intent', 'payment_intent', param);
    if (!intent.latest_charge) {
      throw new StripeApiError(
        400,
        'invalid_request_error',
        `This PaymentIntent (${intent.id}) does not have a successful charge to refund.`,
        { code: 'charge_not_refundable' },
      );
    }
    return { intent, charge: store.get(String(intent.latest_charge))! };
  }

  function createRefund(p: FormObject): StripeObject {
    const chargeId = str(p.charge);
    const { charge } = chargeId
      ? { charge: get(chargeId, 'charge', 'charge', 'charge') }
      : chargeOfIntent(
          str(p.payment_intent) ??
            (() => {
              throw missing('payment_intent');
            })(),
          'payment_intent',
        );
    const remaining = Number(charge.amount) - Number(charge.amount_refunded);
    const amount = int(p.amount, 'amount') ?? remaining;
    if (amount <= 0)
      throw new StripeApiError(400, 'invalid_request_error', 'Refund amount must be positive.', { param: 'amount' });
    if (amount > remaining) {
      throw new StripeApiError(
        400,
        'invalid_request_error',
        `Refund amount (${usd(amount)}) is greater than unrefunded amount on charge (${usd(remaining)})`,
        {
          code: 'amount_too_large',
          param: 'amount',
        },
      );
    }
    const refund = put({
      id: newId('re'),
      object: 'refund',
      amount,
      currency: 'usd',
      charge: charge.id,
      payment_intent: charge.payment_intent,
      status: 'succeeded',
      reason: str(p.reason) ?? null,
      metadata: metadata(p.metadata),
      created: now(),
    });
    charge.amount_refunded = Number(charge.amount_refunded) + amount;
    charge.refunded = charge.amount_refunded === charge.amount;
    (charge.refunds as { data: Json[] }).data.unshift(snapshot(refund));
    emit('refund.created', refund);
    emit('charge.refunded', charge);
    return refund;
  }

  function createAccount(p: FormObject): StripeObject {
    const type = str(p.type);
    if (type !== 'express') {
      throw new StripeApiError(
        400,
        'invalid_request_error',
        'Only Express accounts are supported by the local Stripe.',
        { param: 'type' },
      );
    }
    return put({
      id: newId('acct'),
      object: 'account',
      type,
      email: str(p.email) ?? null,
      country: str(p.country) ?? 'US',
      details_submitted: false,
      charges_enabled: false,
      payouts_enabled: false,
      capabilities: { transfers: 'inactive' },
      requirements: {
        currently_due: ['external_account', 'individual.first_name', 'tos_acceptance.date'],
        disabled_reason: 'requirements.past_due',
      },
      metadata: metadata(p.metadata),
      created: now(),
    });
  }

  function createAccountLink(p: FormObject): StripeObject {
    const account = get(
      str(p.account) ??
        (() => {
          throw missing('account');
        })(),
      'account',
      'account',
      'account',
    );
    const returnUrl = str(p.return_url);
    const refreshUrl = str(p.refresh_url);
    if (!returnUrl) throw missing('return_url');
    if (!refreshUrl) throw missing('refresh_url');
    const type = str(p.type);
    if (type !== 'account_onboarding' && type !== 'account_update') throw missing('type');
    const token = randomBytes(16).toString('hex');
    const expiresAt = now() + 300;
    onboardingLinks.set(token, { account: account.id, returnUrl, refreshUrl, expiresAt, used: false });
    return {
      id: '',
      object: 'account_link',
      created: now(),
      expires_at: expiresAt,
      url: `${baseUrl}/connect/onboarding/${token}`,
    } as unknown as StripeObject;
  }

  function createTransfer(p: FormObject): StripeObject {
    const amount = int(p.amount, 'amount', { required: true })!;
    if (amount <= 0)
      throw new StripeApiError(400, 'invalid_request_error', 'Amount must be at least $0.01 usd', { param: 'amount' });
    if (str(p.currency) !== 'usd')
      throw new StripeApiError(400, 'invalid_request_error', 'Only usd is supported by the local Stripe.', {
        param: 'currency',
      });
    const destination = get(
      str(p.destination) ??
        (() => {
          throw missing('destination');
        })(),
      'account',
      'account',
      'destination',
    );
    if ((destination.capabilities as { transfers: string }).transfers !== 'active') {
      throw new StripeApiError(
        400,
        'invalid_request_error',
        'Your destination account needs to have at least one of the following capabilities enabled: transfers, crypto_transfers, legacy_payments',
        { code: 'insufficient_capabilities_for_transfer', param: 'destination' },
      );
    }
    const source = str(p.source_transaction);
    if (source) {
      const charge = get(source, 'charge', 'charge', 'source_transaction');
      const transferred = [...store.values()]
        .filter((o) => o.object === 'transfer' && o.source_transaction === source)
        .reduce((s, t) => s + Number(t.amount) - Number(t.amount_reversed), 0);
      const available = Number(charge.amount) - Number(charge.amount_refunded) - transferred;
      if (amount > available) {
        throw new StripeApiError(
          400,
          'invalid_request_error',
          `Insufficient funds on the source transaction: ${usd(available)} available.`,
          {
            code: 'balance_insufficient',
            param: 'amount',
          },
        );
      }
    }
    const transfer = put({
      id: newId('tr'),
      object: 'transfer',
      amount,
      amount_reversed: 0,
      reversed: false,
      currency: 'usd',
      destination: destination.id,
      transfer_group: str(p.transfer_group) ?? null,
      source_transaction: source ?? null,
      metadata: metadata(p.metadata),
      created: now(),
      livemode: false,
    });
    emit('transfer.created', transfer);
    return transfer;
  }

  function createPortalSession(p: FormObject): StripeObject {
    const customer = get(
      str(p.customer) ??
        (() => {
          throw missing('customer');
        })(),
      'customer',
      'customer',
      'customer',
    );
    const id = newId('bps');
    return put({
      id,
      object: 'billing_portal.session',
      customer: customer.id,
      return_url: str(p.return_url) ?? null,
      url: `${baseUrl}/portal/${id}`,
      created: now(),
      livemode: false,
    });
  }

  // ------------------------------------------------------------------ API routing

  type Handler = (params: string[], body: FormObject) => StripeObject;
  const routes: { method: string; pattern: RegExp; handler: Handler }[] = [];
  const route = (method: string, path: string, handler: Handler) =>
    routes.push({ method, pattern: new RegExp(`^${path.replace(/:\w+/g, '([^/]+)')}$`), handler });

  route('POST', '/v1/customers', (_, b) => createCustomer(b));
  route('GET', '/v1/customers/:id', ([id]) => get(id, 'customer', 'customer'));
  route('POST', '/v1/prices', (_, b) => createPrice(b));
  route('GET', '/v1/prices', (_, q) => listPrices(q));
  route('GET', '/v1/prices/:id', ([id]) => get(id, 'price', 'price'));
  route('POST', '/v1/checkout/sessions', (_, b) => createCheckoutSession(b));
  route('GET', '/v1/checkout/sessions/:id', ([id]) => get(id, 'checkout.session', 'checkout.session'));
  route('GET', '/v1/checkout/sessions', (_, q) =>
    listOf(
      [...store.values()]
        .filter(
          (o) =>
            o.object === 'checkout.session' &&
            (!str(q.payment_intent) || o.payment_intent === str(q.payment_intent)) &&
            (!str(q.customer) || o.customer === str(q.customer)),
        )
        .reverse()
        .slice(0, int(q.limit, 'limit') ?? 10),
      '/v1/checkout/sessions',
    ),
  );
  route('POST', '/v1/checkout/sessions/:id/expire', ([id]) =>
    expireCheckoutSession(get(id, 'checkout.session', 'checkout.session')),
  );
  route('GET', '/v1/subscriptions/:id', ([id]) => get(id, 'subscription', 'subscription'));
  route('POST', '/v1/subscriptions/:id', ([id], b) => updateSubscription(get(id, 'subscription', 'subscription'), b));
  route('DELETE', '/v1/subscriptions/:id', ([id]) => cancelSubscription(get(id, 'subscription', 'subscription')));
  route('GET', '/v1/subscriptions', (_, q) =>
    listOf(
      [...store.values()].filter(
        (o) => o.object === 'subscription' && (!str(q.customer) || o.customer === str(q.customer)),
      ),
      '/v1/subscriptions',
    ),
  );
  route('GET', '/v1/invoices/:id', ([id]) => get(id, 'invoice', 'invoice'));
  route('POST', '/v1/billing_portal/sessions', (_, b) => createPortalSession(b));
  route('GET', '/v1/payment_intents/:id', ([id]) => get(id, 'payment_intent', 'payment_intent'));
  route('GET', '/v1/charges/:id', ([id]) => get(id, 'charge', 'charge'));
  route('POST', '/v1/refunds', (_, b) => createRefund(b));
  route('GET', '/v1/refunds/:id', ([id]) => get(id, 'refund', 'refund'));
  route('GET', '/v1/disputes/:id', ([id]) => get(id, 'dispute', 'dispute'));
  route('POST', '/v1/disputes/:id', ([id], b) => {
    // As Stripe's test mode: evidence reading 'winning_evidence' wins the dispute, 'losing_evidence'
    // loses it (the bank decides at once); other evidence is only kept.
    const dispute = get(id, 'dispute', 'dispute');
    const text = str(obj(b.evidence).uncategorized_text);
    if (text !== undefined) dispute.evidence = { uncategorized_text: text };
    const decided = text === 'winning_evidence' ? 'won' : text === 'losing_evidence' ? 'lost' : undefined;
    if (decided && dispute.status === 'needs_response') {
      dispute.status = decided;
      emit('charge.dispute.closed', dispute);
    }
    return dispute;
  });
  route('POST', '/v1/disputes/:id/close', ([id]) => {
    // Closing (accepting) a dispute means it is lost: the cardholder keeps the money.
    const dispute = get(id, 'dispute', 'dispute');
    if (dispute.status !== 'lost') {
      dispute.status = 'lost';
      emit('charge.dispute.closed', dispute);
    }
    return dispute;
  });
  route('POST', '/v1/accounts', (_, b) => createAccount(b));
  route('GET', '/v1/accounts/:id', ([id]) => get(id, 'account', 'account'));
  route('POST', '/v1/account_links', (_, b) => createAccountLink(b));
  route('POST', '/v1/transfers', (_, b) => createTransfer(b));
  route('GET', '/v1/transfers/:id', ([id]) => get(id, 'transfer', 'transfer'));
  route('GET', '/v1/events/:id', ([id]) => {
    const event = events.find((e) => e.id === id);
    if (!event) throw noSuch('event', id ?? '');
    return event as unknown as StripeObject;
  });

  function handleApi(
    method: string,
    path: string,
    rawBody: string,
    query: string,
    headers: http.IncomingHttpHeaders,
  ): { status: number; body: string; replayed?: boolean } {
    const auth = headers.authorization ?? '';
    if (auth !== `Bearer ${options.secretKey}`) {
      const shown = auth.replace(/^Bearer /, '');
      throw new StripeApiError(
        401,
        'invalid_request_error',
        shown ? `Invalid API Key provided: ${shown.slice(0, 8)}****` : 'You did not provide an API key.',
      );
    }
    const key = typeof headers['idempotency-key'] === 'string' ? headers['idempotency-key'] : undefined;
    const fingerprint = `${method} ${path} ${rawBody}`;
    if (method === 'POST' && key) {
      const seen = idempotency.get(key);
      if (seen) {
        if (seen.fingerprint !== fingerprint) {
          throw new StripeApiError(
            400,
            'idempotency_error',
            'Keys for idempotent requests can only be used with the same parameters they were first used with. ' +
              `Try using a key other than '${key}' if you meant to execute a different request.`,
          );
        }
        return { status: seen.status, body: seen.body, replayed: true };
      }
    }
    const match = routes.map((r) => ({ r, m: r.method === method ? r.pattern.exec(path) : null })).find((x) => x.m);
    if (!match)
      throw new StripeApiError(
        404,
        'invalid_request_error',
        `Unrecognized request URL (${method}: ${path}). The local Stripe supports only what Pacta uses.`,
      );
    const params = parseStripeForm(method === 'GET' || method === 'DELETE' ? query : rawBody);
    let status = 200;
    let body: string;
    try {
      body = JSON.stringify(match.r.handler(match.m!.slice(1), params));
    } catch (err) {
      if (!(err instanceof StripeApiError)) throw err;
      status = err.status;
      body = JSON.stringify(errorBody(err));
    }
    // Stripe saves the result (errors included, except 5xx) for 24 hours under the key.
    if (method === 'POST' && key) idempotency.set(key, { fingerprint, status, body });
    return { status, body };
  }

  function errorBody(err: StripeApiError) {
    return { error: { type: err.type, message: err.message, ...err.extra } };
  }

  // ------------------------------------------------------------------ hosted pages

  function handlePage(
    method: string,
    path: string,
    form: FormObject,
  ): { status: number; html?: string; redirect?: string } | undefined {
    let m = /^\/checkout\/([^/]+)$/.exec(path);
    if (m) {
      const session = store.get(m[1]!);
      if (!session || session.object !== 'checkout.session') return { status: 404, html: checkoutGone() };
      const lines: CheckoutLine[] = sessionLines.get(session.id)!.map((l) => ({
        name: l.quantity > 1 ? `${l.name} × ${l.quantity}` : l.name,
        amountCents: l.amount * l.quantity,
        interval: l.interval ?? undefined,
      }));
      const trialDays =
        Number(str(sessionExtras.get(session.id)!.subscriptionData.trial_period_days) ?? 0) || undefined;
      const customer = session.customer ? store.get(String(session.customer)) : undefined;
      const render = (error?: string, status = 200) => ({
        status,
        html: checkoutPage({
          action: `/checkout/${session.id}`,
          cancelUrl: String(session.cancel_url ?? session.success_url),
          merchant: 'Pacta',
          lines,
          trialDays,
          email: String(customer?.email ?? session.customer_email ?? ''),
          error,
        }),
      });
      if (method === 'GET') {
        if (session.status === 'complete') return { status: 303, redirect: successUrl(session) };
        if (session.status === 'expired') return render('This checkout session has expired.', 410);
        return render();
      }
      const error = payCheckoutSession(session, form);
      if (error) return render(error, 402);
      return { status: 303, redirect: successUrl(session) };
    }
    m = /^\/connect\/onboarding\/([^/]+)$/.exec(path);
    if (m) {
      const link = onboardingLinks.get(m[1]!);
      if (!link) return { status: 404, html: checkoutGone() };
      if (link.used || link.expiresAt < now()) return { status: 303, redirect: link.refreshUrl };
      const account = store.get(link.account)!;
      if (method === 'GET')
        return { status: 200, html: onboardingPage({ action: path, email: String(account.email ?? '') }) };
      if (!str(form.name) || !str(form.routing) || !str(form.account)) {
        return {
          status: 400,
          html: onboardingPage({
            action: path,
            email: String(account.email ?? ''),
            error: 'Please fill in every field.',
          }),
        };
      }
      link.used = true;
      account.details_submitted = true;
      account.charges_enabled = true;
      account.payouts_enabled = true;
      account.capabilities = { transfers: 'active' };
      account.requirements = { currently_due: [], disabled_reason: null };
      emit('account.updated', account);
      return { status: 303, redirect: link.returnUrl };
    }
    m = /^\/portal\/([^/]+)$/.exec(path);
    if (m) {
      const session = store.get(m[1]!);
      if (!session || session.object !== 'billing_portal.session') return { status: 404, html: checkoutGone() };
      let notice: string | undefined;
      if (method === 'POST') {
        const sub = store.get(str(form.subscription) ?? '');
        if (!sub || sub.object !== 'subscription' || sub.customer !== session.customer)
          return { status: 404, html: checkoutGone() };
        updateSubscription(sub, { cancel_at_period_end: str(form.do) === 'cancel' ? 'true' : 'false' });
        notice =
          str(form.do) === 'cancel'
            ? 'Your plan will be canceled at the end of the billing period.'
            : 'Your plan will renew.';
      }
      const subscriptions = [...store.values()]
        .filter((o) => o.object === 'subscription' && o.customer === session.customer && o.status !== 'canceled')
        .map((s) => {
          const item = (
            s.items as { data: { current_period_end: number; price: { recurring: { interval: string } } }[] }
          ).data[0]!;
          return {
            id: s.id,
            plan: `Pacta Pro (${item.price.recurring.interval === 'year' ? 'yearly' : 'monthly'})`,
            status: String(s.status),
            cancelAtPeriodEnd: Boolean(s.cancel_at_period_end),
            periodEnd: item.current_period_end,
          };
        });
      return {
        status: 200,
        html: portalPage({ action: path, returnUrl: String(session.return_url ?? '/'), subscriptions, notice }),
      };
    }
    return undefined;
  }

  const successUrl = (session: StripeObject) =>
    String(session.success_url).replace('{CHECKOUT_SESSION_ID}', session.id);
  const checkoutGone = () => '<!doctype html><title>Not found</title><p>This link is not valid (local Stripe).</p>';

  // ------------------------------------------------------------------ server

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const url = new URL(req.url ?? '/', 'http://local');
      const method = req.method ?? 'GET';
      try {
        if (url.pathname.startsWith('/v1/')) {
          const answer = handleApi(method, url.pathname, raw, url.search.slice(1), req.headers);
          res.writeHead(answer.status, {
            'content-type': 'application/json',
            'request-id': newId('req'),
            ...(answer.replayed ? { 'idempotent-replayed': 'true' } : {}),
          });
          res.end(answer.body);
          return;
        }
        const page = handlePage(method, url.pathname, method === 'POST' ? parseStripeForm(raw) : {});
        if (!page) {
          res.writeHead(404, { 'content-type': 'text/plain' });
          res.end('Not found (local Stripe)');
          return;
        }
        if (page.redirect) {
          res.writeHead(page.status, { location: page.redirect });
          res.end();
          return;
        }
        res.writeHead(page.status, { 'content-type': 'text/html; charset=utf-8' });
        res.end(page.html);
      } catch (err) {
        if (err instanceof StripeApiError) {
          res.writeHead(err.status, { 'content-type': 'application/json', 'request-id': newId('req') });
          res.end(JSON.stringify(errorBody(err)));
          return;
        }
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            error: { type: 'api_error', message: err instanceof Error ? err.message : 'Local Stripe error' },
          }),
        );
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, options.host ?? '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  baseUrl = `http://${options.publicHostname ?? options.host ?? '127.0.0.1'}:${port}`;

  return {
    url: baseUrl,
    port,
    events,
    setWebhookUrl: (url) => {
      webhookUrl = url;
    },
    setDelivery: (mode) => {
      delivery = mode;
    },
    deliver,
    idle: async () => {
      let current: Promise<void>;
      do {
        current = queue;
        await current;
      } while (current !== queue);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
