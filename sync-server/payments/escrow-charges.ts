import { SERVICE_FEE_BP, percentOfCents } from '../../src/domain/fees.ts';
import type { Tx } from '../db/database.ts';

/**
 * The charges that fund a deal's escrow (docs/decisions/048-escrow-top-ups.md): the first funding,
 * then a top-up for each creator accepted after it. Money moves per charge: a creator is paid from the
 * charge that funded their price, and no refund takes more from a charge than it still holds.
 */
export type EscrowCharge = {
  id: string;
  creatorIds: string[];
  amountCents: number;
  serviceFeeCents: number;
  paymentIntentId: string;
  chargeId: string;
  refundedCents: number;
  feeRefundedCents: number;
  releasedCents: number;
};

type ChargeRow = {
  id: string;
  creator_ids: string[];
  amount_cents: string;
  service_fee_cents: string;
  payment_intent_id: string;
  charge_id: string;
  refunded_cents: string;
  fee_refunded_cents: string;
  released_cents: string;
};

const toCharge = (r: ChargeRow): EscrowCharge => ({
  id: r.id,
  creatorIds: r.creator_ids,
  amountCents: Number(r.amount_cents),
  serviceFeeCents: Number(r.service_fee_cents),
  paymentIntentId: r.payment_intent_id,
  chargeId: r.charge_id,
  refundedCents: Number(r.refunded_cents),
  feeRefundedCents: Number(r.fee_refunded_cents),
  releasedCents: Number(r.released_cents),
});

/** The deal's paid charges, oldest first, locked for the money that moves next. */
export async function lockFundedCharges(tx: Tx, dealId: string): Promise<EscrowCharge[]> {
  const { rows } = await tx.query<ChargeRow>(
    `select * from public.deal_escrow_charges where deal_id = $1 and funded_at is not null
      order by funded_at, id for update`,
    [dealId],
  );
  return rows.map(toCharge);
}

/** The deal's paid charges, oldest first (reading only). */
export async function fundedCharges(tx: Tx, dealId: string): Promise<EscrowCharge[]> {
  const { rows } = await tx.query<ChargeRow>(
    `select * from public.deal_escrow_charges where deal_id = $1 and funded_at is not null order by funded_at, id`,
    [dealId],
  );
  return rows.map(toCharge);
}

/** The paid charge a card dispute or a refund made in Stripe is about. */
export async function lockChargeByStripeId(
  tx: Tx,
  chargeId: string,
): Promise<(EscrowCharge & { dealId: string }) | undefined> {
  const { rows } = await tx.query<ChargeRow & { deal_id: string }>(
    `select * from public.deal_escrow_charges where charge_id = $1 for update`,
    [chargeId],
  );
  return rows[0] && { ...toCharge(rows[0]), dealId: rows[0].deal_id };
}

/** The part of the charge's deal amount still held: not paid out, not refunded. */
export function amountHeld(c: EscrowCharge): number {
  return Math.max(0, c.amountCents - c.releasedCents - (c.refundedCents - c.feeRefundedCents));
}

/** The part of the charge's service fee not yet returned. */
export const feeHeld = (c: EscrowCharge): number => c.serviceFeeCents - c.feeRefundedCents;

/** What Stripe would still refund of the charge (amount and fee). */
const refundable = (c: EscrowCharge): number => c.amountCents + c.serviceFeeCents - c.refundedCents;

export const totalHeld = (charges: EscrowCharge[]): number => charges.reduce((sum, c) => sum + amountHeld(c), 0);

/** The charge that funded this creator's price. */
export const chargeFunding = (charges: EscrowCharge[], creatorId: string): EscrowCharge | undefined =>
  charges.find((c) => c.creatorIds.includes(creatorId));

export type ChargeRefund = { charge: EscrowCharge; totalCents: number; feeBackCents: number };

/**
 * How `amountCents` of the deal amount goes back to the brand, charge by charge, newest first (a
 * top-up's creator joined last): each charge gives at most what it holds, with its share of the
 * service fee (all of its fee when its whole amount goes back). `'all'` refunds everything held.
 */
export function planRefund(charges: EscrowCharge[], amountCents: number | 'all'): ChargeRefund[] {
  let left = amountCents === 'all' ? totalHeld(charges) : amountCents;
  const plan: ChargeRefund[] = [];
  for (const charge of [...charges].reverse()) {
    const held = amountHeld(charge);
    const take = Math.min(left, held);
    if (take <= 0) continue;
    left -= take;
    const wholeCharge = take === held && charge.releasedCents === 0;
    const feeBackCents = wholeCharge
      ? feeHeld(charge)
      : Math.min(percentOfCents(take, SERVICE_FEE_BP), feeHeld(charge));
    const totalCents = Math.min(take + feeBackCents, refundable(charge));
    plan.push({ charge, totalCents, feeBackCents: Math.min(feeBackCents, totalCents) });
  }
  return plan;
}
