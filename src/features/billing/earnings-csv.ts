import Papa from 'papaparse';
import type { Earning } from './data/money-api.ts';

/** The words the earnings page uses for each status, in the table and in the CSV alike. */
export const EARNING_STATUS_LABEL: Record<Earning['status'], string> = {
  paid: 'Paid',
  held: 'Held in escrow',
  disputed: 'On hold: disputed',
  refunded: 'Refunded to the brand',
};

const dollars = (cents: number) => (cents / 100).toFixed(2);
const day = (iso: string | null) => (iso ? iso.slice(0, 10) : '');

/**
 * The earnings as a spreadsheet: one row per deal, amounts in dollars with two decimals (no currency
 * sign, so a spreadsheet sums them), dates as YYYY-MM-DD (UTC). Papa Parse quotes any title holding a
 * comma, a quote or a line break, and
 * defuses text a spreadsheet would run as a formula.
 */
export function earningsCsv(earnings: Earning[]): string {
  return Papa.unparse(
    {
      fields: [
        'Deal',
        'Brand',
        'Status',
        'Deal amount (USD)',
        'Commission rate',
        'Commission (USD)',
        'Payout (USD)',
        'Funded on',
        'Paid on',
        'Release due on',
        'Deal ID',
      ],
      data: earnings.map((e) => [
        e.dealTitle,
        e.brandName ?? '',
        EARNING_STATUS_LABEL[e.status],
        dollars(e.amountCents),
        e.commissionBp === null ? '' : `${e.commissionBp / 100}%`,
        dollars(e.commissionCents),
        dollars(e.payoutCents),
        day(e.fundedAt),
        day(e.paidAt),
        day(e.releaseAt),
        e.dealId,
      ]),
    },
    // A title such as "=HYPERLINK(…)" is a brand's text: a spreadsheet must show it, never run it.
    { escapeFormulae: true },
  );
}
