import type { Tx } from '../db/database.ts';

export type LedgerKind = 'charge' | 'fee' | 'commission' | 'transfer' | 'refund' | 'subscription';

export type LedgerRow = {
  dealId?: string;
  userId?: string;
  kind: LedgerKind;
  /** Signed cents: a reversed fee is negative. */
  amountCents: number;
  /** The Stripe object behind the movement; (kind, ref) is unique, so a movement is recorded once. */
  stripeRef: string;
  memo?: string;
};

/** Records one money movement; false when it was already recorded (the API answer and its webhook). */
export async function recordLedger(tx: Tx, row: LedgerRow): Promise<boolean> {
  const { rowCount } = await tx.query(
    `insert into public.ledger_entries (deal_id, user_id, kind, amount_cents, stripe_ref, memo)
     values ($1, $2, $3, $4, $5, $6) on conflict (kind, stripe_ref) do nothing`,
    [row.dealId ?? null, row.userId ?? null, row.kind, row.amountCents, row.stripeRef, row.memo ?? ''],
  );
  return rowCount === 1;
}

export type DealBalance = {
  chargeCents: number;
  refundCents: number;
  feeCents: number;
  commissionCents: number;
  transferCents: number;
  /** charge − refund − fee − commission − transfer: what escrow still holds (0 once settled). */
  heldCents: number;
};

export async function dealBalance(tx: Tx, dealId: string): Promise<DealBalance> {
  const { rows } = await tx.query<{ kind: LedgerKind; total: number }>(
    `select kind, sum(amount_cents)::bigint as total from public.ledger_entries where deal_id = $1 group by kind`,
    [dealId],
  );
  const sum = (kind: LedgerKind) => Number(rows.find((r) => r.kind === kind)?.total ?? 0);
  const b = {
    chargeCents: sum('charge'),
    refundCents: sum('refund'),
    feeCents: sum('fee'),
    commissionCents: sum('commission'),
    transferCents: sum('transfer'),
  };
  return { ...b, heldCents: b.chargeCents - b.refundCents - b.feeCents - b.commissionCents - b.transferCents };
}
