import Stripe from 'stripe';
import type { Tx } from '../db/database.ts';
import { HttpError } from '../http/errors.ts';
import type { Escrow } from './escrow.ts';
import type { PaymentsDeps } from './payments-deps.ts';
import type { Payouts } from './payouts.ts';
import { invoiceSubscriptionId, type Subscriptions } from './subscriptions.ts';

type Apply = (tx: Tx) => Promise<void>;

/**
 * POST /api/stripe/webhook. The signature is checked on the raw body (a bad one is 400 and changes
 * nothing). Each event is applied once: its id is stored in the same transaction as its effects.
 * Order-independent: the handler fetches the object as Stripe holds it now instead of trusting the
 * event's copy, so an old event arriving late cannot roll the state back.
 */
export function createWebhookHandler(
  deps: PaymentsDeps,
  parts: { subscriptions: Subscriptions; escrow: Escrow; payouts: Payouts },
) {
  const { stripe, db, settings } = deps;
  const { subscriptions, escrow, payouts } = parts;

  /** Phase one (no transaction open): read the current objects from Stripe. Phase two: apply them. */
  async function load(event: Stripe.Event): Promise<Apply | undefined> {
    switch (event.type) {
      case 'checkout.session.completed':
      case 'checkout.session.async_payment_succeeded': {
        const session = await stripe.checkout.sessions.retrieve(event.data.object.id);
        if (session.mode === 'subscription' && session.subscription) {
          const sub = await stripe.subscriptions.retrieve(
            typeof session.subscription === 'string' ? session.subscription : session.subscription.id,
          );
          return (tx) => subscriptions.applySubscription(tx, sub);
        }
        if (session.mode === 'payment' && session.payment_intent) {
          const intent = await stripe.paymentIntents.retrieve(
            typeof session.payment_intent === 'string' ? session.payment_intent : session.payment_intent.id,
          );
          return (tx) => escrow.applyPaymentIntent(tx, intent, session.id);
        }
        return undefined;
      }
      case 'checkout.session.expired': {
        const session = await stripe.checkout.sessions.retrieve(event.data.object.id);
        return (tx) => escrow.applyCheckoutExpired(tx, session);
      }
      case 'customer.subscription.created':
      case 'customer.subscription.updated':
      case 'customer.subscription.deleted': {
        const sub = await stripe.subscriptions.retrieve(event.data.object.id);
        return (tx) => subscriptions.applySubscription(tx, sub);
      }
      case 'invoice.paid':
      case 'invoice.payment_failed': {
        const invoice = await stripe.invoices.retrieve(event.data.object.id!);
        const subId = invoiceSubscriptionId(invoice);
        const sub = subId ? await stripe.subscriptions.retrieve(subId) : undefined;
        return async (tx) => {
          if (event.type === 'invoice.paid') await subscriptions.applyInvoice(tx, invoice);
          else await subscriptions.notifyPaymentFailed(tx, invoice);
          if (sub) await subscriptions.applySubscription(tx, sub);
        };
      }
      case 'payment_intent.succeeded':
      case 'payment_intent.payment_failed':
      case 'payment_intent.canceled': {
        const intent = await stripe.paymentIntents.retrieve(event.data.object.id);
        if (!intent.metadata?.deal_id) return undefined;
        // Which checkout the payment went through decides whether it funds the escrow.
        const sessions = await stripe.checkout.sessions.list({ payment_intent: intent.id, limit: 1 });
        return (tx) => escrow.applyPaymentIntent(tx, intent, sessions.data[0]?.id ?? null);
      }
      case 'charge.refunded': {
        const charge = await stripe.charges.retrieve(event.data.object.id);
        return (tx) => escrow.applyChargeRefunds(tx, charge);
      }
      case 'charge.dispute.created':
      case 'charge.dispute.closed': {
        const dispute = await stripe.disputes.retrieve(event.data.object.id);
        return (tx) => escrow.applyCardDispute(tx, dispute);
      }
      case 'account.updated': {
        const account = await stripe.accounts.retrieve(event.data.object.id);
        return (tx) => payouts.applyAccount(tx, account);
      }
      case 'transfer.created':
      case 'transfer.reversed': {
        const transfer = await stripe.transfers.retrieve(event.data.object.id);
        return (tx) => escrow.applyTransfer(tx, transfer);
      }
      default:
        return undefined;
    }
  }

  return async function handleWebhook(
    rawBody: Buffer,
    signature: string | undefined,
  ): Promise<{ received: true; duplicate?: true }> {
    let event: Stripe.Event;
    try {
      event = stripe.webhooks.constructEvent(rawBody, signature ?? '', settings.webhookSecret);
    } catch {
      throw new HttpError(400, 'invalid_signature', 'The Stripe signature of this webhook is not valid.');
    }
    const seen = await db.pool.query(`select 1 from public.stripe_events where id = $1`, [event.id]);
    if (seen.rowCount) return { received: true, duplicate: true };
    const apply = await load(event);
    const fresh = await db.asService(async (tx) => {
      const objectId = (event.data.object as { id?: string }).id ?? null;
      // A concurrent delivery of the same event waits here, then finds the id taken.
      const inserted = await tx.query(
        `insert into public.stripe_events (id, type, object_id) values ($1, $2, $3) on conflict (id) do nothing`,
        [event.id, event.type, objectId],
      );
      if (inserted.rowCount === 0) return false;
      if (apply) await apply(tx);
      return true;
    });
    return fresh ? { received: true } : { received: true, duplicate: true };
  };
}
