import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { mergeDraftFields } from '../../src/domain/brief-draft.ts';
import { createDatabase, type Database } from '../../sync-server/db/database.ts';
import { publishDueReviews } from '../../sync-server/api/review-publisher.ts';
import { createTestDatabase } from '../support/test-database.ts';
import { apply, asServer, asUser, expectRule, makeDeal, makeUser } from '../support/rules-fixtures.ts';

// The rules of 20261123000400_briefs_reviews.sql through SQL as the signed-in user (the sync
// server's path): blind two-way reviews, the saved-list limit, campaign invitations, draft merging
// and the campaign brief's own rules.

let db: Database;
let drop: () => Promise<void>;
let brand: string;
let otherBrand: string;
let creator: string;
let stranger: string;
let admin: string;

beforeAll(async () => {
  const database = await createTestDatabase();
  drop = database.drop;
  db = createDatabase(database.url);
  [brand, otherBrand, creator, stranger, admin] = await Promise.all([
    makeUser(db, 'brand', { name: 'Acme' }),
    makeUser(db, 'brand'),
    makeUser(db, 'creator', { name: 'Casey' }),
    makeUser(db, 'creator'),
    makeUser(db, 'admin'),
  ]);
});
afterAll(async () => {
  await db?.close();
  await drop?.();
});

const profile = async (id: string) => (await asServer(db, 'select * from public.profiles where id = $1', [id])).rows[0];

/** A deal of `brand` with `winner` accepted; completed unless told otherwise. */
async function dealWith(winner: string, opts: { complete?: boolean } = {}): Promise<string> {
  const dealId = await makeDeal(db, brand);
  await asUser(db, brand, `update public.applications set status = 'accepted' where id = $1`, [
    await apply(db, winner, dealId),
  ]);
  if (opts.complete ?? true)
    await asUser(db, brand, `update public.deals set status = 'completed' where id = $1`, [dealId]);
  return dealId;
}

const review = (dealId: string, who: string, about: string, rating: number, content = 'Great to work with') =>
  asUser(
    db,
    who,
    `insert into public.reviews (id, deal_id, reviewer_id, reviewee_id, rating, content) values ($1, $2, $3, $4, $5, $6)`,
    [randomUUID(), dealId, who, about, rating, content],
  );

/** The reviews of a deal that `who` can read, as "reviewer>reviewee:rating". */
async function visibleTo(who: string, dealId: string): Promise<string[]> {
  const { rows } = await asUser(
    db,
    who,
    'select reviewer_id, reviewee_id, rating from public.reviews where deal_id = $1 order by rating',
    [dealId],
  );
  const name = (id: string) => (id === brand ? 'brand' : id === creator ? 'creator' : id);
  return rows.map((r) => `${name(r.reviewer_id)}>${name(r.reviewee_id)}:${r.rating}`);
}

describe('reviews', () => {
  test("only the deal's parties review, only after completion, once each", async () => {
    const open = await dealWith(creator, { complete: false });
    await expectRule(review(open, brand, creator, 5), 'deal_not_completed', 409);
    await expectRule(review(open, creator, brand, 5), 'deal_not_completed', 409);

    const done = await dealWith(creator);
    await expectRule(review(done, otherBrand, creator, 1), 'not_a_participant', 403);
    await expectRule(review(done, stranger, brand, 1), 'not_a_participant', 403);
    await expectRule(review(done, brand, stranger, 1), 'not_a_participant', 403);
    await expectRule(
      asUser(
        db,
        stranger,
        `insert into public.reviews (id, deal_id, reviewer_id, reviewee_id, rating) values ($1, $2, $3, $4, 1)`,
        [randomUUID(), done, creator, brand],
      ),
      'not_your_review',
      403,
    );
    await review(done, brand, creator, 4);
    const again = await expectRule(review(done, brand, creator, 5), 'already_reviewed', 409);
    expect(again.detail).toBe('You have already reviewed this deal.');
    await expectRule(
      asUser(db, brand, `update public.reviews set rating = 1 where deal_id = $1 and reviewer_id = $2`, [done, brand]),
      'review_final',
      409,
    );
    const long = await expectRule(review(done, creator, brand, 5, 'x'.repeat(2001)), 'review_too_long', 422);
    expect(long.detail).toBe('A review can be at most 2,000 characters.');
  });

  test('reviews are written within 14 days of completion', async () => {
    const dealId = await dealWith(creator);
    await asServer(db, `update public.deals set completed_at = now() - interval '15 days' where id = $1`, [dealId]);
    const err = await expectRule(review(dealId, creator, brand, 5), 'review_window_closed', 409);
    expect(err.detail).toBe("Reviews can be written within 14 days of the deal's completion.");
  });

  test('blind until both have written: then both are visible to everyone and the rating follows', async () => {
    const dealId = await dealWith(creator);
    const ratingBefore = Number((await profile(creator)).rating);
    await review(dealId, brand, creator, 2);
    expect(await visibleTo(brand, dealId)).toEqual(['brand>creator:2']);
    expect(await visibleTo(creator, dealId)).toEqual([]);
    expect(await visibleTo(stranger, dealId)).toEqual([]);
    expect(await visibleTo(admin, dealId)).toEqual(['brand>creator:2']);
    expect(Number((await profile(creator)).rating)).toBe(ratingBefore);

    await review(dealId, creator, brand, 5);
    for (const who of [brand, creator, stranger])
      expect(await visibleTo(who, dealId)).toEqual(['brand>creator:2', 'creator>brand:5']);
    const { rows } = await asServer(
      db,
      `select avg(rating)::float as avg from public.reviews where reviewee_id = $1 and published_at <= now()`,
      [creator],
    );
    expect(Number((await profile(creator)).rating)).toBeCloseTo(rows[0].avg, 2);
    expect(Number((await profile(creator)).rating)).not.toBe(ratingBefore);
  });

  test('the first review changes when the second publishes it, so the change replicates', async () => {
    const dealId = await dealWith(creator);
    await review(dealId, creator, brand, 3);
    const before = (
      await asServer(db, `select change_xid::text as xid from public.reviews where deal_id = $1`, [dealId])
    ).rows[0].xid;
    await review(dealId, brand, creator, 5);
    const after = (
      await asServer(db, `select change_xid::text as xid from public.reviews where deal_id = $1 and reviewer_id = $2`, [
        dealId,
        creator,
      ])
    ).rows[0].xid;
    expect(BigInt(after)).toBeGreaterThan(BigInt(before));
  });

  test('when the window closes a lone review is published (touched once) and counts in the rating', async () => {
    const reviewee = await makeUser(db, 'creator');
    const dealId = await dealWith(reviewee);
    await review(dealId, brand, reviewee, 3);
    expect(
      (await asUser(db, reviewee, 'select count(*)::int as n from public.reviews where deal_id = $1', [dealId])).rows[0]
        .n,
    ).toBe(0);
    expect(Number((await profile(reviewee)).rating)).toBe(0);
    // The window closes: as if 14 days had passed (written past the stamping trigger, as time would).
    await db.asService(async (tx) => {
      await tx.query('set local session_replication_role = replica');
      await tx.query(
        `update public.reviews set published_at = now() - interval '1 minute', updated_at = now() - interval '14 days' where deal_id = $1`,
        [dealId],
      );
    });
    // Reading rights follow the clock at once; the profile's rating and the replicated row wait for the publisher.
    expect(
      (await asUser(db, reviewee, 'select count(*)::int as n from public.reviews where deal_id = $1', [dealId])).rows[0]
        .n,
    ).toBe(1);
    expect(Number((await profile(reviewee)).rating)).toBe(0);
    const before = (
      await asServer(db, `select change_xid::text as xid from public.reviews where deal_id = $1`, [dealId])
    ).rows[0].xid;
    expect(await publishDueReviews(db)).toBeGreaterThanOrEqual(1);
    const after = (
      await asServer(db, `select change_xid::text as xid from public.reviews where deal_id = $1`, [dealId])
    ).rows[0];
    expect(BigInt(after.xid)).toBeGreaterThan(BigInt(before));
    expect(Number((await profile(reviewee)).rating)).toBe(3);
    expect(await publishDueReviews(db)).toBe(0);
  });

  test('a review tells the reviewee, without its content while it is blind, and earns XP', async () => {
    const reviewee = await makeUser(db, 'creator', { name: 'Robin' });
    const dealId = await dealWith(reviewee);
    await review(dealId, reviewee, brand, 5, 'Secret words');
    const { rows } = await asUser(
      db,
      brand,
      `select type, message, data from public.notifications where type = 'review_received' and data->>'deal_id' = $1`,
      [dealId],
    );
    expect(rows).toHaveLength(1);
    expect(rows[0].type).toBe('review_received');
    expect(rows[0].message).not.toContain('Secret words');
    expect(rows[0].data.link).toBe(`/deals/${dealId}`);
    const xp = await asServer(
      db,
      `select count(*)::int as n from public.xp_logs where user_id = $1 and action = 'REVIEW'`,
      [reviewee],
    );
    expect(xp.rows[0].n).toBe(1);
  });
});

describe('saved lists', () => {
  const items = (n: number, prefix = 'item') => Array.from({ length: n }, (_, i) => `${prefix}-${i}`);
  // As the sync push writes: an update of the existing row, else an insert.
  const writeList = (user: string, id: string, kind: string, list: string[]) =>
    db.asUser({ sub: user, role: 'authenticated' }, async (tx) => {
      const updated = await tx.query('update public.saved_lists set items = $2 where id = $1', [id, list]);
      if (updated.rowCount === 0)
        await tx.query('insert into public.saved_lists (id, user_id, kind, items) values ($1, $2, $3, $4)', [
          id,
          user,
          kind,
          list,
        ]);
    });

  test('a free account keeps up to 10 entries per list; empty and duplicate entries are not added', async () => {
    const free = await makeUser(db, 'brand');
    const id = randomUUID();
    await writeList(free, id, 'shortlist', [...items(10), '', '  ', 'item-3']);
    expect((await asServer(db, 'select items from public.saved_lists where id = $1', [id])).rows[0].items).toEqual(
      items(10),
    );
    const err = await expectRule(writeList(free, id, 'shortlist', items(11)), 'list_limit_reached', 403);
    expect(err.detail).toBe(
      'Your Shortlist is full: a free account keeps up to 10 entries per list. Upgrade to Pro for unlimited lists.',
    );
    const saved = randomUUID();
    await expectRule(writeList(creator, saved, 'saved_campaigns', items(11)), 'list_limit_reached', 403);
    // Duplicates do not count towards the limit.
    await writeList(free, id, 'shortlist', [...items(10), 'item-0', ' item-1 ']);
  });

  test('Pro is unlimited, and a list longer than the limit can still shrink after Pro ends', async () => {
    const pro = await makeUser(db, 'brand', { pro: true });
    const id = randomUUID();
    await writeList(pro, id, 'shortlist', items(25));
    await asServer(db, `update public.profiles set pro_tier = 'free' where id = $1`, [pro]);
    await writeList(pro, id, 'shortlist', items(20));
    await expectRule(writeList(pro, id, 'shortlist', items(21)), 'list_limit_reached', 403);
  });

  test('skipped deals are not limited', async () => {
    await writeList(stranger, randomUUID(), 'skipped_deals', items(40));
  });
});

describe('campaign invitations', () => {
  const invite = (who: string, listId: string, entries: string[]) =>
    db.asUser({ sub: who, role: 'authenticated' }, async (tx) => {
      const updated = await tx.query('update public.saved_lists set items = $2 where id = $1', [listId, entries]);
      if (updated.rowCount === 0) {
        await tx.query(
          `insert into public.saved_lists (id, user_id, kind, items) values ($1, $2, 'campaign_invites', $3)`,
          [listId, who, entries],
        );
      }
    });

  test('the brand invites a creator to its open deal; the creator is told with a link to the deal', async () => {
    const dealId = await makeDeal(db, brand, { title: 'Trail shoes' });
    const listId = randomUUID();
    await invite(brand, listId, [`${dealId}:${stranger}`]);
    const { rows } = await asUser(
      db,
      stranger,
      `select type, message, data from public.notifications where type = 'campaign_invite' and data->>'deal_id' = $1`,
      [dealId],
    );
    expect(rows).toEqual([
      {
        type: 'campaign_invite',
        message: 'Acme invited you to apply to "Trail shoes".',
        data: { deal_id: dealId, brand_id: brand, link: `/deals/${dealId}` },
      },
    ]);
    // Writing the list again (another invitation) tells only the new invitee.
    await invite(brand, listId, [`${dealId}:${stranger}`, `${dealId}:${creator}`]);
    const count = await asServer(
      db,
      `select count(*)::int as n from public.notifications where type = 'campaign_invite' and data->>'deal_id' = $1`,
      [dealId],
    );
    expect(count.rows[0].n).toBe(2);
    // The creator applies in one tap, as to any open deal.
    await apply(db, stranger, dealId);
  });

  test("only to one's own open deals, only creators", async () => {
    const dealId = await makeDeal(db, brand);
    await expectRule(invite(otherBrand, randomUUID(), [`${dealId}:${creator}`]), 'not_deal_owner', 403);
    await expectRule(invite(brand, randomUUID(), [`${dealId}:${otherBrand}`]), 'not_a_creator', 422);
    await expectRule(invite(brand, randomUUID(), ['not an invitation']), 'invalid_invitation', 422);
    await asUser(db, brand, `update public.deals set status = 'cancelled' where id = $1`, [dealId]);
    await expectRule(invite(brand, randomUUID(), [`${dealId}:${creator}`]), 'deal_not_open', 409);
  });
});

describe('campaign brief drafts', () => {
  const entry = (value: unknown, at: number, device: string) => ({ value, at, device });
  const saveDraft = (id: string, fields: Record<string, unknown>) =>
    db.asUser({ sub: brand, role: 'authenticated' }, async (tx) => {
      const updated = await tx.query('update public.drafts set payload = $2 where id = $1', [id, { fields }]);
      if (updated.rowCount === 0) {
        await tx.query(
          `insert into public.drafts (id, user_id, kind, title, payload) values ($1, $2, 'campaign_brief', '', $3)`,
          [id, brand, { fields }],
        );
      }
    });

  test('an update merges field by field: the later edit of a field wins, a field only one side has is kept', async () => {
    const id = randomUUID();
    await saveDraft(id, { title: entry('Summer', 10, 'phone'), goals: entry('Reach', 20, 'phone') });
    await saveDraft(id, {
      title: entry('Summer launch', 30, 'laptop'),
      goals: entry('stale', 5, 'laptop'),
      budget: entry('500', 31, 'laptop'),
    });
    const { rows } = await asServer(db, 'select title, payload from public.drafts where id = $1', [id]);
    expect(rows[0].payload.fields).toEqual({
      title: entry('Summer launch', 30, 'laptop'),
      goals: entry('Reach', 20, 'phone'),
      budget: entry('500', 31, 'laptop'),
    });
    expect(rows[0].title).toBe('Summer launch');
  });

  test('equal times fall to the greater device name, whichever arrives last', async () => {
    const a = randomUUID();
    const b = randomUUID();
    await saveDraft(a, { title: entry('from A', 50, 'device-a') });
    await saveDraft(a, { title: entry('from B', 50, 'device-b') });
    await saveDraft(b, { title: entry('from B', 50, 'device-b') });
    await saveDraft(b, { title: entry('from A', 50, 'device-a') });
    const { rows } = await asServer(
      db,
      `select payload->'fields'->'title'->>'value' as t from public.drafts where id = any($1) order by t`,
      [[a, b]],
    );
    expect(rows.map((r) => r.t)).toEqual(['from B', 'from B']);
  });
});

describe('campaign briefs', () => {
  const brief = (fields: Record<string, unknown>) =>
    makeDeal(db, brand, {
      is_campaign: true,
      deliverables: ['Instagram Post'],
      timeline: '2 weeks',
      amount_cents: 5000,
      ...fields,
    });

  test("the wizard's rules hold on the server", async () => {
    await brief({});
    await expectRule(brief({ amount_cents: 4999 }), 'budget_too_low', 422);
    await expectRule(brief({ niches: ['Fitness', 'Travel', 'Food', 'Music'] }), 'too_many_niches', 422);
    await expectRule(brief({ deliverables: ['Podcast'] }), 'invalid_deliverable', 422);
    await expectRule(brief({ timeline: null }), 'timeline_required', 422);
    const err = await expectRule(brief({ product_url: 'not a url' }), 'invalid_product_url', 422);
    expect(err.detail).toBe('Enter a valid URL, like https://example.com.');
    await brief({ product_url: 'https://shop.example.com/trail?ref=pacta' });
  });
});

describe('one merge rule on both sides', () => {
  test('the database merges draft fields exactly as src/domain/brief-draft.ts does', async () => {
    const devices = ['Chrome on Android', 'Chrome on Linux', 'Safari on iOS'];
    const entries = fc.record({
      value: fc.oneof(fc.string({ maxLength: 5 }), fc.integer()),
      at: fc.integer({ min: 0, max: 5 }),
      device: fc.constantFrom(...devices),
    });
    const fields = fc.dictionary(fc.constantFrom('title', 'goals', 'budget', 'step'), entries);
    const samples = fc.sample(fc.tuple(fields, fields), { numRuns: 200, seed: 12 });
    const { rows } = await asServer(
      db,
      `select pacta_private.merge_draft_fields(x.mine, x.theirs) as merged
         from jsonb_to_recordset($1::jsonb) as x(mine jsonb, theirs jsonb, n int) order by x.n`,
      [JSON.stringify(samples.map(([mine, theirs], n) => ({ mine, theirs, n })))],
    );
    samples.forEach(([mine, theirs], i) => expect(rows[i].merged).toEqual(mergeDraftFields(mine, theirs)));
  });
});
