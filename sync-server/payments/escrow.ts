import { randomUUID } from 'node:crypto';
import type Stripe from 'stripe';
import type { DealPayment } from '../../src/domain/contracts/money.ts';
import { isAdmin, requireAdmin, requireDealRole } from '../auth/authorization.ts';
import {
  DISPUTE_WINDOW_DAYS,
  PRO_COMMISSION_BP,
  commissionRateOf,
  dealPaymentSummary,
  formatRate,
  formatUsd,
  percentOfCents,
} from '../../src/domain/fees.ts';
import { escrowAllows, escrowRefusal, type EscrowAction } from '../../src/domain/escrow-rules.ts';
import type { Tx } from '../db/database.ts';
import { HttpError } from '../http/errors.ts';
import { recordLedger } from './ledger.ts';
import { escrowReleaseDue } from './release-due.ts';
import {
  amountHeld,
  chargeFunding,
  feeHeld,
  fundedCharges,
  lockChargeByStripeId,
  lockFundedCharges,
  planRefund,
  totalHeld,
  type EscrowCharge,
} from './escrow-charges.ts';
import { ensureCustomer, loadCaller, notify, type PaymentsDeps } from './payments-deps.ts';
import { stripeMessage } from './stripe-client.ts';

type DealRow = {
  id: string;
  brand_id: string;
  title: string;
  amount_cents: number;
  status: 'open' | 'in_progress' | 'completed' | 'cancelled';
  escrow_status: 'none' | 'pending' | 'released' | 'refunded' | 'disputed';
  selected_creator_ids: string[];
  winner_id: string | null;
  completed_at: Date | null;
  deleted: boolean;
};

type EscrowRow = {
  deal_id: string;
  brand_id: string;
  amount_cents: number;
  service_fee_cents: number;
  checkout_session_id: string | null;
  payment_intent_id: string | null;
  charge_id: string | null;
  funded_at: Date | null;
  last_payment_error: string | null;
  creator_id: string | null;
  transfer_id: string | null;
  released_at: Date | null;
  transferred_cents: number;
  commission_cents: number;
  refunded_cents: number;
  refunded_at: Date | null;
  disputed_at: Date | null;
  dispute_reason: string | null;
  dispute_opened_by: string | null;
  dispute_ticket_id: string | null;
  stripe_dispute_id: string | null;
  resolved_at: Date | null;
  cancel_requested_at: Date | null;
  cancel_consented_by: string[];
};

/** Who acts on escrow: a signed-in user, or the server's own scheduled job. */
export type EscrowActor = { kind: 'user'; userId: string } | { kind: 'system' };

const transferGroup = (dealId: string) => `deal_${dealId}`;
/** "With an idempotency key per deal, so a double click or a retry pays once." */
const releaseKey = (dealId: string) => `pacta-deal-${dealId}-release`;

async function lockDeal(tx: Tx, dealId: string): Promise<DealRow | undefined> {
  const { rows } = await tx.query<DealRow>(
    `select id, brand_id, title, amount_cents, status, escrow_status, selected_creator_ids, winner_id, completed_at, deleted
     from public.deals where id = $1 for update`,
    [dealId],
  );
  return rows[0];
}

async function lockEscrow(tx: Tx, dealId: string): Promise<EscrowRow | undefined> {
  const { rows } = await tx.query<EscrowRow>(`select * from public.deal_escrows where deal_id = $1 for update`, [
    dealId,
  ]);
  return rows[0];
}

const payee = (deal: DealRow): string | undefined => deal.winner_id ?? deal.selected_creator_ids[0];

/** Refuses `action` with the answer the one escrow table (src/domain/escrow-rules.ts) gives. */
function guard(action: EscrowAction, deal: DealRow): void {
  const refusal = escrowRefusal(action, { escrowStatus: deal.escrow_status, dealStatus: deal.status });
  if (refusal) throw new HttpError(refusal.status, refusal.code, refusal.message);
}

/**
 * What the deal's escrow holds for each accepted creator: "accepting an offer fixes that creator's
 * price", so each is paid the agreed price (an application from before prices agreed to the deal's
 * amount). Their sum is what the brand funds.
 */
async function agreedPrices(tx: Tx, deal: DealRow): Promise<AgreedPrice[]> {
  const { rows } = await tx.query<{ creator_id: string; price: string; funded: boolean; name: string | null }>(
    `select a.creator_id, coalesce(a.agreed_price_cents, $3)::bigint as price, a.price_funded_at is not null as funded,
            p.full_name as name
       from unnest($2::uuid[]) with ordinality as s(creator_id, n)
       join public.applications a on a.deal_id = $1 and a.creator_id = s.creator_id
       left join public.profiles p on p.id = a.creator_id
      order by s.n`,
    [deal.id, deal.selected_creator_ids, deal.amount_cents],
  );
  return rows.map((r) => ({
    creatorId: r.creator_id,
    priceCents: Number(r.price),
    funded: r.funded,
    name: r.name?.trim() || 'the creator',
  }));
}

type AgreedPrice = { creatorId: string; priceCents: number; funded: boolean; name: string };

/** The accepted creators of a funded deal whose prices wait for a top-up. */
const awaitingTopUp = (deal: DealRow, prices: AgreedPrice[]): AgreedPrice[] =>
  deal.escrow_status === 'none' ? [] : prices.filter((p) => !p.funded);

const sumOf = (prices: { priceCents: number }[]) => prices.reduce((total, p) => total + p.priceCents, 0);

/** A top-up funds another creator while the money is held and the work is not over. */
const topUpAllowed = (deal: DealRow): boolean =>
  deal.escrow_status === 'pending' && (deal.status === 'open' || deal.status === 'in_progress');

async function setEscrowStatus(tx: Tx, dealId: string, status: DealRow['escrow_status']): Promise<void> {
  await tx.query(`update public.deals set escrow_status = $2 where id = $1 and escrow_status is distinct from $2`, [
    dealId,
    status,
  ]);
}

/** The card's refusal to show the brand; none for a cancelled intent (an expired or replaced checkout). */
function cardRefusal(intent: Stripe.PaymentIntent): string | null {
  return intent.status === 'canceled' ? null : (intent.last_payment_error?.message ?? null);
}

/** The charge a payment intent made, whether Stripe sent its id or the whole object. */
function chargeOf(intent: Stripe.PaymentIntent): string | undefined {
  return typeof intent.latest_charge === 'string' ? intent.latest_charge : intent.latest_charge?.id;
}

export function createEscrow(deps: PaymentsDeps) {
  const { stripe, db, config } = deps;

  // ------------------------------------------------------------------ funding

  /**
   * The brand funds the deal once a creator is accepted: a Checkout payment of amount + 12% service fee.
   * On a funded deal that took another creator since, "fund" funds the accepted creators not funded
   * yet: a top-up of their agreed prices and the fee computed from them.
   */
  async function fundDeal(userId: string, dealId: string): Promise<{ url: string }> {
    const { deal, caller, summary, earlierCheckout, topUp } = await db.asService(async (tx) => {
      const deal = await lockDeal(tx, dealId);
      await requireDealRole(
        tx,
        userId,
        deal,
        ['brand'],
        new HttpError(403, 'not_deal_owner', "Only the deal's brand can fund it."),
      );
      if (!deal) throw new HttpError(404, 'deal_not_found');
      const prices = await agreedPrices(tx, deal);
      const waiting = awaitingTopUp(deal, prices);
      const caller = (await loadCaller(tx, userId))!;
      if (waiting.length > 0 && topUpAllowed(deal)) {
        const open = await tx.query<{ checkout_session_id: string }>(
          `select checkout_session_id from public.deal_escrow_charges
            where deal_id = $1 and funded_at is null and checkout_session_id is not null for update`,
          [dealId],
        );
        return {
          deal,
          caller,
          summary: dealPaymentSummary(sumOf(waiting), { creatorIsPro: false }),
          earlierCheckout: open.rows[0]?.checkout_session_id ?? null,
          topUp: { id: randomUUID(), creators: waiting },
        };
      }
      guard('fund', deal);
      if (deal.selected_creator_ids.length === 0)
        throw new HttpError(409, 'no_creator_accepted', 'Accept a creator before funding the deal.');
      const escrow = await lockEscrow(tx, dealId);
      // "Escrow funds that price, and fees are computed from it": the agreed prices, not the listing's.
      return {
        deal,
        caller,
        summary: dealPaymentSummary(sumOf(prices), { creatorIsPro: false }),
        earlierCheckout: escrow && !escrow.funded_at ? escrow.checkout_session_id : null,
        topUp: null,
      };
    });
    // "One open checkout per deal": the earlier one is expired before a new one exists, so it can no
    // longer be paid (a payment that slipped through anyway is refunded, see applyPaymentIntent).
    if (earlierCheckout) await expireCheckout(earlierCheckout);
    try {
      const customer = await ensureCustomer(deps, caller);
      const session = await stripe.checkout.sessions.create({
        mode: 'payment',
        customer,
        client_reference_id: userId,
        line_items: [
          {
            quantity: 1,
            price_data: {
              currency: 'usd',
              unit_amount: summary.amountCents,
              product_data: {
                name: (topUp
                  ? `Deal: ${deal.title} (${topUp.creators.map((c) => c.name).join(', ')})`
                  : `Deal: ${deal.title}`
                ).slice(0, 250),
              },
            },
          },
          {
            quantity: 1,
            price_data: {
              currency: 'usd',
              unit_amount: summary.serviceFeeCents,
              product_data: { name: 'Pacta service fee (12%)' },
            },
          },
        ],
        payment_intent_data: {
          transfer_group: transferGroup(deal.id),
          metadata: { kind: 'deal_escrow', deal_id: deal.id, ...(topUp ? { top_up_id: topUp.id } : {}) },
        },
        metadata: { kind: 'deal_escrow', deal_id: deal.id, ...(topUp ? { top_up_id: topUp.id } : {}) },
        success_url: `${config.publicUrl}/deals/${deal.id}?funding=success`,
        cancel_url: `${config.publicUrl}/deals/${deal.id}?funding=cancelled`,
      });
      if (topUp) {
        await db.asService(async (tx) => {
          // The replaced top-up checkout (expired above) can no longer be paid: its row goes.
          await tx.query(`delete from public.deal_escrow_charges where deal_id = $1 and funded_at is null`, [deal.id]);
          await tx.query(
            `insert into public.deal_escrow_charges (id, deal_id, creator_ids, amount_cents, service_fee_cents, checkout_session_id)
             values ($1, $2, $3, $4, $5, $6)`,
            [
              topUp.id,
              deal.id,
              topUp.creators.map((c) => c.creatorId),
              summary.amountCents,
              summary.serviceFeeCents,
              session.id,
            ],
          );
        });
        return { url: session.url! };
      }
      await db.asService((tx) =>
        tx.query(
          `insert into public.deal_escrows (deal_id, brand_id, amount_cents, service_fee_cents, checkout_session_id)
           values ($1, $2, $3, $4, $5)
           on conflict (deal_id) do update set checkout_session_id = excluded.checkout_session_id, amount_cents = excluded.amount_cents,
             service_fee_cents = excluded.service_fee_cents, last_payment_error = null, updated_at = now()
           where public.deal_escrows.funded_at is null`,
          [deal.id, deal.brand_id, summary.amountCents, summary.serviceFeeCents, session.id],
        ),
      );
      return { url: session.url! };
    } catch (err) {
      if (err instanceof HttpError) throw err;
      deps.log.error({ err }, 'funding checkout failed');
      throw new HttpError(502, 'checkout_failed', 'Failed to start checkout. Please try again.', {
        detail: stripeMessage(err),
      });
    }
  }

  /**
   * Expires a checkout session at Stripe. One already paid cannot be expired: the payment is being
   * confirmed (its webhook decides), so the caller is told to wait.
   */
  async function expireCheckout(sessionId: string): Promise<void> {
    try {
      await stripe.checkout.sessions.expire(sessionId);
    } catch (err) {
      const session = await stripe.checkout.sessions.retrieve(sessionId).catch(() => undefined);
      if (session?.status === 'expired') return;
      if (session?.status === 'complete')
        throw new HttpError(
          409,
          'payment_in_progress',
          'A payment for this deal has just gone through and is being confirmed. Reload in a moment.',
        );
      deps.log.error({ err }, 'expiring a checkout failed');
      throw new HttpError(502, 'checkout_failed', stripeMessage(err));
    }
  }

  /** The brand cancels the deal's open checkout (Stripe expires it), which unfreezes the deal's amount. */
  async function cancelCheckout(userId: string, dealId: string) {
    const sessionId = await db.asService(async (tx) => {
      const deal = await lockDeal(tx, dealId);
      const refusal = new HttpError(403, 'not_deal_owner', "Only the deal's brand can cancel its checkout.");
      await requireDealRole(tx, userId, deal, ['brand'], refusal);
      const escrow = await lockEscrow(tx, dealId);
      if (escrow?.checkout_session_id && !escrow.funded_at) return escrow.checkout_session_id;
      const topUp = await tx.query<{ checkout_session_id: string }>(
        `select checkout_session_id from public.deal_escrow_charges
          where deal_id = $1 and funded_at is null and checkout_session_id is not null for update`,
        [dealId],
      );
      if (!topUp.rows[0]) throw new HttpError(409, 'no_open_checkout', 'This deal has no open checkout.');
      return topUp.rows[0].checkout_session_id;
    });
    await expireCheckout(sessionId);
    await db.asService((tx) => forgetCheckout(tx, sessionId));
    return { checkoutOpen: false as const };
  }

  /** checkout.session.expired: a checkout that can no longer be paid no longer freezes the amount. */
  async function applyCheckoutExpired(tx: Tx, session: Stripe.Checkout.Session): Promise<void> {
    if (session.status !== 'expired') return;
    await forgetCheckout(tx, session.id);
  }

  /** A checkout that can no longer be paid: the first funding's is cleared, a top-up's row goes. */
  async function forgetCheckout(tx: Tx, sessionId: string): Promise<void> {
    await tx.query(
      `update public.deal_escrows set checkout_session_id = null, updated_at = now()
       where checkout_session_id = $1 and funded_at is null`,
      [sessionId],
    );
    await tx.query(`delete from public.deal_escrow_charges where checkout_session_id = $1 and funded_at is null`, [
      sessionId,
    ]);
  }

  /**
   * A deal's PaymentIntent as Stripe holds it now, with the Checkout session it was paid through.
   * "A payment funds the escrow only if it is the escrow's own checkout and the amount received equals
   * amount plus fee"; any other captured payment of the deal (a replaced checkout, a second payment, a
   * wrong amount) is refunded at once, and both movements are in the ledger. A card refusal on the
   * escrow's own checkout is kept to show.
   */
  async function applyPaymentIntent(tx: Tx, intent: Stripe.PaymentIntent, sessionId: string | null): Promise<void> {
    const dealId = intent.metadata?.deal_id;
    if (!dealId) return;
    const deal = await lockDeal(tx, dealId);
    if (!deal) return;
    const escrow = await lockEscrow(tx, dealId);
    const topUpId = intent.metadata?.top_up_id;
    if (topUpId) return applyTopUp(tx, deal, topUpId, intent, sessionId);
    const ownCheckout = Boolean(escrow && sessionId && sessionId === escrow.checkout_session_id);
    if (intent.status !== 'succeeded') {
      const error = cardRefusal(intent);
      if (ownCheckout && !escrow!.funded_at && error) {
        await tx.query(
          `update public.deal_escrows set payment_intent_id = $2, last_payment_error = $3, updated_at = now() where deal_id = $1`,
          [dealId, intent.id, error],
        );
      }
      return;
    }
    const chargeId = chargeOf(intent);
    if (!chargeId || escrow?.charge_id === chargeId) return;
    const received = intent.amount_received;
    const why = !escrow
      ? "it was not paid through the deal's checkout"
      : escrow.funded_at
        ? 'the deal was already funded'
        : !ownCheckout
          ? 'it was paid through a checkout that had been replaced'
          : received !== escrow.amount_cents + escrow.service_fee_cents ||
              escrow.amount_cents !== sumOf(await agreedPrices(tx, deal))
            ? 'the amount paid does not match the deal'
            : null;
    if (why) {
      await refundExtraPayment(tx, deal, intent, chargeId, why);
      // The escrow's own checkout is spent: the brand funds again through a new one, and is told why.
      if (ownCheckout && !escrow!.funded_at)
        await tx.query(
          `update public.deal_escrows set checkout_session_id = null, last_payment_error = $2, updated_at = now() where deal_id = $1`,
          [dealId, 'The amount paid did not match the deal, so it was refunded.'],
        );
      return;
    }
    // Recorded first: a charge already in the ledger (refunded as an extra payment) never funds.
    const fresh = await recordLedger(tx, {
      dealId,
      userId: deal.brand_id,
      kind: 'charge',
      amountCents: received,
      stripeRef: chargeId,
      memo: 'Brand funded the deal',
    });
    if (!fresh) return;
    await tx.query(
      `update public.deal_escrows set payment_intent_id = $2, charge_id = $3, funded_at = now(), last_payment_error = null, updated_at = now()
       where deal_id = $1`,
      [dealId, intent.id, chargeId],
    );
    // The first of the deal's charges: it funds the creators accepted now (none joins while it is open).
    await tx.query(
      `insert into public.deal_escrow_charges (deal_id, creator_ids, amount_cents, service_fee_cents, checkout_session_id,
         payment_intent_id, charge_id, funded_at)
       values ($1, $2, $3, $4, $5, $6, $7, now())`,
      [
        dealId,
        deal.selected_creator_ids,
        escrow!.amount_cents,
        escrow!.service_fee_cents,
        sessionId,
        intent.id,
        chargeId,
      ],
    );
    await recordLedger(tx, {
      dealId,
      kind: 'fee',
      amountCents: escrow!.service_fee_cents,
      stripeRef: chargeId,
      memo: 'Service fee (12%)',
    });
    if (deal.escrow_status === 'none') await setEscrowStatus(tx, dealId, 'pending');
    await notify(tx, deal.selected_creator_ids, {
      type: 'escrow_funded',
      title: 'Deal funded',
      message: `"${deal.title}" is funded with ${formatUsd(escrow!.amount_cents)} — you will be paid on completion.`,
      dealId,
    });
    if (deal.status === 'cancelled')
      await tx.query(`select pg_notify('pacta_money', $1)`, [JSON.stringify({ deal_id: dealId, reason: 'cancelled' })]);
  }

  /**
   * A top-up's PaymentIntent: it funds its creators' agreed prices only if it is paid through that
   * top-up's open checkout, for exactly their prices plus the fee, while they are still accepted and
   * unfunded on a deal that still holds its money. Anything else is refunded at once, as an extra
   * payment; a card refusal is kept on the top-up to show.
   */
  async function applyTopUp(
    tx: Tx,
    deal: DealRow,
    topUpId: string,
    intent: Stripe.PaymentIntent,
    sessionId: string | null,
  ): Promise<void> {
    const { rows } = await tx.query<{
      creator_ids: string[];
      amount_cents: string;
      service_fee_cents: string;
      checkout_session_id: string | null;
      charge_id: string | null;
      funded_at: Date | null;
    }>(`select * from public.deal_escrow_charges where id = $1 and deal_id = $2 for update`, [topUpId, deal.id]);
    const topUp = rows[0];
    const ownCheckout = Boolean(topUp && !topUp.funded_at && sessionId && sessionId === topUp.checkout_session_id);
    if (intent.status !== 'succeeded') {
      const error = cardRefusal(intent);
      if (ownCheckout && error)
        await tx.query(
          `update public.deal_escrow_charges set payment_intent_id = $2, last_payment_error = $3, updated_at = now() where id = $1`,
          [topUpId, intent.id, error],
        );
      return;
    }
    const chargeId = chargeOf(intent);
    if (!chargeId || topUp?.charge_id === chargeId) return;
    const amount = Number(topUp?.amount_cents ?? 0);
    const fee = Number(topUp?.service_fee_cents ?? 0);
    const waiting = topUp ? awaitingTopUp(deal, await agreedPrices(tx, deal)) : [];
    const same =
      topUp !== undefined &&
      topUp.creator_ids.length > 0 &&
      topUp.creator_ids.every((id) => waiting.some((w) => w.creatorId === id)) &&
      sumOf(waiting.filter((w) => topUp.creator_ids.includes(w.creatorId))) === amount;
    const why = !topUp
      ? "it was not paid through the deal's checkout"
      : topUp.funded_at
        ? 'those creators were already funded'
        : !ownCheckout
          ? 'it was paid through a checkout that had been replaced'
          : !topUpAllowed(deal)
            ? 'the deal no longer takes another creator'
            : intent.amount_received !== amount + fee || !same
              ? 'the amount paid does not match the deal'
              : null;
    if (why) {
      await refundExtraPayment(tx, deal, intent, chargeId, why);
      if (ownCheckout)
        await tx.query(
          `update public.deal_escrow_charges set checkout_session_id = null, last_payment_error = $2, updated_at = now() where id = $1`,
          [topUpId, 'The amount paid did not match the deal, so it was refunded.'],
        );
      return;
    }
    const fresh = await recordLedger(tx, {
      dealId: deal.id,
      userId: deal.brand_id,
      kind: 'charge',
      amountCents: intent.amount_received,
      stripeRef: chargeId,
      memo: 'Brand funded another creator (top-up)',
    });
    if (!fresh) return;
    await tx.query(
      `update public.deal_escrow_charges set payment_intent_id = $2, charge_id = $3, funded_at = now(),
         last_payment_error = null, updated_at = now() where id = $1`,
      [topUpId, intent.id, chargeId],
    );
    await recordLedger(tx, {
      dealId: deal.id,
      kind: 'fee',
      amountCents: fee,
      stripeRef: chargeId,
      memo: 'Service fee (12%)',
    });
    await tx.query(
      `update public.applications set price_funded_at = now()
        where deal_id = $1 and creator_id = any($2::uuid[]) and status = 'accepted' and price_funded_at is null`,
      [deal.id, topUp!.creator_ids],
    );
    for (const creator of waiting.filter((w) => topUp!.creator_ids.includes(w.creatorId)))
      await notify(tx, [creator.creatorId], {
        type: 'escrow_funded',
        title: 'Deal funded',
        message: `"${deal.title}" is funded with ${formatUsd(creator.priceCents)} — you will be paid on completion.`,
        dealId: deal.id,
      });
  }

  /**
   * Refunds a captured payment that does not fund the escrow, in full, in the same transaction that
   * records it: if Stripe refuses, nothing is recorded and the webhook fails, so Stripe delivers the
   * event again. The idempotency key per charge makes a retry refund once.
   */
  async function refundExtraPayment(
    tx: Tx,
    deal: DealRow,
    intent: Stripe.PaymentIntent,
    chargeId: string,
    why: string,
  ): Promise<void> {
    const amount = intent.amount_received;
    const fresh = await recordLedger(tx, {
      dealId: deal.id,
      userId: deal.brand_id,
      kind: 'charge',
      amountCents: amount,
      stripeRef: chargeId,
      memo: `Extra payment: ${why}`,
    });
    if (!fresh) return;
    const refund = await stripe.refunds.create(
      { payment_intent: intent.id, metadata: { deal_id: deal.id, reason: 'extra_payment' } },
      { idempotencyKey: `pacta-charge-${chargeId}-refund` },
    );
    await recordLedger(tx, {
      dealId: deal.id,
      userId: deal.brand_id,
      kind: 'refund',
      amountCents: refund.amount,
      stripeRef: refund.id,
      memo: 'Extra payment refunded automatically',
    });
    await notify(tx, [deal.brand_id], {
      type: 'escrow_refunded',
      title: 'Extra payment refunded',
      message: `${formatUsd(refund.amount)} paid for "${deal.title}" was refunded: ${why}.`,
      dealId: deal.id,
    });
  }

  // ------------------------------------------------------------------ release

  /**
   * Pays the creator: a transfer of the amount minus the commission (5%, or 2.5% for a Pro creator at
   * release time) to their Express account. The deal and escrow rows stay locked during the transfer,
   * so a second request waits and then finds the payout made; the idempotency key covers retries and
   * other server instances.
   */
  async function releaseEscrow(actor: EscrowActor, dealId: string) {
    return db.asService(async (tx) => {
      const deal = await lockDeal(tx, dealId);
      if (actor.kind === 'user') {
        const refusal = new HttpError(403, 'not_deal_owner', 'Only its brand or Pacta staff can release the payout.');
        await requireDealRole(tx, actor.userId, deal, ['brand', 'admin'], refusal);
      }
      if (!deal || deal.deleted) throw new HttpError(404, 'deal_not_found');
      const escrow = await lockEscrow(tx, dealId);
      if (deal.escrow_status === 'released' && escrow?.transfer_id) {
        return { escrowStatus: 'released' as const, transferCents: escrow.transferred_cents, alreadyReleased: true };
      }
      guard('release', deal);
      const charges = await lockFundedCharges(tx, dealId);
      if (!escrow?.charge_id || charges.length === 0)
        throw new HttpError(409, 'not_funded', 'The brand has not funded this deal yet.');
      // Each accepted creator is paid their agreed price, from the charge that funded it; a deal with
      // one creator and one charge pays it all to them. A creator whose top-up was never paid did no
      // work (no draft before funding) and is not paid.
      const prices = await agreedPrices(tx, deal);
      if (charges.length === 1 && prices.length <= 1 && prices.every((p) => p.funded)) {
        const result = await payCreator(tx, deal, charges[0]!, charges[0]!.amountCents, 'Payout released');
        return { escrowStatus: 'released' as const, transferCents: result.transferCents, alreadyReleased: false };
      }
      const funded = prices.filter((p) => chargeFunding(charges, p.creatorId));
      const mismatch = charges.some(
        (c) => sumOf(funded.filter((p) => c.creatorIds.includes(p.creatorId))) !== c.amountCents,
      );
      if (mismatch)
        throw new HttpError(
          409,
          'amount_mismatch',
          "The escrow does not hold the creators' agreed prices: contact Pacta staff.",
        );
      let transferCents = 0;
      for (const { creatorId, priceCents } of funded) {
        const charge = chargeFunding(charges, creatorId)!;
        transferCents += (await payCreator(tx, deal, charge, priceCents, 'Payout released', creatorId)).transferCents;
      }
      return { escrowStatus: 'released' as const, transferCents, alreadyReleased: false };
    });
  }

  /**
   * Transfers `amountCents` of the deal amount (minus commission) to the creator, out of `charge` (the
   * one that funded them: a transfer never takes more than its source charge holds), and records it.
   */
  async function payCreator(
    tx: Tx,
    deal: DealRow,
    charge: EscrowCharge,
    amountCents: number,
    /** The notice both sides get; null when the caller tells them itself (a dispute's resolution). */
    title: string | null,
    /** One of several creators (each transfer its own idempotency key); by default the deal's one payee. */
    oneOfSeveral?: string,
  ) {
    const creatorId = oneOfSeveral ?? payee(deal);
    if (!creatorId) throw new HttpError(409, 'no_creator', 'This deal has no creator to pay.');
    // The commission rate is the database's one answer (public.creator_commission_bp): 2.5% for a paid
    // Pro tier or the lower_commission grant (the 10-referral Pro grant brings it), 5% otherwise.
    const { rows } = await tx.query<{
      stripe_account_id: string | null;
      payouts_enabled: boolean | null;
      commission_bp: number;
    }>(
      `select b.stripe_account_id, b.payouts_enabled, public.creator_commission_bp($1) as commission_bp
       from public.profiles p left join public.billing_accounts b on b.user_id = p.id where p.id = $1`,
      [creatorId],
    );
    const account = rows[0];
    if (!account?.stripe_account_id || !account.payouts_enabled) {
      throw new HttpError(409, 'payouts_not_set_up', 'The creator has not set up payouts yet.');
    }
    const commissionCents = percentOfCents(amountCents, account.commission_bp);
    const transferCents = amountCents - commissionCents;
    let transfer: Stripe.Transfer;
    try {
      transfer = await stripe.transfers.create(
        {
          amount: transferCents,
          currency: 'usd',
          destination: account.stripe_account_id,
          transfer_group: transferGroup(deal.id),
          source_transaction: charge.chargeId,
          metadata: { deal_id: deal.id, creator_id: creatorId },
        },
        // One payout per creator and charge (a dispute's release may take from several charges).
        {
          idempotencyKey:
            (oneOfSeveral ? `${releaseKey(deal.id)}-${oneOfSeveral}` : releaseKey(deal.id)) + `-${charge.chargeId}`,
        },
      );
    } catch (err) {
      deps.log.error({ err, deal: deal.id }, 'transfer failed');
      throw new HttpError(502, 'payout_failed', stripeMessage(err));
    }
    await tx.query(
      `update public.deal_escrows set creator_id = $2, transfer_id = $3, transferred_cents = transferred_cents + $4,
         commission_cents = commission_cents + $5, released_at = now(), updated_at = now()
       where deal_id = $1`,
      [deal.id, creatorId, transfer.id, transferCents, commissionCents],
    );
    await tx.query(
      `update public.deal_escrow_charges set released_cents = released_cents + $2, updated_at = now() where id = $1`,
      [charge.id, amountCents],
    );
    charge.releasedCents += amountCents;
    await recordLedger(tx, {
      dealId: deal.id,
      userId: creatorId,
      kind: 'transfer',
      amountCents: transferCents,
      stripeRef: transfer.id,
      memo: 'Payout to the creator',
    });
    await recordLedger(tx, {
      dealId: deal.id,
      kind: 'commission',
      amountCents: commissionCents,
      stripeRef: transfer.id,
      memo: `Commission (${formatRate(account.commission_bp)})`,
    });
    // "5% of the referred creator's payout for 3 months from sign-up", once per deal: in this
    // transaction, so the reward exists exactly when the payout's ledger row does.
    await tx.query(`select public.referral_reward_for_payout($1, $2, $3)`, [deal.id, creatorId, transferCents]);
    await setEscrowStatus(tx, deal.id, 'released');
    await tx.query(`update public.applications set payout_due_at = null where deal_id = $1 and creator_id = $2`, [
      deal.id,
      creatorId,
    ]);
    if (title !== null) {
      await notify(tx, [creatorId], {
        type: 'payout_released',
        title,
        message: `${formatUsd(transferCents)} for "${deal.title}" was sent to your payout account.`,
        dealId: deal.id,
      });
      await notify(tx, [deal.brand_id], {
        type: 'payout_released',
        title,
        message: `The payout for "${deal.title}" was released to the creator.`,
        dealId: deal.id,
      });
    }
    return { transferCents, commissionCents, creatorId };
  }

  // ------------------------------------------------------------------ refunds

  /**
   * Refunds `amountCents` of the deal amount ('all': everything still held) plus its share of the
   * service fee, across the deal's charges: each gives at most what it still holds (planRefund), with
   * one Stripe refund per charge.
   */
  async function refundBrand(
    tx: Tx,
    deal: DealRow,
    amountCents: number | 'all',
    why: string,
    /** False when the caller tells the brand itself (a dispute's resolution says the refund). */
    tellBrand = true,
  ) {
    const plan = planRefund(await lockFundedCharges(tx, deal.id), amountCents);
    let total = 0;
    for (const { charge, totalCents, feeBackCents } of plan) {
      let refund: Stripe.Refund;
      try {
        refund = await stripe.refunds.create(
          { payment_intent: charge.paymentIntentId, amount: totalCents, metadata: { deal_id: deal.id } },
          { idempotencyKey: `pacta-deal-${deal.id}-refund-${charge.chargeId}` },
        );
      } catch (err) {
        deps.log.error({ err, deal: deal.id }, 'refund failed');
        throw new HttpError(502, 'refund_failed', stripeMessage(err));
      }
      await recordLedger(tx, {
        dealId: deal.id,
        userId: deal.brand_id,
        kind: 'refund',
        amountCents: totalCents,
        stripeRef: refund.id,
        memo: why,
      });
      if (feeBackCents > 0)
        await recordLedger(tx, {
          dealId: deal.id,
          kind: 'fee',
          amountCents: -feeBackCents,
          stripeRef: refund.id,
          memo: 'Service fee returned',
        });
      await tx.query(
        `update public.deal_escrow_charges set refunded_cents = refunded_cents + $2,
           fee_refunded_cents = fee_refunded_cents + $3, updated_at = now() where id = $1`,
        [charge.id, totalCents, feeBackCents],
      );
      total += totalCents;
    }
    await tx.query(
      `update public.deal_escrows set refunded_cents = refunded_cents + $2, refunded_at = now(), updated_at = now() where deal_id = $1`,
      [deal.id, total],
    );
    if (tellBrand)
      await notify(tx, [deal.brand_id], {
        type: 'escrow_refunded',
        title: 'Refund issued',
        message: `${formatUsd(total)} for "${deal.title}" is on its way back to your card.`,
        dealId: deal.id,
      });
    return total;
  }

  /** "A funded deal cancelled before completion is refunded in full." */
  async function refundCancelledDeal(dealId: string): Promise<boolean> {
    return db.asService(async (tx) => {
      const deal = await lockDeal(tx, dealId);
      const escrow = deal && (await lockEscrow(tx, dealId));
      if (
        !deal ||
        !escrow ||
        deal.status !== 'cancelled' ||
        deal.escrow_status !== 'pending' ||
        !escrow.payment_intent_id
      )
        return false;
      await refundBrand(tx, deal, 'all', 'Deal cancelled before completion');
      await setEscrowStatus(tx, dealId, 'refunded');
      await notify(tx, deal.selected_creator_ids, {
        type: 'escrow_refunded',
        title: 'Deal cancelled',
        message: `"${deal.title}" was cancelled and refunded to the brand.`,
        dealId,
      });
      return true;
    });
  }

  // ------------------------------------------------------------------ cancellation with consent

  /**
   * "A funded deal in progress is refunded only with the creator's consent or a dispute decided by
   * staff": the brand asks, every accepted creator agrees (consentToCancellation), then the server
   * cancels the deal and the money jobs refund it. The database refuses the brand's own cancel.
   */
  async function requestCancellation(userId: string, dealId: string) {
    return db.asService(async (tx) => {
      const deal = await lockDeal(tx, dealId);
      const refusal = new HttpError(403, 'not_deal_owner', "Only the deal's brand can ask to cancel it.");
      await requireDealRole(tx, userId, deal, ['brand'], refusal);
      if (!deal) throw new HttpError(404, 'deal_not_found');
      guard('requestCancel', deal);
      const escrow = await lockEscrow(tx, dealId);
      if (!escrow?.funded_at)
        throw new HttpError(
          409,
          'consent_not_needed',
          'Only a funded deal in progress needs the creator to agree: cancel this deal from its page.',
        );
      if (escrow.cancel_requested_at) return { cancellationRequested: true as const };
      await tx.query(
        `update public.deal_escrows set cancel_requested_at = now(), cancel_consented_by = '{}', updated_at = now() where deal_id = $1`,
        [dealId],
      );
      await notify(tx, deal.selected_creator_ids, {
        type: 'cancel_requested',
        title: 'Cancellation requested',
        message: `The brand asks to cancel "${deal.title}" and get the payment back. Agree in the payment panel, or open a dispute.`,
        dealId,
        link: `/deals/${dealId}#payment`,
      });
      return { cancellationRequested: true as const };
    });
  }

  /** An accepted creator agrees to the brand's request; once all have, the deal is cancelled and refunded. */
  async function consentToCancellation(userId: string, dealId: string) {
    return db.asService(async (tx) => {
      const deal = await lockDeal(tx, dealId);
      const refusal = new HttpError(
        403,
        'not_a_participant',
        'Only the accepted creator can agree to cancel this deal.',
      );
      await requireDealRole(tx, userId, deal, ['creator'], refusal);
      if (!deal || !deal.selected_creator_ids.includes(userId)) throw refusal;
      guard('consentCancel', deal);
      const escrow = await lockEscrow(tx, dealId);
      if (!escrow?.cancel_requested_at)
        throw new HttpError(409, 'no_cancel_request', 'The brand has not asked to cancel this deal.');
      const consented = [...new Set([...escrow.cancel_consented_by, userId])];
      await tx.query(`update public.deal_escrows set cancel_consented_by = $2, updated_at = now() where deal_id = $1`, [
        dealId,
        consented,
      ]);
      const everyone = deal.selected_creator_ids.every((id) => consented.includes(id));
      if (everyone) {
        // As the server: the database lets only the server cancel a funded deal in progress. The
        // status change wakes the money jobs (NOTIFY pacta_money), which refund the brand in full.
        await tx.query(`update public.deals set status = 'cancelled' where id = $1`, [dealId]);
        await notify(tx, [deal.brand_id], {
          type: 'cancel_agreed',
          title: 'Cancellation agreed',
          message: `The creator agreed to cancel "${deal.title}": your payment is being refunded.`,
          dealId,
        });
      }
      return { cancelled: everyone };
    });
  }

  // ------------------------------------------------------------------ disputes

  /**
   * Either side of a funded deal, within 30 days of completion: escrow is frozen and staff get a ticket.
   * On a deal whose work was submitted, "a dispute names the deliverable and the submission in
   * question, and stops the clock": no live link is confirmed automatically and no payout hold runs
   * out while it lasts.
   */
  async function openDispute(
    userId: string,
    dealId: string,
    reason: string,
    about?: { deliverableId: string; submissionId: string },
  ) {
    const text = reason.trim();
    if (text.length < 10 || text.length > 2000)
      throw new HttpError(400, 'invalid_reason', 'Describe the problem in 10 to 2,000 characters.');
    return db.asService(async (tx) => {
      const deal = await lockDeal(tx, dealId);
      const refusal = new HttpError(
        403,
        'not_a_participant',
        'Only the brand and the creator of a deal can dispute it.',
      );
      const role = await requireDealRole(tx, userId, deal, ['brand', 'creator'], refusal);
      if (!deal) throw new HttpError(404, 'deal_not_found');
      // A creator disputes while accepted; once the deal is completed, only the creator it pays.
      if (role === 'creator' && deal.status === 'completed' && payee(deal) !== userId) throw refusal;
      const escrow = await lockEscrow(tx, dealId);
      guard('dispute', deal);
      if (!escrow) throw new HttpError(409, 'not_funded', 'Only a funded deal can be disputed.');
      const submission = await disputedSubmission(tx, deal, userId, about);
      if (deal.completed_at && Date.now() - deal.completed_at.getTime() > DISPUTE_WINDOW_DAYS * 86_400_000) {
        throw new HttpError(
          409,
          'dispute_window_closed',
          `Disputes must be opened within ${DISPUTE_WINDOW_DAYS} days of completion.`,
        );
      }
      const ticketId = await openDisputeTicket(
        tx,
        deal,
        userId,
        submission ? `${text}\n\nAbout: ${submission.title} (submission ${submission.id}).` : text,
      );
      await tx.query(
        `update public.deal_escrows
            set disputed_at = now(), dispute_reason = $2, dispute_opened_by = $3, dispute_ticket_id = $4,
                dispute_deliverable_id = $5, dispute_submission_id = $6, resolved_at = null, updated_at = now()
          where deal_id = $1`,
        [dealId, text, userId, ticketId, submission?.deliverableId ?? null, submission?.id ?? null],
      );
      // The clock stops: the payout holds no longer run out (staff decide the money now).
      await tx.query(
        `update public.applications set payout_due_at = null where deal_id = $1 and payout_due_at is not null`,
        [dealId],
      );
      await setEscrowStatus(tx, dealId, 'disputed');
      await notify(tx, [deal.brand_id, ...deal.selected_creator_ids], {
        type: 'dispute_opened',
        title: 'Dispute opened',
        message: `A dispute was opened on "${deal.title}". The payout is on hold until Pacta staff resolve it.`,
        dealId,
        link: `/deals/${dealId}#payment`,
        extra: { ticket_id: ticketId },
      });
      return { escrowStatus: 'disputed' as const, ticketId };
    });
  }

  /**
   * The submission a dispute is about: required once the deal has submissions, and it must be a draft
   * or live link of that deliverable on this deal, of the disputing party's application (the brand
   * may name any of its deal's).
   */
  async function disputedSubmission(
    tx: Tx,
    deal: DealRow,
    userId: string,
    about: { deliverableId: string; submissionId: string } | undefined,
  ): Promise<{ id: string; deliverableId: string; title: string } | undefined> {
    const { rows: any } = await tx.query(
      `select 1 from public.deal_events where deal_id = $1 and kind in ('draft', 'live_link') limit 1`,
      [deal.id],
    );
    if (!about) {
      if (any.length === 0) return undefined;
      throw new HttpError(
        400,
        'submission_required',
        'Choose the deliverable and the submission the dispute is about.',
      );
    }
    const { rows } = await tx.query<{ id: string; deliverable_id: string; title: string | null }>(
      `select e.id, e.deliverable_id,
              (select x ->> 'title' from public.deal_events t, jsonb_array_elements(t.terms -> 'deliverables') x
                where t.application_id = a.id and t.kind = 'terms' and t.terms_version = a.terms_agreed_version
                  and x ->> 'id' = e.deliverable_id) as title
         from public.deal_events e join public.applications a on a.id = e.application_id
        where e.id = $2 and e.deal_id = $1 and e.deliverable_id = $3 and e.kind in ('draft', 'live_link')
          and ($4::uuid = $5::uuid or a.creator_id = $4::uuid)`,
      [deal.id, about.submissionId, about.deliverableId, userId, deal.brand_id],
    );
    const row = rows[0];
    if (!row) throw new HttpError(404, 'submission_not_found', 'That submission is not part of this deal.');
    return { id: row.id, deliverableId: row.deliverable_id, title: row.title ?? row.deliverable_id };
  }

  async function openDisputeTicket(tx: Tx, deal: DealRow, openedBy: string, message: string): Promise<string> {
    const { rows } = await tx.query<{ id: string }>(
      `insert into public.support_tickets (id, user_id, subject, message, priority, kind, deal_id)
       values (gen_random_uuid(), $1, $2, $3, 'high', 'dispute', $4) returning id`,
      [openedBy, `Dispute: ${deal.title}`.slice(0, 200), message, deal.id],
    );
    return rows[0]!.id;
  }

  /**
   * Staff settle a dispute: `refundCents` of the deal amount goes back to the brand (with its share of
   * the service fee), the rest is released to the creator minus commission. Both sides are told.
   */
  async function resolveDispute(userId: string, dealId: string, refundCents: number) {
    return db.asService(async (tx) => {
      await requireAdmin(tx, userId, 'Only Pacta staff can resolve disputes.');
      const deal = await lockDeal(tx, dealId);
      if (!deal) throw new HttpError(404, 'deal_not_found');
      const escrow = await lockEscrow(tx, dealId);
      guard('resolve', deal);
      if (!escrow) throw new HttpError(409, 'not_disputed', 'This deal has no open dispute.');
      if (escrow.stripe_dispute_id) {
        throw new HttpError(
          409,
          'card_dispute_open',
          "The brand's bank is handling a card dispute: Stripe settles it, not Pacta.",
        );
      }
      // What the deal's charges still hold, the first funding and any top-up together.
      const held = totalHeld(await lockFundedCharges(tx, dealId));
      if (!Number.isSafeInteger(refundCents) || refundCents < 0 || refundCents > held) {
        throw new HttpError(400, 'invalid_refund', `The refund must be between $0 and ${formatUsd(held)}.`);
      }
      const releaseCents = held - refundCents;
      let transferCents = 0;
      if (releaseCents > 0) {
        // Checked before any money moves, so a refusal leaves everything as it was.
        const { rows } = await tx.query(
          `select 1 from public.billing_accounts where user_id = $1 and payouts_enabled`,
          [payee(deal)],
        );
        if (rows.length === 0)
          throw new HttpError(409, 'payouts_not_set_up', 'The creator has not set up payouts yet.');
      }
      // One notice per person for the resolution, saying both the refund and the payout (the refund's
      // and the payout's own notices would repeat it under the same title).
      const refundedTotal =
        refundCents > 0 ? await refundBrand(tx, deal, refundCents, 'Dispute resolved by Pacta staff', false) : 0;
      // The rest goes to the creator, out of each charge what it still holds after the refund.
      if (releaseCents > 0)
        for (const charge of await lockFundedCharges(tx, dealId)) {
          const part = amountHeld(charge);
          if (part > 0) transferCents += (await payCreator(tx, deal, charge, part, null)).transferCents;
        }
      await setEscrowStatus(tx, dealId, releaseCents > 0 ? 'released' : 'refunded');
      await tx.query(`update public.deal_escrows set resolved_at = now(), updated_at = now() where deal_id = $1`, [
        dealId,
      ]);
      if (escrow.dispute_ticket_id)
        await tx.query(`update public.support_tickets set status = 'closed' where id = $1`, [escrow.dispute_ticket_id]);
      await notify(tx, [deal.brand_id, ...deal.selected_creator_ids], {
        type: 'dispute_resolved',
        title: 'Dispute resolved',
        message:
          `Pacta staff resolved the dispute on "${deal.title}": ${formatUsd(refundedTotal)} refunded to the brand, ` +
          `${formatUsd(transferCents)} paid to the creator.`,
        dealId,
      });
      return {
        escrowStatus: releaseCents > 0 ? ('released' as const) : ('refunded' as const),
        refundedCents: refundedTotal,
        transferCents,
      };
    });
  }

  /** charge.dispute.created: the bank froze the money; so does Pacta (nothing is released while it lasts). */
  async function applyCardDispute(tx: Tx, dispute: Stripe.Dispute): Promise<void> {
    const chargeId = typeof dispute.charge === 'string' ? dispute.charge : dispute.charge.id;
    // Any of the deal's charges: the first funding or a top-up.
    const { rows } = await tx.query<{ deal_id: string }>(
      `select deal_id from public.deal_escrow_charges where charge_id = $1`,
      [chargeId],
    );
    if (!rows[0]) return;
    const deal = (await lockDeal(tx, rows[0].deal_id))!;
    const escrow = (await lockEscrow(tx, deal.id))!;
    const charge = (await lockChargeByStripeId(tx, chargeId))!;
    const open = !['won', 'lost', 'warning_closed'].includes(dispute.status);
    if (open) {
      if (escrow.stripe_dispute_id === dispute.id) return;
      await tx.query(
        `update public.deal_escrows set stripe_dispute_id = $2, disputed_at = coalesce(disputed_at, now()), updated_at = now() where deal_id = $1`,
        [deal.id, dispute.id],
      );
      if (deal.escrow_status === 'pending') {
        await setEscrowStatus(tx, deal.id, 'disputed');
        const ticketId =
          escrow.dispute_ticket_id ??
          (await openDisputeTicket(
            tx,
            deal,
            deal.brand_id,
            `The brand's card payment for this deal was disputed with the bank (${dispute.reason}).`,
          ));
        await tx.query(`update public.deal_escrows set dispute_ticket_id = $2 where deal_id = $1`, [deal.id, ticketId]);
      }
      await notify(tx, [deal.brand_id, ...deal.selected_creator_ids], {
        type: 'dispute_opened',
        title: 'Payment disputed',
        message: `The card payment for "${deal.title}" was disputed with the bank. The payout is on hold.`,
        dealId: deal.id,
      });
      return;
    }
    if (escrow.stripe_dispute_id !== dispute.id || escrow.resolved_at) return;
    if (dispute.status === 'lost') {
      // The bank returned the charge to the cardholder: the platform's escrow no longer holds what
      // that charge held (the deal's other charges still do).
      const held = amountHeld(charge);
      const fee = feeHeld(charge);
      await recordLedger(tx, {
        dealId: deal.id,
        userId: deal.brand_id,
        kind: 'refund',
        amountCents: held + fee,
        stripeRef: dispute.id,
        memo: 'Card dispute lost',
      });
      if (fee > 0)
        await recordLedger(tx, {
          dealId: deal.id,
          kind: 'fee',
          amountCents: -fee,
          stripeRef: dispute.id,
          memo: 'Service fee returned (card dispute)',
        });
      await tx.query(
        `update public.deal_escrow_charges set refunded_cents = refunded_cents + $2, fee_refunded_cents = service_fee_cents,
           updated_at = now() where id = $1`,
        [charge.id, held + fee],
      );
      const rest = totalHeld(await lockFundedCharges(tx, deal.id));
      if (rest > 0) {
        // The deal's other charges still hold money: the dispute stays open for Pacta staff, who
        // decide it as any other dispute (the bank has no say on those charges).
        await tx.query(
          `update public.deal_escrows set stripe_dispute_id = null, dispute_reason = coalesce(dispute_reason, $2),
             updated_at = now() where deal_id = $1`,
          [deal.id, 'The bank returned one card payment of this deal to the brand; Pacta staff decide the rest.'],
        );
        await notify(tx, [deal.brand_id, ...deal.selected_creator_ids], {
          type: 'dispute_resolved',
          title: 'Card dispute closed',
          message: `The bank closed a card dispute on "${deal.title}" (lost). Pacta staff decide the rest of the payment.`,
          dealId: deal.id,
        });
        return;
      }
      await setEscrowStatus(tx, deal.id, 'refunded');
    } else if (deal.escrow_status === 'disputed' && !escrow.dispute_reason) {
      await setEscrowStatus(tx, deal.id, 'pending');
    }
    await tx.query(`update public.deal_escrows set resolved_at = now(), updated_at = now() where deal_id = $1`, [
      deal.id,
    ]);
    await notify(tx, [deal.brand_id, ...deal.selected_creator_ids], {
      type: 'dispute_resolved',
      title: 'Card dispute closed',
      message: `The bank closed the card dispute on "${deal.title}" (${dispute.status}).`,
      dealId: deal.id,
    });
  }

  /** charge.refunded: refunds made outside Pacta (the Stripe dashboard) still reach the ledger. */
  async function applyChargeRefunds(tx: Tx, charge: Stripe.Charge): Promise<void> {
    const { rows } = await tx.query<{ deal_id: string; brand_id: string }>(
      `select c.deal_id, e.brand_id from public.deal_escrow_charges c join public.deal_escrows e on e.deal_id = c.deal_id
        where c.charge_id = $1`,
      [charge.id],
    );
    if (!rows[0]) return;
    await lockEscrow(tx, rows[0].deal_id);
    const funding = (await lockChargeByStripeId(tx, charge.id))!;
    for (const refund of charge.refunds?.data ?? []) {
      if (
        await recordLedger(tx, {
          dealId: rows[0].deal_id,
          userId: rows[0].brand_id,
          kind: 'refund',
          amountCents: refund.amount,
          stripeRef: refund.id,
          memo: 'Refund made in Stripe',
        })
      ) {
        await tx.query(
          `update public.deal_escrows set refunded_cents = refunded_cents + $2, updated_at = now() where deal_id = $1`,
          [rows[0].deal_id, refund.amount],
        );
        await tx.query(
          `update public.deal_escrow_charges set refunded_cents = least(refunded_cents + $2, amount_cents + service_fee_cents),
             updated_at = now() where id = $1`,
          [funding.id, refund.amount],
        );
      }
    }
  }

  /** transfer.created / transfer.reversed: the ledger holds every transfer, also one reversed in Stripe. */
  async function applyTransfer(tx: Tx, transfer: Stripe.Transfer): Promise<void> {
    const dealId = transfer.metadata?.deal_id;
    if (!dealId) return;
    if (transfer.amount_reversed > 0) {
      await recordLedger(tx, {
        dealId,
        kind: 'transfer',
        amountCents: -transfer.amount_reversed,
        stripeRef: `${transfer.id}:reversed`,
        memo: 'Transfer reversed in Stripe',
      });
    }
  }

  // ------------------------------------------------------------------ reading

  /** The payment panel's figures for the brand, the deal's creators and staff. */
  async function paymentView(userId: string, dealId: string): Promise<DealPayment> {
    return db.asService(async (tx) => {
      const { rows } = await tx.query<DealRow>(
        `select id, brand_id, title, amount_cents, status, escrow_status, selected_creator_ids, winner_id,
                completed_at, deleted
           from public.deals where id = $1`,
        [dealId],
      );
      const deal = rows[0];
      const refusal = new HttpError(
        403,
        'not_a_participant',
        'Only the brand and the creator of a deal can see its payment.',
      );
      await requireDealRole(tx, userId, deal, ['brand', 'creator', 'admin'], refusal);
      if (!deal) throw new HttpError(404, 'deal_not_found');
      const admin = await isAdmin(tx, userId);
      const isBrand = deal.brand_id === userId;
      const isCreator = deal.selected_creator_ids.includes(userId);
      const escrow = (await tx.query<EscrowRow>(`select * from public.deal_escrows where deal_id = $1`, [dealId]))
        .rows[0];
      const creatorId = payee(deal);
      const creator = creatorId
        ? (
            await tx.query<{ commission_bp: number; payouts_enabled: boolean | null }>(
              `select public.creator_commission_bp($1) as commission_bp,
                      (select payouts_enabled from public.billing_accounts where user_id = $1) as payouts_enabled`,
              [creatorId],
            )
          ).rows[0]
        : undefined;
      const funding = await fundedCharges(tx, dealId);
      // What was actually charged, from the ledger: the escrow's own charges (the first funding and
      // any top-up), and any other payment of the deal (refunded automatically).
      const charges = (
        await tx.query<{ own: string; extra: string }>(
          `select coalesce(sum(amount_cents) filter (where stripe_ref = any($2::text[])), 0) as own,
                  coalesce(sum(amount_cents) filter (where not stripe_ref = any($2::text[])), 0) as extra
             from public.ledger_entries where deal_id = $1 and kind = 'charge'`,
          [dealId, funding.map((c) => c.chargeId)],
        )
      ).rows[0]!;
      const openTopUp = (
        await tx.query<{ checkout_session_id: string | null; last_payment_error: string | null }>(
          `select checkout_session_id, last_payment_error from public.deal_escrow_charges
            where deal_id = $1 and funded_at is null order by created_at desc limit 1`,
          [dealId],
        )
      ).rows[0];
      const prices = await agreedPrices(tx, deal);
      // A creator sees only whether their own price waits: the other creators' prices are not theirs to read.
      const waiting = awaitingTopUp(deal, prices).filter((w) => isBrand || admin || w.creatorId === userId);
      const topUpSummary = waiting.length > 0 ? dealPaymentSummary(sumOf(waiting), { creatorIsPro: false }) : null;
      const checkoutOpen = Boolean(
        (escrow?.checkout_session_id && !escrow.funded_at) || openTopUp?.checkout_session_id,
      );
      const cancelAsked =
        escrow?.cancel_requested_at && deal.status === 'in_progress' && deal.escrow_status === 'pending'
          ? escrow.cancel_requested_at
          : null;
      // A creator whose price waits for a top-up reads their own price, not yet funded: the money held
      // is the other creators'.
      const ownWaiting = !isBrand && !admin && topUpSummary !== null;
      const amount = ownWaiting
        ? topUpSummary.amountCents
        : funding.length > 0
          ? funding.reduce((t, c) => t + c.amountCents, 0)
          : (escrow?.amount_cents ?? sumOf(prices));
      const fundedFee = ownWaiting
        ? topUpSummary.serviceFeeCents
        : funding.length > 0
          ? funding.reduce((t, c) => t + c.serviceFeeCents, 0)
          : undefined;
      const releaseDue = deal.escrow_status === 'pending' ? await escrowReleaseDue(tx, deal) : null;
      const party = isBrand ? 'brand' : isCreator ? 'creator' : admin ? 'admin' : undefined;
      const states = { escrowStatus: deal.escrow_status, dealStatus: deal.status };
      const projected = dealPaymentSummary(amount, { creatorIsPro: creator?.commission_bp === PRO_COMMISSION_BP });
      const released = deal.escrow_status === 'released' || (escrow?.transferred_cents ?? 0) > 0;
      const completedAt = deal.completed_at;
      const disputeWindowEndsAt = completedAt
        ? new Date(completedAt.getTime() + DISPUTE_WINDOW_DAYS * 86_400_000)
        : null;
      return {
        dealId,
        dealStatus: deal.status,
        escrowStatus: deal.escrow_status,
        amountCents: amount,
        serviceFeeCents: fundedFee ?? escrow?.service_fee_cents ?? projected.serviceFeeCents,
        brandTotalCents: amount + (fundedFee ?? escrow?.service_fee_cents ?? projected.serviceFeeCents),
        // Once paid, the rate the payout was taken at (the creator's rate may have changed since).
        commissionBp: released
          ? (commissionRateOf(escrow!.transferred_cents + escrow!.commission_cents, escrow!.commission_cents) ??
            projected.commissionBp)
          : projected.commissionBp,
        commissionCents: released ? escrow!.commission_cents : projected.commissionCents,
        creatorPayoutCents: released ? escrow!.transferred_cents : projected.creatorPayoutCents,
        transferredCents: escrow?.transferred_cents ?? 0,
        refundedCents: escrow?.refunded_cents ?? 0,
        fundedAt: escrow?.funded_at?.toISOString() ?? null,
        releasedAt: escrow?.released_at?.toISOString() ?? null,
        refundedAt: escrow?.refunded_at?.toISOString() ?? null,
        lastPaymentError: escrow?.funded_at
          ? (openTopUp?.last_payment_error ?? null)
          : (escrow?.last_payment_error ?? null),
        creatorPayoutsReady: Boolean(creator?.payouts_enabled),
        autoReleaseAt: releaseDue?.toISOString() ?? null,
        disputeWindowEndsAt: disputeWindowEndsAt?.toISOString() ?? null,
        dispute: escrow?.disputed_at
          ? {
              openedAt: escrow.disputed_at.toISOString(),
              reason: escrow.dispute_reason,
              openedBy: escrow.dispute_opened_by,
              ticketId: escrow.dispute_ticket_id,
              byCard: Boolean(escrow.stripe_dispute_id),
              resolvedAt: escrow.resolved_at?.toISOString() ?? null,
            }
          : null,
        chargedCents: ownWaiting ? 0 : Number(charges.own),
        extraPaymentsRefundedCents: ownWaiting ? 0 : Number(charges.extra),
        checkoutOpen,
        topUp: topUpSummary && {
          creators: waiting.map((w) => ({ creatorId: w.creatorId, name: w.name, priceCents: w.priceCents })),
          amountCents: topUpSummary.amountCents,
          serviceFeeCents: topUpSummary.serviceFeeCents,
          totalCents: topUpSummary.brandTotalCents,
        },
        cancellation: cancelAsked
          ? {
              requestedAt: cancelAsked.toISOString(),
              consentedByMe: escrow!.cancel_consented_by.includes(userId),
            }
          : null,
        viewer: isBrand ? 'brand' : isCreator ? 'creator' : 'admin',
        // Derived from the one escrow table (src/domain/escrow-rules.ts), as the guards above are.
        canFund:
          (escrowAllows('fund', party, states) && deal.selected_creator_ids.length > 0) ||
          (isBrand && waiting.length > 0 && topUpAllowed(deal)),
        canRelease: escrowAllows('release', isBrand ? 'brand' : admin ? 'admin' : undefined, states),
        canDispute:
          escrowAllows('dispute', isBrand ? 'brand' : isCreator ? 'creator' : undefined, states) &&
          (isBrand || deal.status !== 'completed' || payee(deal) === userId) &&
          (!disputeWindowEndsAt || disputeWindowEndsAt.getTime() > Date.now()) &&
          !ownWaiting,
        canResolve: escrowAllows('resolve', admin ? 'admin' : undefined, states) && !escrow?.stripe_dispute_id,
        canCancelCheckout: isBrand && checkoutOpen,
        canRequestCancel: escrowAllows('requestCancel', party, states) && !escrow?.cancel_requested_at,
        canConsentCancel:
          escrowAllows('consentCancel', isCreator ? 'creator' : undefined, states) &&
          Boolean(cancelAsked) &&
          !escrow!.cancel_consented_by.includes(userId),
      };
    });
  }

  /**
   * Scheduled: completed deals, neither released nor disputed, whose payout hold ended (every accepted
   * creator's) — or, for a deal without submissions, 14 days after completion.
   */
  async function dueForAutoRelease(): Promise<string[]> {
    // The rule lives in one SQL function, which the job backlog and the staff home read too.
    const { rows } = await db.pool.query<{ id: string }>(
      `select h.deal_id as id from pacta_private.escrow_awaiting_release() h
        where h.release_due_at <= now() order by h.completed_at, h.deal_id`,
    );
    return rows.map((r) => r.id);
  }

  async function dueForRefund(): Promise<string[]> {
    const { rows } = await db.pool.query<{ id: string }>(
      `select d.id from public.deals d join public.deal_escrows e on e.deal_id = d.id
       where d.status = 'cancelled' and d.escrow_status = 'pending' and e.charge_id is not null`,
    );
    return rows.map((r) => r.id);
  }

  return {
    fundDeal,
    cancelCheckout,
    applyCheckoutExpired,
    applyPaymentIntent,
    requestCancellation,
    consentToCancellation,
    releaseEscrow,
    refundCancelledDeal,
    openDispute,
    resolveDispute,
    applyCardDispute,
    applyChargeRefunds,
    applyTransfer,
    paymentView,
    dueForAutoRelease,
    dueForRefund,
  };
}

export type Escrow = ReturnType<typeof createEscrow>;
