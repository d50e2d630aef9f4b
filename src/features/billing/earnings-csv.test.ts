import Papa from 'papaparse';
import { expect, test } from 'vitest';
import type { Earning } from './data/money-api.ts';
import { earningsCsv } from './earnings-csv.ts';

const paid: Earning = {
  dealId: '6f1c4f8e-2b1a-4c55-9a43-1f0f3b1c2d3e',
  dealTitle: 'Trail shoes, "spring" reel, 2 posts',
  brandName: 'Northwind Outdoors',
  status: 'paid',
  amountCents: 40_000,
  commissionBp: 250,
  commissionCents: 1_000,
  payoutCents: 39_000,
  fundedAt: '2026-11-02T10:00:00.000Z',
  paidAt: '2026-11-20T09:30:00.000Z',
  releaseAt: null,
};

test('one row per deal, amounts in dollars, dates as days, titles with commas and quotes kept whole', () => {
  const held: Earning = {
    ...paid,
    dealId: '0b7d4c9a-9c1e-4c0b-8b7e-2f6a1d3c4b5a',
    dealTitle: 'Autumn vlog',
    brandName: null,
    status: 'held',
    amountCents: 12_345,
    commissionBp: 500,
    commissionCents: 617,
    payoutCents: 11_728,
    paidAt: null,
    releaseAt: '2026-12-04T08:00:00.000Z',
  };
  const rows = Papa.parse<string[]>(earningsCsv([paid, held])).data;
  expect(rows[0]).toEqual([
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
  ]);
  expect(rows[1]).toEqual([
    'Trail shoes, "spring" reel, 2 posts',
    'Northwind Outdoors',
    'Paid',
    '400.00',
    '2.5%',
    '10.00',
    '390.00',
    '2026-11-02',
    '2026-11-20',
    '',
    paid.dealId,
  ]);
  expect(rows[2]).toEqual([
    'Autumn vlog',
    '',
    'Held in escrow',
    '123.45',
    '5%',
    '6.17',
    '117.28',
    '2026-11-02',
    '',
    '2026-12-04',
    held.dealId,
  ]);
});

test('a title that a spreadsheet would run as a formula is written as text', () => {
  const csv = earningsCsv([{ ...paid, dealTitle: '=HYPERLINK("http://x.test","Click")' }]);
  const title = Papa.parse<string[]>(csv).data[1]![0];
  expect(title).toBe(`'=HYPERLINK("http://x.test","Click")`);
});
