import { expect, test } from 'vitest';
import { applicationDocument, dealEventDocument, type DealEventDocument } from './collections/index.ts';
import { defaultTermsSheet } from './deal-work.ts';
import { timelineText, waitingItems, workStatusText, workView } from './deal-work-view.ts';

const CREATOR = '0190a0b0-0000-7000-8000-000000000c01';
const BRAND = '0190a0b0-0000-7000-8000-000000000b01';
const DEAL = '0190a0b0-0000-7000-8000-0000000000d1';
const APP = '0190a0b0-0000-7000-8000-0000000000a1';
let n = 0;
const ev = (fields: Partial<DealEventDocument> & Pick<DealEventDocument, 'kind'>, synced = true) =>
  dealEventDocument.parse({
    id: `0190a0b0-0000-7000-8000-${String(++n).padStart(12, '0')}`,
    application_id: APP,
    deal_id: DEAL,
    author_id: CREATOR,
    created_at: `2026-11-2${Math.min(n, 9)}T10:00:00.000Z`,
    ...(synced ? { version: n } : {}),
    ...fields,
  });
const day = (iso: string) => iso.slice(0, 10);

const sheet = defaultTermsSheet(['Instagram Reel', 'Story'], '2026-12-04');
const accepted = applicationDocument.parse({
  id: APP,
  deal_id: DEAL,
  creator_id: CREATOR,
  status: 'accepted',
  agreed_price_cents: 30_000,
  terms_version: 1,
  terms_accepted_by: ['creator', 'brand'],
  terms_agreed_version: 1,
  work: {
    d1: {
      status: 'draft_submitted',
      rounds_used: 0,
      rounds_included: 2,
      draft_id: null,
      live_id: null,
      live_url: null,
      confirm_due_at: null,
    },
    d2: {
      status: 'changes_requested',
      rounds_used: 1,
      rounds_included: 2,
      draft_id: null,
      live_id: null,
      live_url: null,
      confirm_due_at: null,
    },
  },
  version: 9,
});
const termsEvent = ev({ kind: 'terms', author_id: null, terms: sheet, terms_version: 1 });

test('an offer on the table waits on the other side; its status reads "Offer sent"', () => {
  const pending = applicationDocument.parse({
    id: APP,
    deal_id: DEAL,
    creator_id: CREATOR,
    status: 'pending',
    proposed_price_cents: 25_000,
    offer_price_cents: 25_000,
    offer_by: 'creator',
    version: 1,
  });
  const view = workView(pending, []);
  expect(view.offer).toEqual({ priceCents: 25_000, dueDate: null, by: 'creator', id: null });
  expect(waitingItems(pending, view)).toEqual([{ on: 'brand', kind: 'offer', priceCents: 25_000 }]);
  expect(workStatusText(pending, view, day)).toBe('Offer sent');
  // The brand counters on this device, offline: its offer is on the table at once, waiting on the creator.
  const counter = ev({ kind: 'offer', author_id: BRAND, price_cents: 30_000, due_date: '2026-12-04' }, false);
  const after = workView(pending, [counter]);
  expect(after.offer).toEqual({ priceCents: 30_000, dueDate: '2026-12-04', by: 'brand', id: counter.id });
  expect(waitingItems(pending, after)).toEqual([{ on: 'creator', kind: 'offer', priceCents: 30_000 }]);
});

test('drafts to review wait on the brand, requested changes on the creator with the due date', () => {
  const view = workView(accepted, [termsEvent]);
  expect(view.deliverables.map((d) => [d.title, d.status])).toEqual([
    ['Instagram Reel', 'draft_submitted'],
    ['Story', 'changes_requested'],
  ]);
  expect(waitingItems(accepted, view)).toEqual([
    { on: 'brand', kind: 'draft_review', deliverable: 'Instagram Reel' },
    { on: 'creator', kind: 'changes', deliverable: 'Story', dueDate: '2026-12-04' },
  ]);
  expect(workStatusText(accepted, view, day)).toBe('Changes requested');
});

test('a draft submitted offline shows as submitted before it syncs; a refused one does not count', () => {
  const resubmitted = ev({ kind: 'draft', deliverable_id: 'd2', links: ['https://video.example/v2'] }, false);
  const view = workView(accepted, [termsEvent, resubmitted]);
  expect(view.deliverables[1]).toMatchObject({ status: 'draft_submitted', draft: { id: resubmitted.id } });
  const refused = { ...resubmitted, sync_rejection: { code: 'not_approved', message: 'No.' } };
  expect(workView(accepted, [termsEvent, refused as DealEventDocument]).deliverables[1]!.status).toBe(
    'changes_requested',
  );
});

test('terms waiting for one side; then the payout hold in the words both sides see', () => {
  const newTerms = { ...accepted, terms_version: 2, terms_accepted_by: ['brand' as const] };
  const v2 = ev({ kind: 'terms', author_id: BRAND, terms: sheet, terms_version: 2 });
  const view = workView(newTerms, [termsEvent, v2]);
  expect(waitingItems(newTerms, view).filter((i) => i.kind === 'terms')).toEqual([{ on: 'creator', kind: 'terms' }]);
  expect(workStatusText(newTerms, view, day)).toBe('Terms to accept');
  const held = { ...accepted, payout_due_at: '2026-12-07T10:00:00.000Z' };
  expect(workStatusText(held, workView(held, [termsEvent]), day)).toBe('Payout on hold until 2026-12-07');
});

test('the timeline says who did what, and when the server confirmed on its own', () => {
  const names = { creator: 'Maya', brand: 'Lumen' };
  const titles = new Map([['d1', 'Instagram Reel']]);
  const say = (e: DealEventDocument) => timelineText(accepted, e, names, titles, (d) => d);
  expect(say(ev({ kind: 'offer', author_id: BRAND, price_cents: 30_000, due_date: '2026-12-04' }))).toBe(
    'Lumen made an offer: $300.00, due 2026-12-04.',
  );
  expect(say(ev({ kind: 'draft', deliverable_id: 'd1' }))).toBe('Maya submitted a draft of Instagram Reel.');
  expect(say(ev({ kind: 'live_confirmed', author_id: null, deliverable_id: 'd1' }))).toBe(
    'The live link of Instagram Reel was confirmed automatically: the approval window closed.',
  );
});

test('a deliverable whose title ends in a full stop is named with one full stop, not two', () => {
  const titles = new Map([['d1', 'Reel for Northwind Outdoor Co.']]);
  const say = (e: DealEventDocument) =>
    timelineText(accepted, e, { creator: 'Maya', brand: 'Lumen' }, titles, (d) => d);
  expect(say(ev({ kind: 'approved', author_id: BRAND, deliverable_id: 'd1' }))).toBe(
    'Lumen approved Reel for Northwind Outdoor Co.',
  );
});

test('a proposed change declined, even offline, waits on nobody: the version in force speaks again, every version stays listed', () => {
  const proposed = { ...accepted, terms_version: 2, terms_accepted_by: ['creator' as const] };
  const v2 = ev({ kind: 'terms', author_id: CREATOR, terms: { ...sheet, exclusivity_days: 30 }, terms_version: 2 });
  const open = workView(proposed, [termsEvent, v2]);
  expect(open.terms).toMatchObject({ version: 2, acceptedBy: ['creator'], declinedBy: null });
  expect(waitingItems(proposed, open).filter((i) => i.kind === 'terms')).toEqual([{ on: 'brand', kind: 'terms' }]);
  const decline = ev({ kind: 'terms_declined', author_id: BRAND, terms_version: 2 }, false);
  const view = workView(proposed, [termsEvent, v2, decline]);
  expect(view.terms).toMatchObject({ version: 2, declinedBy: 'brand' });
  expect(view.termsAgreedVersion).toBe(1);
  expect(view.termsVersions.map((v) => [v.version, v.by, v.declined])).toEqual([
    [1, 'server', false],
    [2, 'creator', true],
  ]);
  expect(waitingItems(proposed, view).filter((i) => i.kind === 'terms')).toEqual([]);
  expect(workStatusText(proposed, view, day)).toBe('Changes requested');
  expect(timelineText(proposed, decline, { creator: 'Maya', brand: 'Lumen' }, new Map(), (d) => d)).toBe(
    'Lumen declined terms version 2.',
  );
});
