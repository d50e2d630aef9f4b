import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createDatabase, type Database } from '../../sync-server/db/database.ts';
import {
  DEFAULT_APPROVAL_WINDOW_HOURS,
  DEFAULT_PAYOUT_HOLD_HOURS,
  DEFAULT_REVISION_ROUNDS,
  defaultTermsSheet,
} from '../../src/domain/deal-work.ts';
import { apply, asServer, asUser, expectRule, makeDeal, makeUser } from '../support/rules-fixtures.ts';
import { createTestDatabase } from '../support/test-database.ts';

// The rules of the deal's work log (public.deal_events): each event is checked against the state the
// earlier ones left on the application. Writes go through RLS as the signed-in party; the clock is
// moved by setting the application's stored deadlines into the past, as the server's jobs read them.

let db: Database;
let drop: () => Promise<void>;
let brand: string;
let creator: string;
let otherCreator: string;
let stranger: string;

beforeAll(async () => {
  const database = await createTestDatabase();
  drop = database.drop;
  db = createDatabase(database.url);
  [brand, creator, otherCreator, stranger] = await Promise.all([
    makeUser(db, 'brand', { name: 'Acme' }),
    makeUser(db, 'creator', { name: 'Casey' }),
    makeUser(db, 'creator', { name: 'Robin' }),
    makeUser(db, 'brand'),
  ]);
});
afterAll(async () => {
  await db?.close();
  await drop?.();
});

type Event = Record<string, unknown> & { kind: string };

async function append(userId: string, applicationId: string, dealId: string, event: Event): Promise<string> {
  const id = randomUUID();
  const row: Record<string, unknown> = {
    id,
    application_id: applicationId,
    deal_id: dealId,
    author_id: userId,
    ...event,
  };
  const cols = Object.keys(row);
  await asUser(
    db,
    userId,
    `insert into public.deal_events (${cols.join(', ')}) values (${cols.map((c, i) => (c === 'terms' ? `$${i + 1}::jsonb` : `$${i + 1}`)).join(', ')})`,
    Object.values(row).map((v, i) => (cols[i] === 'terms' ? JSON.stringify(v) : v)),
  );
  return id;
}

const application = async (id: string) =>
  (await asServer(db, 'select * from public.applications where id = $1', [id])).rows[0];
const deal = async (id: string) => (await asServer(db, 'select * from public.deals where id = $1', [id])).rows[0];
const events = async (applicationId: string) =>
  (
    await asServer(db, 'select * from public.deal_events where application_id = $1 order by created_at, id', [
      applicationId,
    ])
  ).rows;
const notificationsOf = async (userId: string, dealId: string) =>
  (
    await asServer(
      db,
      `select type, title, message from public.notifications where user_id = $1 and data ->> 'deal_id' = $2 order by created_at`,
      [userId, dealId],
    )
  ).rows as { type: string; title: string; message: string }[];

/** The deal's escrow in that state, as the server's money code leaves it (funded: 'pending'). */
const setEscrow = (dealId: string, status: 'none' | 'pending' | 'refunded' | 'disputed' | 'released') =>
  asServer(db, `update public.deals set escrow_status = $2 where id = $1`, [dealId, status]);

/** A deal with the creator accepted, both sides' acceptance of terms version 1 and its escrow funded. */
async function agreedDeal(opts: { deliverables?: string[]; maxCreators?: number; funded?: boolean } = {}) {
  const dealId = await makeDeal(db, brand, {
    deliverables: opts.deliverables ?? ['Instagram Post'],
    ...(opts.maxCreators ? { max_creators: opts.maxCreators } : {}),
  });
  const appId = await apply(db, creator, dealId);
  await asUser(db, brand, `update public.applications set status = 'accepted' where id = $1`, [appId]);
  await append(creator, appId, dealId, { kind: 'terms_accepted', terms_version: 1 });
  await append(brand, appId, dealId, { kind: 'terms_accepted', terms_version: 1 });
  if (opts.funded !== false) await setEscrow(dealId, 'pending');
  return { dealId, appId };
}

describe('offers', () => {
  test('an application proposes the deal’s amount by default, or the creator’s own price', async () => {
    const dealId = await makeDeal(db, brand, { amount_cents: 50_000 });
    const byDefault = await apply(db, creator, dealId);
    expect(await application(byDefault)).toMatchObject({
      proposed_price_cents: null,
      offer_price_cents: 50000,
      offer_by: 'creator',
      agreed_price_cents: null,
    });
    const own = randomUUID();
    await asUser(
      db,
      otherCreator,
      `insert into public.applications (id, deal_id, creator_id, proposed_price_cents) values ($1, $2, $3, 65000)`,
      [own, dealId, otherCreator],
    );
    expect(await application(own)).toMatchObject({ proposed_price_cents: 65000, offer_by: 'creator' });
    await expectRule(
      asUser(db, otherCreator, `update public.applications set proposed_price_cents = 1000 where id = $1`, [own]),
      'immutable_field',
    );
  });

  test('either side counters; the other accepts; accepting fixes the price and accepts the creator', async () => {
    const dealId = await makeDeal(db, brand, { amount_cents: 50_000 });
    const appId = await apply(db, creator, dealId);
    // The brand counters with a lower price and a due date.
    const counter = await append(brand, appId, dealId, { kind: 'offer', price_cents: 40_000, due_date: '2099-01-31' });
    expect(await application(appId)).toMatchObject({ offer_price_cents: 40000, offer_by: 'brand', offer_id: counter });
    // The brand cannot accept its own offer, nor accept the application over the creator's head.
    await expectRule(append(brand, appId, dealId, { kind: 'offer_accepted', ref_id: counter }), 'own_offer', 409);
    await expectRule(
      asUser(db, brand, `update public.applications set status = 'accepted' where id = $1`, [appId]),
      'offer_not_accepted',
      409,
    );
    // A stranger can neither counter nor accept.
    await expectRule(
      append(stranger, appId, dealId, { kind: 'offer', price_cents: 1_000 }),
      'application_not_found',
      404,
    );
    // The creator counters back; accepting the older offer is refused.
    const back = await append(creator, appId, dealId, { kind: 'offer', price_cents: 45_000, due_date: '2099-02-15' });
    await expectRule(append(brand, appId, dealId, { kind: 'offer_accepted', ref_id: counter }), 'offer_changed', 409);
    await append(brand, appId, dealId, { kind: 'offer_accepted', ref_id: back });
    expect(await application(appId)).toMatchObject({
      status: 'accepted',
      agreed_price_cents: 45000,
      offer_price_cents: null,
      offer_by: null,
      terms_version: 1,
    });
    expect((await application(appId)).agreed_due_date.toISOString().slice(0, 10)).toBe('2099-02-15');
    expect((await deal(dealId)).selected_creator_ids).toEqual([creator]);
    // Once agreed, no more offers.
    await expectRule(append(creator, appId, dealId, { kind: 'offer', price_cents: 99_000 }), 'offer_closed', 409);
    // Both sides saw each step.
    expect((await notificationsOf(creator, dealId)).map((n) => n.type)).toContain('offer_received');
    expect((await notificationsOf(brand, dealId)).map((n) => n.type)).toEqual(
      expect.arrayContaining(['new_application', 'offer_received']),
    );
    expect((await notificationsOf(creator, dealId)).map((n) => n.type)).toContain('offer_accepted');
  });

  test('a deal selects several creators, each at their own price, up to max_creators', async () => {
    const dealId = await makeDeal(db, brand, { amount_cents: 50_000, max_creators: 1 });
    const first = await apply(db, creator, dealId);
    const secondId = randomUUID();
    await asUser(
      db,
      otherCreator,
      `insert into public.applications (id, deal_id, creator_id, proposed_price_cents) values ($1, $2, $3, 70000)`,
      [secondId, dealId, otherCreator],
    );
    await append(brand, first, dealId, { kind: 'offer_accepted', ref_id: null });
    await expectRule(append(brand, secondId, dealId, { kind: 'offer_accepted', ref_id: null }), 'max_creators_reached');
    await asUser(db, brand, `update public.deals set max_creators = 2 where id = $1`, [dealId]);
    await append(brand, secondId, dealId, { kind: 'offer_accepted', ref_id: null });
    expect([(await application(first)).agreed_price_cents, (await application(secondId)).agreed_price_cents]).toEqual([
      50000, 70000,
    ]);
  });
});

describe('terms', () => {
  test('version 1 is written on acceptance with the defaults; both sides accept; any change needs both again', async () => {
    const dealId = await makeDeal(db, brand, { deliverables: ['Instagram Post', 'TikTok Video'] });
    const appId = await apply(db, creator, dealId);
    await asUser(db, brand, `update public.applications set status = 'accepted' where id = $1`, [appId]);
    const [v1] = await events(appId);
    expect(v1).toMatchObject({ kind: 'terms', terms_version: 1, author_id: null });
    // The server's version 1 is the domain's default sheet (src/domain/deal-work.ts), due in two weeks.
    const due = v1.terms.deliverables[0].due_date as string;
    expect(v1.terms).toEqual(defaultTermsSheet(['Instagram Post', 'TikTok Video'], due));
    expect(v1.terms).toMatchObject({
      deliverables: [
        { id: 'd1', title: 'Instagram Post' },
        { id: 'd2', title: 'TikTok Video' },
      ],
      usage_rights: 'organic_only',
      revision_rounds: DEFAULT_REVISION_ROUNDS,
      approval_window_hours: DEFAULT_APPROVAL_WINDOW_HOURS,
      payout_hold_hours: DEFAULT_PAYOUT_HOLD_HOURS,
    });
    // No work before both accept.
    await expectRule(
      append(creator, appId, dealId, { kind: 'draft', deliverable_id: 'd1', links: ['https://example.com/v'] }),
      'terms_not_agreed',
      409,
    );
    await append(creator, appId, dealId, { kind: 'terms_accepted', terms_version: 1 });
    await expectRule(
      append(creator, appId, dealId, { kind: 'terms_accepted', terms_version: 1 }),
      'terms_already_accepted',
    );
    expect(await application(appId)).toMatchObject({ terms_accepted_by: ['creator'], terms_agreed_version: 0 });
    await append(brand, appId, dealId, { kind: 'terms_accepted', terms_version: 1 });
    const agreed = await application(appId);
    expect(agreed).toMatchObject({ terms_accepted_by: ['creator', 'brand'], terms_agreed_version: 1 });
    expect(agreed.work.d1).toMatchObject({ status: 'not_started', rounds_used: 0, rounds_included: 2 });

    // The brand proposes version 2 (paid ads for 30 days, 3 rounds): version 1 stays in force until
    // both accept version 2.
    const v2 = { ...v1.terms, usage_rights: 'paid_ads', usage_days: 30, revision_rounds: 3 };
    await expectRule(
      append(brand, appId, dealId, { kind: 'terms', terms_version: 3, terms: v2 }),
      'terms_changed',
      409,
    );
    await expectRule(
      append(brand, appId, dealId, { kind: 'terms', terms_version: 2, terms: { ...v2, usage_days: null } }),
      'invalid_terms',
      422,
    );
    await append(brand, appId, dealId, { kind: 'terms', terms_version: 2, terms: v2 });
    // Proposing is the proposer's acceptance; the creator's answer is what is missing.
    expect(await application(appId)).toMatchObject({
      terms_version: 2,
      terms_accepted_by: ['brand'],
      terms_agreed_version: 1,
    });
    await expectRule(
      append(brand, appId, dealId, { kind: 'terms_accepted', terms_version: 2 }),
      'terms_already_accepted',
    );
    await expectRule(append(creator, appId, dealId, { kind: 'terms_accepted', terms_version: 1 }), 'terms_changed');
    await append(creator, appId, dealId, { kind: 'terms_accepted', terms_version: 2 });
    expect(await application(appId)).toMatchObject({
      terms_accepted_by: ['brand', 'creator'],
      terms_agreed_version: 2,
    });
    expect((await application(appId)).work.d1.rounds_included).toBe(3);
    // A stored event is never edited.
    await expectRule(
      asUser(db, brand, `update public.deal_events set note = 'changed' where application_id = $1 and kind = 'terms'`, [
        appId,
      ]),
      'immutable_field',
    );
  });
});

describe('no draft before the escrow is funded', () => {
  test('a draft is refused while the escrow is not funded and once it is refunded; accepted while it holds the money', async () => {
    const { dealId, appId } = await agreedDeal({ funded: false });
    const draft = { kind: 'draft', deliverable_id: 'd1', links: ['https://v.example/cut-1'] };
    const refused = await expectRule(append(creator, appId, dealId, draft), 'not_funded', 409);
    expect(refused.detail).toBe('The brand funds the deal before the work starts: submit the draft once it is funded.');
    // Nothing of the refused draft stays: no event, the deliverable not started, the brand not told.
    expect((await events(appId)).map((e) => e.kind)).not.toContain('draft');
    expect((await application(appId)).work.d1).toMatchObject({ status: 'not_started' });
    expect((await notificationsOf(brand, dealId)).map((n) => n.type)).not.toContain('draft_submitted');

    // Funded, the same draft goes through and the brand is told.
    await setEscrow(dealId, 'pending');
    const first = await append(creator, appId, dealId, draft);
    expect((await application(appId)).work.d1).toMatchObject({ status: 'draft_submitted', draft_id: first });
    expect((await notificationsOf(brand, dealId)).map((n) => n.type)).toContain('draft_submitted');

    // While disputed the money is still held: a revised draft may still go in.
    await append(brand, appId, dealId, {
      kind: 'changes_requested',
      deliverable_id: 'd1',
      ref_id: first,
      note: 'Shorter.',
    });
    await setEscrow(dealId, 'disputed');
    const second = await append(creator, appId, dealId, draft);
    await append(brand, appId, dealId, {
      kind: 'changes_requested',
      deliverable_id: 'd1',
      ref_id: second,
      note: 'Again.',
    });
    // The money went back to the brand: the work has ended.
    await setEscrow(dealId, 'refunded');
    await expectRule(append(creator, appId, dealId, draft), 'deal_refunded', 409);
  });

  test('who may submit a draft is answered before whether the deal is funded', async () => {
    const { dealId, appId } = await agreedDeal({ funded: false });
    // The brand is told it does not submit work, not that the deal is unfunded.
    await expectRule(
      append(brand, appId, dealId, { kind: 'draft', deliverable_id: 'd1', links: ['https://v.example/x'] }),
      'creator_only',
      403,
    );
  });
});

describe('terms changes', () => {
  test('either side proposes a change; the other accepts or declines it; declined, the version in force stays', async () => {
    const { dealId, appId } = await agreedDeal();
    const v1 = (await events(appId)).find((e) => e.kind === 'terms').terms;
    // A stranger proposes nothing; a proposal must change something.
    await expectRule(
      append(stranger, appId, dealId, { kind: 'terms', terms_version: 2, terms: { ...v1, exclusivity_days: 1 } }),
      'application_not_found',
      404,
    );
    await expectRule(
      append(creator, appId, dealId, { kind: 'terms', terms_version: 2, terms: v1 }),
      'terms_unchanged',
      422,
    );

    // The creator proposes paid ads for 90 days and 30 days of exclusivity.
    const v2 = { ...v1, usage_rights: 'paid_ads', usage_days: 90, exclusivity_days: 30 };
    await append(creator, appId, dealId, { kind: 'terms', terms_version: 2, terms: v2 });
    expect(await application(appId)).toMatchObject({
      terms_version: 2,
      terms_accepted_by: ['creator'],
      terms_agreed_version: 1,
    });
    expect(await notificationsOf(brand, dealId)).toContainEqual({
      type: 'terms_changed',
      title: 'New terms to accept',
      message: 'The creator proposed new terms for "Summer launch" (version 2): accept or decline them.',
    });
    // The proposer cannot decline their own proposal; the brand declines it.
    await expectRule(
      append(creator, appId, dealId, { kind: 'terms_declined', terms_version: 2 }),
      'terms_already_accepted',
    );
    await append(brand, appId, dealId, { kind: 'terms_declined', terms_version: 2 });
    expect(await application(appId)).toMatchObject({
      terms_version: 2,
      terms_accepted_by: ['creator'],
      terms_agreed_version: 1,
    });
    expect((await notificationsOf(creator, dealId)).map((n) => n.message)).toContain(
      'The brand declined the new terms of "Summer launch" (version 2): version 1 stays in force.',
    );
    // A declined version is closed: neither accepted nor declined again.
    await expectRule(append(brand, appId, dealId, { kind: 'terms_accepted', terms_version: 2 }), 'terms_declined', 409);
    await expectRule(append(brand, appId, dealId, { kind: 'terms_declined', terms_version: 2 }), 'terms_declined', 409);
    // The work goes on under version 1.
    const draft = await append(creator, appId, dealId, {
      kind: 'draft',
      deliverable_id: 'd1',
      links: ['https://v.example/cut-1'],
    });

    // The brand proposes version 3, adding a deliverable; the creator accepts: it is in force, the draft
    // in review keeps its place and the new deliverable starts.
    const v3 = { ...v1, deliverables: [...v1.deliverables, { id: 'd2', title: 'Story', due_date: '2099-03-01' }] };
    await expectRule(append(brand, appId, dealId, { kind: 'terms', terms_version: 2, terms: v3 }), 'terms_changed');
    await append(brand, appId, dealId, { kind: 'terms', terms_version: 3, terms: v3 });
    await append(creator, appId, dealId, { kind: 'terms_accepted', terms_version: 3 });
    const app = await application(appId);
    expect(app).toMatchObject({ terms_version: 3, terms_agreed_version: 3 });
    expect(app.work.d1).toMatchObject({ status: 'draft_submitted', draft_id: draft });
    expect(app.work.d2).toMatchObject({ status: 'not_started', rounds_used: 0 });
  });

  test('before any version is in force a proposal is answered by acceptance or other terms, not declined', async () => {
    const dealId = await makeDeal(db, brand, { deliverables: ['Reel'] });
    const appId = await apply(db, creator, dealId);
    await asUser(db, brand, `update public.applications set status = 'accepted' where id = $1`, [appId]);
    const v1 = (await events(appId)).find((e) => e.kind === 'terms').terms;
    await append(creator, appId, dealId, { kind: 'terms', terms_version: 2, terms: { ...v1, revision_rounds: 3 } });
    await expectRule(
      append(brand, appId, dealId, { kind: 'terms_declined', terms_version: 2 }),
      'no_terms_in_force',
      409,
    );
    // The brand's counter-proposal replaces it; the creator accepts it.
    await append(brand, appId, dealId, { kind: 'terms', terms_version: 3, terms: { ...v1, revision_rounds: 1 } });
    await expectRule(append(brand, appId, dealId, { kind: 'terms_accepted', terms_version: 2 }), 'terms_changed');
    await append(creator, appId, dealId, { kind: 'terms_accepted', terms_version: 3 });
    expect(await application(appId)).toMatchObject({ terms_agreed_version: 3 });
    expect((await application(appId)).work.d1.rounds_included).toBe(1);
  });
});

describe('submissions', () => {
  test('only the creator submits, only the brand reviews; rounds count and more need the creator', async () => {
    const { dealId, appId } = await agreedDeal();
    const link = ['https://video.example.com/private/1'];
    await expectRule(
      append(brand, appId, dealId, { kind: 'draft', deliverable_id: 'd1', links: link }),
      'creator_only',
      403,
    );
    await expectRule(
      append(creator, appId, dealId, { kind: 'draft', deliverable_id: 'd9', links: link }),
      'unknown_deliverable',
    );
    await expectRule(append(creator, appId, dealId, { kind: 'draft', deliverable_id: 'd1' }), 'draft_empty', 422);
    await expectRule(
      append(creator, appId, dealId, { kind: 'draft', deliverable_id: 'd1', links: ['javascript:alert(1)'] }),
      'invalid_link',
    );
    let draft = await append(creator, appId, dealId, {
      kind: 'draft',
      deliverable_id: 'd1',
      note: 'First cut',
      links: link,
    });
    expect((await application(appId)).work.d1).toMatchObject({ status: 'draft_submitted', draft_id: draft });
    expect((await notificationsOf(brand, dealId)).map((n) => n.title)).toContain('Draft to review');

    await expectRule(
      append(creator, appId, dealId, { kind: 'approved', deliverable_id: 'd1', ref_id: draft }),
      'brand_only',
      403,
    );
    await expectRule(
      append(brand, appId, dealId, { kind: 'changes_requested', deliverable_id: 'd1', ref_id: draft }),
      'comments_required',
    );
    // Two rounds included.
    for (let round = 1; round <= DEFAULT_REVISION_ROUNDS; round++) {
      await append(brand, appId, dealId, {
        kind: 'changes_requested',
        deliverable_id: 'd1',
        ref_id: draft,
        note: `Round ${round}: brighter`,
      });
      expect((await application(appId)).work.d1).toMatchObject({ status: 'changes_requested', rounds_used: round });
      draft = await append(creator, appId, dealId, { kind: 'draft', deliverable_id: 'd1', links: link });
    }
    await expectRule(
      append(brand, appId, dealId, { kind: 'changes_requested', deliverable_id: 'd1', ref_id: draft, note: 'Again' }),
      'no_rounds_left',
      409,
    );
    await expectRule(
      append(brand, appId, dealId, { kind: 'extra_rounds', deliverable_id: 'd1', rounds: 1 }),
      'creator_only',
    );
    await append(creator, appId, dealId, { kind: 'extra_rounds', deliverable_id: 'd1', rounds: 1 });
    await append(brand, appId, dealId, {
      kind: 'changes_requested',
      deliverable_id: 'd1',
      ref_id: draft,
      note: 'Last one',
    });
    const stale = draft;
    draft = await append(creator, appId, dealId, { kind: 'draft', deliverable_id: 'd1', links: link });
    await expectRule(
      append(brand, appId, dealId, { kind: 'approved', deliverable_id: 'd1', ref_id: stale }),
      'not_under_review',
    );
    await expectRule(
      append(creator, appId, dealId, {
        kind: 'live_link',
        deliverable_id: 'd1',
        links: ['https://instagram.example/p/1'],
      }),
      'not_approved',
    );
    await append(brand, appId, dealId, { kind: 'approved', deliverable_id: 'd1', ref_id: draft });
    expect((await application(appId)).work.d1).toMatchObject({
      status: 'approved',
      rounds_used: 3,
      rounds_included: 3,
    });
    expect((await notificationsOf(creator, dealId)).map((n) => n.title)).toEqual(
      expect.arrayContaining(['Changes requested', 'Approved']),
    );
  });

  test('the live link is confirmed by the brand, or automatically when the approval window closes; then the payout hold runs', async () => {
    const { dealId, appId } = await agreedDeal({ deliverables: ['Instagram Post', 'TikTok Video'] });
    const live: Record<string, string> = {};
    for (const d of ['d1', 'd2']) {
      const draft = await append(creator, appId, dealId, {
        kind: 'draft',
        deliverable_id: d,
        links: ['https://v.example/1'],
      });
      await append(brand, appId, dealId, { kind: 'approved', deliverable_id: d, ref_id: draft });
      live[d] = await append(creator, appId, dealId, {
        kind: 'live_link',
        deliverable_id: d,
        links: [`https://instagram.example/p/${d}`],
      });
    }
    const submitted = (await application(appId)).work.d1;
    expect(submitted).toMatchObject({ status: 'live_submitted', live_url: 'https://instagram.example/p/d1' });
    const windowHours = (new Date(submitted.confirm_due_at).getTime() - Date.now()) / 3_600_000;
    expect(windowHours).toBeGreaterThan(DEFAULT_APPROVAL_WINDOW_HOURS - 0.1);
    expect(windowHours).toBeLessThanOrEqual(DEFAULT_APPROVAL_WINDOW_HOURS);

    // The creator cannot confirm their own post; the brand confirms d1.
    await expectRule(
      append(creator, appId, dealId, { kind: 'live_confirmed', deliverable_id: 'd1', ref_id: live.d1 }),
      'brand_only',
    );
    await append(brand, appId, dealId, { kind: 'live_confirmed', deliverable_id: 'd1', ref_id: live.d1 });
    // Before the window closes, nothing is confirmed automatically.
    expect((await asServer(db, 'select public.confirm_due_live_links() as n')).rows[0].n).toBe(0);
    expect((await deal(dealId)).status).toBe('in_progress');
    // The window closes (the clock moves past it).
    await asServer(
      db,
      `update public.applications set work = jsonb_set(work, '{d2,confirm_due_at}', to_jsonb(now() - interval '1 minute')) where id = $1`,
      [appId],
    );
    expect((await asServer(db, 'select public.confirm_due_live_links() as n')).rows[0].n).toBe(1);
    expect((await asServer(db, 'select public.confirm_due_live_links() as n')).rows[0].n).toBe(0);
    const done = await application(appId);
    expect(done.work.d2).toMatchObject({ status: 'live', confirm_due_at: null });
    const auto = (await events(appId)).find((e) => e.kind === 'live_confirmed' && e.deliverable_id === 'd2');
    expect(auto).toMatchObject({ author_id: null, ref_id: live.d2 });
    // Every deliverable approved and live: delivered, the hold runs, the deal completes.
    expect(done.delivered_at).not.toBeNull();
    const holdHours = (done.payout_due_at.getTime() - done.delivered_at.getTime()) / 3_600_000;
    expect(holdHours).toBe(DEFAULT_PAYOUT_HOLD_HOURS);
    expect(await deal(dealId)).toMatchObject({ status: 'completed', winner_id: creator });
    expect((await notificationsOf(creator, dealId)).map((n) => n.type)).toEqual(
      expect.arrayContaining(['live_confirmed', 'work_delivered']),
    );
    // Once delivered, the terms no longer change.
    await expectRule(
      append(creator, appId, dealId, {
        kind: 'terms',
        terms_version: 2,
        terms: { ...(await events(appId)).find((e) => e.kind === 'terms').terms, exclusivity_days: 7 },
      }),
      'terms_closed',
      409,
    );
    // The brand hears of the automatic confirmation too.
    expect((await notificationsOf(brand, dealId)).map((n) => n.message)).toContain(
      'The approval window closed: the live link for "Summer launch" was confirmed automatically.',
    );
  });
});
