import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { dealPaymentSummary } from '../../src/domain/fees.ts';
import { startMoneyFixture, type MoneyFixture, type SyncDoc } from '../payments/money-fixture.ts';
import type { TestUser } from '../support/test-server.ts';

// The deal's work with real money: the parties write the log through /sync/v1 as their devices do,
// escrow is funded through the (local) Stripe's hosted checkout, and the server's money jobs confirm
// and release. The clock is moved by setting the stored deadlines (approval window, payout hold)
// into the past, the way the jobs read them.

let f: MoneyFixture;
let brand: TestUser;
let creator: TestUser;
beforeAll(async () => {
  f = await startMoneyFixture();
  brand = await f.server.createUser({ role: 'brand' });
  creator = await f.server.createUser({ role: 'creator' });
  await f.setUpPayouts(creator);
});
afterAll(() => f?.close());

const jobs = () => f.server.app.pactaPayments!.jobs;
const confirmations = () => f.server.app.pactaLiveLinkConfirmations;
const q = (sql: string, params: unknown[] = []) => f.server.db.pool.query(sql, params);
async function until(check: () => Promise<boolean>) {
  for (let i = 0; i < 200; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('condition never met');
}

async function append(user: TestUser, app: { id: string; dealId: string }, event: Record<string, unknown>) {
  const doc = {
    id: randomUUID(),
    application_id: app.id,
    deal_id: app.dealId,
    author_id: user.id,
    _deleted: false,
    ...event,
  } as SyncDoc;
  const refused = await f.pushed(user, 'deal_events', doc);
  if (refused) throw new Error(`${String(event.kind)} refused: ${refused}`);
  return doc.id;
}

/** A deal of $500 where the creator proposes $600, the brand counters $550 and the creator accepts. */
async function agreedAt550() {
  const dealId = randomUUID();
  await q(
    `insert into public.deals (id, brand_id, title, description, amount_cents, niches, deliverables)
     values ($1, $2, 'Winter reel', 'One reel', 50000, '{fitness}', '{Instagram Post}')`,
    [dealId, brand.id],
  );
  const app = { id: randomUUID(), dealId };
  expect(
    await f.pushed(creator, 'applications', {
      id: app.id,
      deal_id: dealId,
      creator_id: creator.id,
      pitch: 'Me',
      proposed_price_cents: 60_000,
      _deleted: false,
    } as SyncDoc),
  ).toBeUndefined();
  const counter = await append(brand, app, { kind: 'offer', price_cents: 55_000, due_date: '2099-03-01' });
  await append(creator, app, { kind: 'offer_accepted', ref_id: counter });
  await append(creator, app, { kind: 'terms_accepted', terms_version: 1 });
  await append(brand, app, { kind: 'terms_accepted', terms_version: 1 });
  return app;
}

/** Draft approved and the live link submitted for the one deliverable. */
async function delivered(app: { id: string; dealId: string }) {
  const draft = await append(creator, app, { kind: 'draft', deliverable_id: 'd1', links: ['https://v.example/draft'] });
  await append(brand, app, { kind: 'approved', deliverable_id: 'd1', ref_id: draft });
  const live = await append(creator, app, {
    kind: 'live_link',
    deliverable_id: 'd1',
    links: ['https://ig.example/p/1'],
  });
  return { draft, live };
}

const closeApprovalWindow = (appId: string) =>
  q(
    `update public.applications set work = jsonb_set(work, '{d1,confirm_due_at}', to_jsonb(now() - interval '1 minute')) where id = $1`,
    [appId],
  );
const endPayoutHold = (appId: string) =>
  q(`update public.applications set payout_due_at = now() - interval '1 minute' where id = $1`, [appId]);

describe('paid within days, at the agreed price', () => {
  test('escrow funds the agreed price with fees computed from it; automatic confirmation; release after the hold', async () => {
    const app = await agreedAt550();
    await f.fundDeal(brand, app.dealId);
    const summary = dealPaymentSummary(55_000, { creatorIsPro: false });
    const { rows: escrow } = await q(
      `select amount_cents, service_fee_cents from public.deal_escrows where deal_id = $1`,
      [app.dealId],
    );
    expect(escrow[0]).toEqual({ amount_cents: 55_000, service_fee_cents: summary.serviceFeeCents });
    const charged = await q(
      `select sum(amount_cents)::int as n from public.ledger_entries where deal_id = $1 and kind = 'charge'`,
      [app.dealId],
    );
    expect(charged.rows[0].n).toBe(summary.brandTotalCents);

    await delivered(app);
    // The window is still open: the jobs confirm nothing and release nothing.
    expect(await confirmations().run()).toEqual({ confirmed: 0 });
    expect(await jobs().run()).toMatchObject({ released: [] });
    await closeApprovalWindow(app.id);
    expect(await confirmations().run()).toEqual({ confirmed: 1 });
    expect(await jobs().run()).toMatchObject({ released: [] });
    const { rows: done } = await q(`select delivered_at, payout_due_at from public.applications where id = $1`, [
      app.id,
    ]);
    expect(done[0].payout_due_at.getTime() - done[0].delivered_at.getTime()).toBe(72 * 3_600_000);
    expect(await f.escrowStatus(app.dealId)).toBe('pending');
    const view = await f.api(creator, 'GET', `/api/deals/${app.dealId}/payment`);
    expect(view.body).toMatchObject({ dealStatus: 'completed', autoReleaseAt: done[0].payout_due_at.toISOString() });

    // The hold ends: released, the creator paid the agreed price minus commission, nothing left held.
    await endPayoutHold(app.id);
    expect((await jobs().run()).released).toEqual([app.dealId]);
    expect(await f.escrowStatus(app.dealId)).toBe('released');
    const { rows: ledger } = await q(
      `select kind, sum(amount_cents)::int as n from public.ledger_entries where deal_id = $1 group by kind`,
      [app.dealId],
    );
    const byKind = Object.fromEntries(ledger.map((r) => [r.kind, r.n]));
    expect(byKind).toEqual({
      charge: summary.brandTotalCents,
      fee: summary.serviceFeeCents,
      transfer: summary.creatorPayoutCents,
      commission: summary.commissionCents,
    });
  });

  test('the brand may release at once once the work is delivered, before the hold ends', async () => {
    const app = await agreedAt550();
    await f.fundDeal(brand, app.dealId);
    const { live } = await delivered(app);
    // Synced to the other side as messages are: the brand's device pulls the creator's live link and
    // the state it moved; someone outside the deal pulls nothing of it.
    expect(await f.pulled(brand, 'deal_events', live)).toMatchObject({ kind: 'live_link', author_id: creator.id });
    expect((await f.pulled(brand, 'applications', app.id))?.work).toMatchObject({
      d1: { status: 'live_submitted', live_url: 'https://ig.example/p/1' },
    });
    const outsider = await f.server.createUser({ role: 'brand' });
    expect(await f.pulled(outsider, 'deal_events', live)).toBeUndefined();
    const early = await f.api(brand, 'POST', '/api/release-escrow', { dealId: app.dealId });
    expect(early.body).toMatchObject({ code: 'deal_not_completed' });
    await append(brand, app, { kind: 'live_confirmed', deliverable_id: 'd1', ref_id: live });
    const view = await f.api(brand, 'GET', `/api/deals/${app.dealId}/payment`);
    expect(view.body).toMatchObject({ canRelease: true, canDispute: true });
    const now = await f.api(brand, 'POST', '/api/release-escrow', { dealId: app.dealId });
    expect(now.status).toBe(200);
    expect(await f.escrowStatus(app.dealId)).toBe('released');
  });

  test('a dispute names the deliverable and the submission, and stops the clock', async () => {
    const app = await agreedAt550();
    await f.fundDeal(brand, app.dealId);
    const { draft, live } = await delivered(app);
    const path = `/api/deals/${app.dealId}/dispute`;
    const reason = 'The post is not what was approved.';
    expect((await f.api(brand, 'POST', path, { reason })).body).toMatchObject({ code: 'submission_required' });
    expect(
      (await f.api(brand, 'POST', path, { reason, deliverableId: 'd1', submissionId: randomUUID() })).body,
    ).toMatchObject({ code: 'submission_not_found' });
    const opened = await f.api(brand, 'POST', path, { reason, deliverableId: 'd1', submissionId: live });
    expect(opened.body).toMatchObject({ escrowStatus: 'disputed' });
    const { rows } = await q(
      `select dispute_deliverable_id, dispute_submission_id from public.deal_escrows where deal_id = $1`,
      [app.dealId],
    );
    expect(rows[0]).toEqual({ dispute_deliverable_id: 'd1', dispute_submission_id: live });
    expect(draft).not.toBe(live);
    // The approval window closes, time passes: nothing is confirmed, nothing released.
    await closeApprovalWindow(app.id);
    await q(`update public.deals set completed_at = now() - interval '30 days' where id = $1`, [app.dealId]);
    expect(await confirmations().run()).toEqual({ confirmed: 0 });
    expect(await jobs().run()).toMatchObject({ released: [] });
    const { rows: still } = await q(
      `select work -> 'd1' ->> 'status' as status from public.applications where id = $1`,
      [app.id],
    );
    expect(still[0].status).toBe('live_submitted');
    expect(await f.escrowStatus(app.dealId)).toBe('disputed');
  });

  test('a card dispute the bank closes in the creator’s favour starts the clock again: confirmed, then released after the hold', async () => {
    const app = await agreedAt550();
    // The 0259 card pays and is then disputed with the bank.
    const start = await f.api(brand, 'POST', `/api/deals/${app.dealId}/fund`);
    expect((await f.payOnHostedPage(String(start.body.url), '4000000000000259')).status).toBe(303);
    await until(async () => (await f.escrowStatus(app.dealId)) === 'disputed');
    await delivered(app);
    // While the bank decides, the clock stands: the window closes and nothing is confirmed.
    await closeApprovalWindow(app.id);
    expect(await confirmations().run()).toEqual({ confirmed: 0 });

    // The brand's bank closes the dispute in the creator's favour (evidence that wins, as Stripe's test mode).
    const { rows } = await q(`select stripe_dispute_id from public.deal_escrows where deal_id = $1`, [app.dealId]);
    await f.stripe.disputes.update(rows[0].stripe_dispute_id, { evidence: { uncategorized_text: 'winning_evidence' } });
    await until(async () => (await f.escrowStatus(app.dealId)) === 'pending');
    // The clock runs again by itself: the live link is confirmed, the hold starts, and it is released after it.
    expect(await confirmations().run()).toEqual({ confirmed: 1 });
    expect(await jobs().run()).toMatchObject({ released: [] });
    await endPayoutHold(app.id);
    expect((await jobs().run()).released).toEqual([app.dealId]);
    expect(await f.escrowStatus(app.dealId)).toBe('released');
  });

  test('no draft before the escrow is funded: the device is told why; once the brand pays, the same draft goes through', async () => {
    const app = await agreedAt550();
    const draft = {
      id: randomUUID(),
      application_id: app.id,
      deal_id: app.dealId,
      author_id: creator.id,
      kind: 'draft',
      deliverable_id: 'd1',
      links: ['https://v.example/draft'],
      _deleted: false,
    } as SyncDoc;
    expect(await f.pushed(creator, 'deal_events', draft)).toBe('not_funded');
    await f.fundDeal(brand, app.dealId);
    expect(await f.pushed(creator, 'deal_events', draft)).toBeUndefined();
    expect((await f.pulled(brand, 'applications', app.id))?.work).toMatchObject({
      d1: { status: 'draft_submitted', draft_id: draft.id },
    });
  });

  test('a funded deal accepts another creator, whose price waits for a top-up: escrow funds each accepted creator’s price', async () => {
    const dealId = randomUUID();
    await q(
      `insert into public.deals (id, brand_id, title, description, amount_cents, niches, max_creators)
       values ($1, $2, 'Two voices', 'Two reels', 20000, '{fitness}', 2)`,
      [dealId, brand.id],
    );
    const other = await f.server.createUser({ role: 'creator' });
    const first = { id: randomUUID(), dealId };
    const second = { id: randomUUID(), dealId };
    for (const [who, app] of [
      [creator, first],
      [other, second],
    ] as const)
      expect(
        await f.pushed(who, 'applications', {
          id: app.id,
          deal_id: dealId,
          creator_id: who.id,
          _deleted: false,
        } as SyncDoc),
      ).toBeUndefined();
    await append(brand, first, { kind: 'offer_accepted', ref_id: null });
    await f.fundDeal(brand, dealId);
    const late = {
      id: randomUUID(),
      application_id: second.id,
      deal_id: dealId,
      author_id: brand.id,
      kind: 'offer_accepted',
      ref_id: null,
      _deleted: false,
    } as SyncDoc;
    expect(await f.pushed(brand, 'deal_events', late)).toBeUndefined();
    // Both sides' devices see the first creator's price funded and the second's waiting.
    expect((await f.pulled(creator, 'applications', first.id))?.price_funded_at).toBeTruthy();
    expect((await f.pulled(other, 'applications', second.id))?.price_funded_at).toBeNull();
    expect((await f.pulled(brand, 'applications', second.id))?.price_funded_at).toBeNull();
    const view = await f.api(brand, 'GET', `/api/deals/${dealId}/payment`);
    expect(view.body).toMatchObject({ canFund: true, topUp: { amountCents: 20_000 } });
  });
});
