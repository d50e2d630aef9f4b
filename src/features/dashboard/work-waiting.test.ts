import { expect, test } from 'vitest';
import { applicationDocument, dealDocument } from '../../domain/collections/index.ts';
import type { WorkView } from '../../domain/deal-work-view.ts';
import { waitingLines, type DealWork } from './work-waiting.ts';

const deal = dealDocument.parse({
  id: '0190a0b0-0000-7000-8000-0000000000d1',
  brand_id: '0190a0b0-0000-7000-8000-000000000b01',
  title: 'Trail shoes launch',
  description: 'x',
  amount_cents: 25_000,
  escrow_status: 'pending',
  niches: [],
});
const app = (n: number) =>
  applicationDocument.parse({
    id: `0190a0b0-0000-7000-8000-0000000000a${n}`,
    deal_id: deal.id,
    creator_id: `0190a0b0-0000-7000-8000-000000000c0${n}`,
    status: 'accepted',
    price_funded_at: '2026-11-20T09:00:00.000Z',
  });
const deliverable = (status: WorkView['deliverables'][number]['status'], dueDate = '2026-12-04') => ({
  id: 'd1',
  title: 'Instagram Reel',
  dueDate,
  status,
  roundsUsed: 0,
  roundsIncluded: 2,
  draft: null,
  changes: null,
  liveId: null,
  liveUrl: null,
  confirmDueAt: null,
});
const work = (
  n: number,
  status: WorkView['deliverables'][number]['status'],
  payoutDueAt: string | null = null,
): DealWork => ({
  app: app(n),
  deal,
  view: {
    offer: null,
    agreed: { priceCents: 25_000, dueDate: null },
    terms: null,
    termsAgreedVersion: 1,
    termsVersions: [],
    deliverables: [deliverable(status)],
    deliveredAt: null,
    payoutDueAt,
  },
});
// Monday, November 30, 2026: Friday is December 4.
const monday = new Date(2026, 10, 30, 9);

test('the brand reads "2 drafts to review"; the creator whose draft waits sees it waits on the brand', () => {
  const works = [work(1, 'draft_submitted'), work(2, 'draft_submitted'), work(3, 'changes_requested')];
  const brand = waitingLines(works, 'brand', monday);
  expect(brand.mine.map((l) => l.text)).toEqual(['2 drafts to review']);
  expect(brand.theirs.map((l) => l.text)).toEqual([
    'revision requested: due Friday — Instagram Reel, Trail shoes launch',
  ]);
  const creator = waitingLines([work(1, 'draft_submitted')], 'creator', monday);
  expect(creator.mine).toEqual([]);
  expect(creator.theirs).toEqual([{ text: '1 draft to review (waiting for the brand)', dealId: deal.id }]);
});

test('the creator reads "revision requested: due Friday" and the payout on hold', () => {
  const creator = waitingLines(
    [work(3, 'changes_requested'), work(4, 'live', '2026-12-07T12:00:00.000Z')],
    'creator',
    monday,
  );
  expect(creator.mine.map((l) => l.text)).toEqual([
    'revision requested: due Friday — Instagram Reel, Trail shoes launch',
    'Payout on hold until December 7, 2026 — Trail shoes launch',
  ]);
});

test('with the terms agreed and the escrow not funded, the deal waits on the brand, not on the creator’s draft', () => {
  const unfunded: DealWork = { ...work(1, 'not_started'), deal: { ...deal, escrow_status: 'none' } };
  const brand = waitingLines([unfunded], 'brand', monday);
  expect(brand.mine).toEqual([{ text: '1 deal to fund', dealId: deal.id }]);
  expect(brand.theirs).toEqual([]);
  const creator = waitingLines([unfunded], 'creator', monday);
  expect(creator.mine).toEqual([]);
  expect(creator.theirs).toEqual([{ text: '1 deal to fund (waiting for the brand)', dealId: deal.id }]);
  // Funded, the draft is the creator's to do.
  expect(waitingLines([work(1, 'not_started')], 'creator', monday).mine.map((l) => l.text)).toEqual([
    'draft due Friday — Instagram Reel, Trail shoes launch',
  ]);
});

test('a creator accepted after the deal was funded waits on the brand for the top-up of their price', () => {
  const joinedLater: DealWork = { ...work(2, 'not_started'), app: { ...app(2), price_funded_at: null } };
  const brand = waitingLines([work(1, 'not_started'), joinedLater], 'brand', monday);
  expect(brand.mine).toEqual([{ text: '1 deal to fund', dealId: deal.id }]);
  const creator = waitingLines([joinedLater], 'creator', monday);
  expect(creator.mine).toEqual([]);
  expect(creator.theirs).toEqual([{ text: '1 deal to fund (waiting for the brand)', dealId: deal.id }]);
});
