import type { Earning, Earnings } from '../../src/domain/contracts/money.ts';
import { commissionRateOf, percentOfCents } from '../../src/domain/fees.ts';
import type { Tx } from '../db/database.ts';
import { escrowReleaseDue } from './release-due.ts';

type EarningRow = {
  deal_id: string;
  title: string;
  brand_name: string | null;
  escrow_status: 'none' | 'pending' | 'released' | 'refunded' | 'disputed';
  completed_at: Date | null;
  funded_at: Date;
  price_cents: string;
  commission_bp: number;
  transferred_cents: string;
  commission_paid_cents: string;
  paid_at: Date | null;
};

/**
 * The creator's earnings, read from the money the server keeps: every deal whose escrow was funded
 * with this creator accepted (or that paid them). A transfer in the ledger makes it paid, with the
 * commission recorded beside that transfer; otherwise escrow still holds the creator's price and the
 * release will take the creator's commission from it, as the deal's payment panel says.
 */
export async function creatorEarnings(tx: Tx, creatorId: string): Promise<Earnings> {
  const { rows } = await tx.query<EarningRow>(
    `select d.id as deal_id, d.title, nullif(b.full_name, '') as brand_name, d.escrow_status, d.completed_at,
            e.funded_at,
            case when cardinality(d.selected_creator_ids) <= 1 then e.amount_cents
                 else coalesce(a.agreed_price_cents, d.amount_cents) end as price_cents,
            public.creator_commission_bp($1) as commission_bp,
            coalesce(t.transferred, 0) as transferred_cents,
            coalesce(c.commission, 0) as commission_paid_cents,
            t.paid_at
       from public.deals d
       join public.deal_escrows e on e.deal_id = d.id and e.funded_at is not null
       left join public.profiles b on b.id = d.brand_id
       left join public.applications a on a.deal_id = d.id and a.creator_id = $1
       left join lateral (
         select sum(l.amount_cents) as transferred, max(l.created_at) as paid_at, array_agg(l.stripe_ref) as refs
           from public.ledger_entries l
          where l.deal_id = d.id and l.user_id = $1 and l.kind = 'transfer') t on true
       left join lateral (
         -- A payout's commission is recorded under the same Stripe transfer as the payout itself.
         select sum(l.amount_cents) as commission
           from public.ledger_entries l
          where l.deal_id = d.id and l.kind = 'commission' and l.stripe_ref = any(t.refs)) c on true
      where $1 = any(d.selected_creator_ids) or t.transferred is not null
      order by e.funded_at desc, d.id`,
    [creatorId],
  );
  const earnings: Earning[] = [];
  for (const row of rows) {
    const price = Number(row.price_cents);
    const transferred = Number(row.transferred_cents);
    const base = { dealId: row.deal_id, dealTitle: row.title, brandName: row.brand_name, amountCents: price };
    const fundedAt = row.funded_at.toISOString();
    if (transferred > 0) {
      const commission = Number(row.commission_paid_cents);
      earnings.push({
        ...base,
        status: 'paid',
        commissionBp: commissionRateOf(transferred + commission, commission),
        commissionCents: commission,
        payoutCents: transferred,
        fundedAt,
        paidAt: row.paid_at?.toISOString() ?? null,
        releaseAt: null,
      });
      continue;
    }
    const held = row.escrow_status === 'pending' || row.escrow_status === 'disputed';
    const commission = held ? percentOfCents(price, row.commission_bp) : 0;
    const releaseAt =
      row.escrow_status === 'pending'
        ? await escrowReleaseDue(tx, { id: row.deal_id, completed_at: row.completed_at }, creatorId)
        : null;
    earnings.push({
      ...base,
      status: row.escrow_status === 'pending' ? 'held' : row.escrow_status === 'disputed' ? 'disputed' : 'refunded',
      commissionBp: held ? row.commission_bp : null,
      commissionCents: commission,
      payoutCents: held ? price - commission : 0,
      fundedAt,
      paidAt: null,
      releaseAt: releaseAt?.toISOString() ?? null,
    });
  }
  const sum = (pick: (e: Earning) => number) => earnings.reduce((total, e) => total + pick(e), 0);
  return {
    earnings,
    totals: {
      paidCents: sum((e) => (e.status === 'paid' ? e.payoutCents : 0)),
      heldCents: sum((e) => (e.status === 'held' || e.status === 'disputed' ? e.payoutCents : 0)),
      commissionCents: sum((e) => (e.status === 'paid' ? e.commissionCents : 0)),
    },
  };
}
