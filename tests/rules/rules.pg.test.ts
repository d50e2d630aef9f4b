import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createDatabase, type Database } from '../../sync-server/db/database.ts';
import { conversationIdFor } from '../../src/domain/conversation-id.ts';
import { createTestDatabase } from '../support/test-database.ts';
import { promoteToAdmin } from '../../sync-server/admin/make-admin.ts';
import { apply, asServer, asUser, expectRule, makeDeal, makeUser } from '../support/rules-fixtures.ts';

// The business rules of 20261122000300_rules.sql, exercised through SQL as the signed-in user
// (the same path the sync server takes). Sync-level tests of the same rules live with the sync code.

let db: Database;
let drop: () => Promise<void>;
let brand: string;
let otherBrand: string;
let creator: string;
let proCreator: string;
let admin: string;

beforeAll(async () => {
  const database = await createTestDatabase();
  drop = database.drop;
  db = createDatabase(database.url);
  [brand, otherBrand, creator, proCreator, admin] = await Promise.all([
    makeUser(db, 'brand', { name: 'Acme' }),
    makeUser(db, 'brand'),
    makeUser(db, 'creator', { name: 'Casey' }),
    makeUser(db, 'creator', { pro: true }),
    makeUser(db, 'admin'),
  ]);
});
afterAll(async () => {
  await db?.close();
  await drop?.();
});

const deal = async (id: string) => (await asServer(db, 'select * from public.deals where id = $1', [id])).rows[0];
const application = async (id: string) =>
  (await asServer(db, 'select * from public.applications where id = $1', [id])).rows[0];
const profile = async (id: string) => (await asServer(db, 'select * from public.profiles where id = $1', [id])).rows[0];

describe('applying', () => {
  test('only creators apply', async () => {
    const dealId = await makeDeal(db, brand);
    for (const who of [otherBrand, admin]) {
      const err = await expectRule(apply(db, who, dealId), 'only_creators_apply', 403);
      expect(err.detail).toBe('Only creators can apply to deals.');
    }
    await apply(db, creator, dealId);
  });

  test('a creator applies once per deal, whatever the application id', async () => {
    const dealId = await makeDeal(db, brand);
    await apply(db, creator, dealId);
    await expectRule(apply(db, creator, dealId), 'already_applied', 409);
  });

  test('only open deals take applications; a deal the creator cannot see is not found, like a missing one', async () => {
    const dealId = await makeDeal(db, brand);
    await asUser(db, brand, `update public.deals set status = 'cancelled' where id = $1`, [dealId]);
    const hidden = await expectRule(apply(db, creator, dealId), 'deal_not_found', 404);
    const missing = await expectRule(apply(db, creator, randomUUID()), 'deal_not_found', 404);
    expect(hidden.detail).toBe(missing.detail);
  });

  test('a creator applies only for itself and starts pending', async () => {
    const dealId = await makeDeal(db, brand);
    await expectRule(
      asUser(db, creator, `insert into public.applications (id, deal_id, creator_id) values ($1, $2, $3)`, [
        randomUUID(),
        dealId,
        proCreator,
      ]),
      'not_your_application',
      403,
    );
    await expectRule(
      asUser(
        db,
        creator,
        `insert into public.applications (id, deal_id, creator_id, status) values ($1, $2, $3, 'accepted')`,
        [randomUUID(), dealId, creator],
      ),
      'invalid_status',
      422,
    );
  });

  test('Pro-only deals need Pro: a paid tier or the pro_deals feature', async () => {
    const dealId = await makeDeal(db, brand, { pro_only: true });
    const err = await expectRule(apply(db, creator, dealId), 'pro_required', 403);
    expect(err.detail).toContain('Pro users');
    await apply(db, proCreator, dealId);

    const granted = await makeUser(db, 'creator');
    await asServer(db, `select * from public.grant_pro_features($1, array['pro_deals'], interval '30 days')`, [
      granted,
    ]);
    await apply(db, granted, dealId);
  });

  test('applying counts on the deal, logs DEAL_APPLY (+25 XP) and tells the brand', async () => {
    const dealId = await makeDeal(db, brand, { title: 'XP deal' });
    const fresh = await makeUser(db, 'creator', { name: 'Robin' });
    const appId = await apply(db, fresh, dealId);
    expect((await deal(dealId)).applications_count).toBe(1);
    const logs = await asUser(db, fresh, `select action, xp_gained, total_xp, metadata from public.xp_logs`);
    expect(logs.rows).toEqual([
      { action: 'DEAL_APPLY', xp_gained: 25, total_xp: 25, metadata: { deal_id: dealId, application_id: appId } },
    ]);
    expect(await profile(fresh)).toMatchObject({ xp: 25, level: 1 });
    const note = await asUser(
      db,
      brand,
      `select title, message from public.notifications where data->>'application_id' = $1`,
      [appId],
    );
    expect(note.rows).toEqual([{ title: 'New application', message: 'Robin applied to "XP deal".' }]);
  });

  test('crossing a level threshold levels up and notifies "Level Up!"', async () => {
    const climber = await makeUser(db, 'creator');
    await asServer(db, `update public.profiles set xp = 90 where id = $1`, [climber]);
    await apply(db, climber, await makeDeal(db, brand));
    expect(await profile(climber)).toMatchObject({ xp: 115, level: 2 });
    const notes = await asUser(db, climber, `select type, title from public.notifications where type = 'level_up'`);
    expect(notes.rows).toEqual([{ type: 'level_up', title: 'Level Up!' }]);
  });
});

describe('deciding on applications', () => {
  test('accepting selects the creator and moves the open deal to in progress; rejecting removes them', async () => {
    const dealId = await makeDeal(db, brand);
    const appId = await apply(db, creator, dealId);
    const proApp = await apply(db, proCreator, dealId);

    await asUser(db, brand, `update public.applications set status = 'accepted' where id = $1`, [appId]);
    expect(await deal(dealId)).toMatchObject({ status: 'in_progress', selected_creator_ids: [creator] });
    await asUser(db, brand, `update public.applications set status = 'accepted' where id = $1`, [proApp]);
    expect((await deal(dealId)).selected_creator_ids).toEqual([creator, proCreator]);
    const note = await asUser(
      db,
      creator,
      `select title from public.notifications where data->>'application_id' = $1`,
      [appId],
    );
    expect(note.rows).toEqual([{ title: 'Application accepted' }]);

    await asUser(db, brand, `update public.applications set status = 'rejected' where id = $1`, [appId]);
    expect(await deal(dealId)).toMatchObject({ status: 'in_progress', selected_creator_ids: [proCreator] });
    // Back to pending (the brand's dropdown) also unselects; with nobody selected the deal reopens.
    await asUser(db, brand, `update public.applications set status = 'pending' where id = $1`, [proApp]);
    expect(await deal(dealId)).toMatchObject({ status: 'open', selected_creator_ids: [] });
  });

  test('an admin may accept like the brand', async () => {
    const dealId = await makeDeal(db, brand);
    const appId = await apply(db, creator, dealId);
    await asUser(db, admin, `update public.applications set status = 'accepted' where id = $1`, [appId]);
    expect((await deal(dealId)).selected_creator_ids).toEqual([creator]);
  });

  test('the creator cannot accept itself; the brand cannot withdraw; the creator withdraws', async () => {
    const dealId = await makeDeal(db, brand);
    const appId = await apply(db, creator, dealId);
    await expectRule(
      asUser(db, creator, `update public.applications set status = 'accepted' where id = $1`, [appId]),
      'not_deal_owner',
      403,
    );
    await expectRule(
      asUser(db, brand, `update public.applications set status = 'withdrawn' where id = $1`, [appId]),
      'not_your_application',
      403,
    );
    await expectRule(
      asUser(db, brand, `update public.applications set pitch = 'edited' where id = $1`, [appId]),
      'not_your_application',
      403,
    );
    await asUser(db, creator, `update public.applications set status = 'withdrawn' where id = $1`, [appId]);
    expect((await application(appId)).status).toBe('withdrawn');
    expect((await deal(dealId)).applications_count).toBe(0);
    await expectRule(
      asUser(db, brand, `update public.applications set status = 'accepted' where id = $1`, [appId]),
      'application_withdrawn',
      409,
    );
  });

  test('another brand cannot touch the applications of a deal it does not own', async () => {
    const dealId = await makeDeal(db, brand);
    const appId = await apply(db, creator, dealId);
    const res = await asUser(db, otherBrand, `update public.applications set status = 'accepted' where id = $1`, [
      appId,
    ]);
    expect(res.rowCount).toBe(0);
    expect((await application(appId)).status).toBe('pending');
  });

  test('deal_id and creator_id of an application never change', async () => {
    const dealId = await makeDeal(db, brand);
    const appId = await apply(db, creator, dealId);
    const err = await expectRule(
      asUser(db, creator, `update public.applications set deal_id = $2 where id = $1`, [
        appId,
        await makeDeal(db, brand),
      ]),
      'immutable_field',
      403,
    );
    expect(err.hint).toBe('deal_id');
  });

  test('max_creators caps the selection', async () => {
    const dealId = await makeDeal(db, brand, { max_creators: 1 });
    const first = await apply(db, creator, dealId);
    const second = await apply(db, proCreator, dealId);
    await asUser(db, brand, `update public.applications set status = 'accepted' where id = $1`, [first]);
    await expectRule(
      asUser(db, brand, `update public.applications set status = 'accepted' where id = $1`, [second]),
      'max_creators_reached',
      409,
    );
  });
});

describe('deals', () => {
  test('only brands (and admins) create deals, under their own id, with server-owned fields reset', async () => {
    const err = await expectRule(makeDeal(db, creator), 'only_brands_create_deals', 403);
    expect(err.detail).toBe('Only brands can create deals.');
    await makeDeal(db, admin);
    const dealId = await makeDeal(db, brand, {
      escrow_status: 'released',
      applications_count: 99,
      selected_creator_ids: [creator],
    });
    expect(await deal(dealId)).toMatchObject({
      escrow_status: 'none',
      applications_count: 0,
      selected_creator_ids: [],
      status: 'open',
    });
    await expectRule(makeDeal(db, brand, { status: 'completed' }), 'invalid_status', 422);
  });

  test('only the owning brand or an admin edits a deal', async () => {
    const dealId = await makeDeal(db, brand);
    const res = await asUser(db, otherBrand, `update public.deals set title = 'Hijacked' where id = $1`, [dealId]);
    expect(res.rowCount).toBe(0);
    await asUser(db, brand, `update public.deals set title = 'Renamed' where id = $1`, [dealId]);
    await asUser(db, admin, `update public.deals set pro_only = true where id = $1`, [dealId]);
    expect(await deal(dealId)).toMatchObject({ title: 'Renamed', pro_only: true });
  });

  test('server-owned deal fields are rejected, naming the field', async () => {
    const dealId = await makeDeal(db, brand);
    for (const [column, value] of [
      ['escrow_status', 'released'],
      ['applications_count', 5],
      ['selected_creator_ids', [creator]],
      ['winner_id', creator],
      ['deleted', true],
    ] as const) {
      const err = await expectRule(
        asUser(db, brand, `update public.deals set ${column} = $2 where id = $1`, [dealId, value]),
        'server_owned_field',
        403,
      );
      expect(err.hint).toBe(column);
    }
    const err = await expectRule(
      asUser(db, admin, `update public.deals set brand_id = $2 where id = $1`, [dealId, admin]),
      'immutable_field',
    );
    expect(err.hint).toBe('brand_id');
  });

  test('completing needs a selected creator, then records the winner and the time', async () => {
    const dealId = await makeDeal(db, brand);
    const err = await expectRule(
      asUser(db, brand, `update public.deals set status = 'completed' where id = $1`, [dealId]),
      'no_selected_creator',
      422,
    );
    expect(err.detail).toBe('You must select at least one creator before completing the deal.');

    // Applications close once a creator is accepted, so both apply first.
    const apps = [await apply(db, creator, dealId), await apply(db, proCreator, dealId)];
    for (const appId of apps)
      await asUser(db, brand, `update public.applications set status = 'accepted' where id = $1`, [appId]);
    const before = await profile(creator);
    await asUser(db, brand, `update public.deals set status = 'completed' where id = $1`, [dealId]);
    const done = await deal(dealId);
    expect(done).toMatchObject({ status: 'completed', winner_id: creator });
    expect(done.completed_at).toBeInstanceOf(Date);
    expect((await profile(creator)).completed_deals).toBe(before.completed_deals + 1);
  });

  test('a non-owner cannot complete; a completed deal is closed to edits, applications and status changes', async () => {
    const dealId = await makeDeal(db, brand);
    const appId = await apply(db, creator, dealId);
    await asUser(db, brand, `update public.applications set status = 'accepted' where id = $1`, [appId]);
    expect(
      (await asUser(db, otherBrand, `update public.deals set status = 'completed' where id = $1`, [dealId])).rowCount,
    ).toBe(0);
    expect(
      (await asUser(db, creator, `update public.deals set status = 'completed' where id = $1`, [dealId])).rowCount,
    ).toBe(0);
    await asUser(db, admin, `update public.deals set status = 'completed' where id = $1`, [dealId]);

    await expectRule(
      asUser(db, brand, `update public.deals set title = 'Late edit' where id = $1`, [dealId]),
      'deal_closed',
      409,
    );
    await expectRule(
      asUser(db, brand, `update public.deals set status = 'open' where id = $1`, [dealId]),
      'deal_closed',
      409,
    );
    await expectRule(
      asServer(db, `update public.deals set status = 'open' where id = $1`, [dealId]),
      'invalid_status_transition',
      422,
    );
    await expectRule(apply(db, proCreator, dealId), 'deal_not_open', 409);
    await expectRule(
      asUser(db, brand, `update public.applications set status = 'rejected' where id = $1`, [appId]),
      'deal_closed',
      409,
    );
  });

  test('status moves only along open → in_progress → completed, open | in_progress → cancelled', async () => {
    const dealId = await makeDeal(db, brand);
    await expectRule(
      asUser(db, brand, `update public.deals set status = 'in_progress' where id = $1`, [dealId]),
      'invalid_status_transition',
      422,
    );
    await asUser(db, brand, `update public.deals set status = 'cancelled' where id = $1`, [dealId]);
    await expectRule(
      asServer(db, `update public.deals set status = 'open' where id = $1`, [dealId]),
      'invalid_status_transition',
      422,
    );
  });
});

describe('profiles', () => {
  test('server-owned profile fields are rejected; own editable fields are not', async () => {
    await asUser(
      db,
      creator,
      `update public.profiles set bio = 'I film trail runs', niches = '{Fitness,Outdoors}' where id = $1`,
      [creator],
    );
    for (const [column, value] of [
      ['xp', 5000],
      ['level', 9],
      ['pro_tier', 'premium'],
      ['rating', 5],
      ['referral_code', 'ABCDEF'],
      ['email_verified', false],
      ['total_deals', 3],
    ] as const) {
      const err = await expectRule(
        asUser(db, creator, `update public.profiles set ${column} = $2 where id = $1`, [creator, value]),
        'server_owned_field',
        403,
      );
      expect(err.hint).toBe(column);
    }
    await expectRule(
      asUser(db, creator, `update public.profiles set role = 'admin' where id = $1`, [creator]),
      'server_owned_field',
      403,
    );
    await expectRule(
      asUser(db, creator, `update public.profiles set verified = true where id = $1`, [creator]),
      'server_owned_field',
      403,
    );
  });

  test('an admin changes roles and verifies accounts', async () => {
    const someone = await makeUser(db, 'creator');
    await asUser(db, admin, `update public.profiles set role = 'brand', verified = true where id = $1`, [someone]);
    expect(await profile(someone)).toMatchObject({ role: 'brand', verified: true });
  });
});

describe('Pro', () => {
  test('is_pro_user follows the paid tier, its end date and the pro_deals feature', async () => {
    const user = await makeUser(db, 'creator');
    const isPro = async () => (await asUser(db, creator, 'select public.is_pro_user($1) as pro', [user])).rows[0].pro;
    expect(await isPro()).toBe(false);
    await asServer(
      db,
      `update public.profiles set pro_tier = 'basic', pro_since = now(), pro_until = now() + interval '1 day' where id = $1`,
      [user],
    );
    expect(await isPro()).toBe(true);
    await asServer(db, `update public.profiles set pro_until = now() - interval '1 second' where id = $1`, [user]);
    expect(await isPro()).toBe(false);
    // Moving to free clears the dates.
    await asServer(db, `update public.profiles set pro_tier = 'free' where id = $1`, [user]);
    expect(await profile(user)).toMatchObject({ pro_since: null, pro_until: null });
    await asServer(db, `select public.grant_pro_features($1, array['priority_support'], interval '1 day')`, [user]);
    expect(await isPro()).toBe(false);
    await asServer(db, `select public.grant_pro_features($1, array['pro_deals'], interval '1 day')`, [user]);
    expect(await isPro()).toBe(true);
    await asServer(
      db,
      `update public.user_pro_features set expires_at = now() - interval '1 second' where user_id = $1`,
      [user],
    );
    expect(await isPro()).toBe(false);
  });

  test('grant_pro_features: admins and the server only, known features, never shortening a grant', async () => {
    const user = await makeUser(db, 'creator');
    const features = ['pro_deals', 'priority_matching', 'priority_support', 'lower_commission'];
    await expectRule(
      asUser(db, creator, `select * from public.grant_pro_features($1, $2, interval '1 year')`, [user, features]),
      'forbidden',
      403,
    );
    const granted = await asUser(db, admin, `select * from public.grant_pro_features($1, $2, interval '1 year')`, [
      user,
      features,
    ]);
    expect(granted.rows.map((r) => r.feature_name).sort()).toEqual([...features].sort());
    await asServer(db, `select public.grant_pro_features($1, array['pro_deals'], interval '1 day')`, [user]);
    const left = await asServer(
      db,
      `select u.expires_at > now() + interval '300 days' as long from public.user_pro_features u join public.pro_features f on f.id = u.feature_id
       where u.user_id = $1 and f.name = 'pro_deals'`,
      [user],
    );
    expect(left.rows[0].long).toBe(true);
    await expectRule(
      asServer(db, `select public.grant_pro_features($1, array['free_money'], interval '1 day')`, [user]),
      'unknown_pro_feature',
      422,
    );
  });

  test('level_for_xp follows the spec thresholds and caps at 20', async () => {
    const { rows } = await asUser(
      db,
      creator,
      `select x, public.level_for_xp(x) as level from unnest(array[0, 99, 100, 299, 300, 4500, 18999, 19000, 1000000]) as x`,
    );
    expect(rows.map((r) => r.level)).toEqual([1, 1, 2, 2, 3, 10, 19, 20, 20]);
  });
});

describe('support', () => {
  test('Pro tickets are high priority and flagged; others are normal', async () => {
    const pro = randomUUID();
    const free = randomUUID();
    await asUser(
      db,
      proCreator,
      `insert into public.support_tickets (id, user_id, subject, message, priority) values ($1, $2, 'Help', 'Please', 'low')`,
      [pro, proCreator],
    );
    await asUser(
      db,
      creator,
      `insert into public.support_tickets (id, user_id, subject, message) values ($1, $2, 'Help', 'Please')`,
      [free, creator],
    );
    const { rows } = await asServer(
      db,
      `select id, priority, is_pro from public.support_tickets where id in ($1, $2)`,
      [pro, free],
    );
    expect(Object.fromEntries(rows.map((r) => [r.id, [r.priority, r.is_pro]]))).toEqual({
      [pro]: ['high', true],
      [free]: ['normal', false],
    });
    await expectRule(
      asUser(db, creator, `update public.support_tickets set priority = 'high' where id = $1`, [free]),
      'server_owned_field',
      403,
    );
    await expectRule(
      asUser(db, creator, `update public.support_tickets set is_pro = true where id = $1`, [free]),
      'server_owned_field',
      403,
    );
  });

  test('a staff reply sets first_response_at; replies only while the ticket is open', async () => {
    const ticket = randomUUID();
    await asUser(
      db,
      creator,
      `insert into public.support_tickets (id, user_id, subject, message) values ($1, $2, 'Payout', 'Where is it?')`,
      [ticket, creator],
    );
    const reply = (who: string) =>
      asUser(
        db,
        who,
        `insert into public.support_messages (id, ticket_id, user_id, message) values ($1, $2, $3, 'Hello')`,
        [randomUUID(), ticket, who],
      );
    await reply(creator);
    expect(
      (await asServer(db, 'select first_response_at from public.support_tickets where id = $1', [ticket])).rows[0]
        .first_response_at,
    ).toBeNull();
    await reply(admin);
    expect(
      (await asServer(db, 'select first_response_at from public.support_tickets where id = $1', [ticket])).rows[0]
        .first_response_at,
    ).toBeInstanceOf(Date);
    await asUser(db, creator, `update public.support_tickets set status = 'closed' where id = $1`, [ticket]);
    await expectRule(reply(creator), 'ticket_closed', 409);
  });
});

describe('messages', () => {
  test('a message updates its conversation; only participants write, to the other participant', async () => {
    // One conversation per pair (and deal): its id derives from them.
    const conversation = conversationIdFor(brand, creator, null);
    await asUser(
      db,
      brand,
      `insert into public.conversations (id, user1_id, user2_id, title, last_message) values ($1, $2, $3, 'Collab', 'forged')`,
      [conversation, brand, creator],
    );
    const send = (from: string, to: string, body: string) =>
      asUser(
        db,
        from,
        `insert into public.messages (id, conversation_id, sender_id, recipient_id, body) values ($1, $2, $3, $4, $5)`,
        [randomUUID(), conversation, from, to, body],
      );
    expect(
      (await asServer(db, 'select last_message from public.conversations where id = $1', [conversation])).rows[0]
        .last_message,
    ).toBe('');
    await send(creator, brand, 'Hi! Happy to work together.');
    const c = (
      await asServer(db, 'select last_message, last_message_at from public.conversations where id = $1', [conversation])
    ).rows[0];
    expect(c.last_message).toBe('Hi! Happy to work together.');
    expect(c.last_message_at).toBeInstanceOf(Date);
    // Someone else's conversation is "not found" to an outsider, exactly like a missing one.
    await expectRule(send(otherBrand, creator, 'Let me in'), 'conversation_not_found', 404);
    await expectRule(send(creator, otherBrand, 'Wrong person'), 'wrong_recipient', 422);
    await expectRule(
      asUser(db, brand, `update public.conversations set last_message = 'x' where id = $1`, [conversation]),
      'server_owned_field',
      403,
    );
  });
});

describe('reviews', () => {
  test('only the participants of a completed deal review each other; the rating follows', async () => {
    const dealId = await makeDeal(db, brand);
    const reviewee = await makeUser(db, 'creator');
    await asUser(db, brand, `update public.applications set status = 'accepted' where id = $1`, [
      await apply(db, reviewee, dealId),
    ]);
    const review = (who: string, about: string, rating: number) =>
      asUser(
        db,
        who,
        `insert into public.reviews (id, deal_id, reviewer_id, reviewee_id, rating) values ($1, $2, $3, $4, $5)`,
        [randomUUID(), dealId, who, about, rating],
      );
    await expectRule(review(brand, reviewee, 5), 'deal_not_completed', 409);
    await asUser(db, brand, `update public.deals set status = 'completed' where id = $1`, [dealId]);
    await expectRule(review(otherBrand, reviewee, 1), 'not_a_participant', 403);
    await review(brand, reviewee, 4);
    await review(reviewee, brand, 5);
    expect(Number((await profile(reviewee)).rating)).toBe(4);
  });
});

test('saved lists drop empty and duplicate entries', async () => {
  const id = randomUUID();
  await asUser(
    db,
    brand,
    `insert into public.saved_lists (id, user_id, kind, items) values ($1, $2, 'shortlist', $3)`,
    [id, brand, ['casey', ' ', 'robin', 'casey', '']],
  );
  expect((await asServer(db, 'select items from public.saved_lists where id = $1', [id])).rows[0].items).toEqual([
    'casey',
    'robin',
  ]);
});

test('make-admin promotes an existing account by e-mail (any letter case), and reports unknown ones', async () => {
  const someone = await makeUser(db, 'brand');
  const { rows } = await asServer(db, 'select email from auth.users where id = $1', [someone]);
  const client = await db.pool.connect();
  try {
    expect(await promoteToAdmin(client, rows[0].email.toUpperCase())).toEqual({ id: someone, previousRole: 'brand' });
    expect(await promoteToAdmin(client, 'nobody@example.test')).toBeUndefined();
  } finally {
    client.release();
  }
  expect((await profile(someone)).role).toBe('admin');
  // An admin may now do what only admins do.
  const dealId = await makeDeal(db, brand);
  await asUser(db, someone, `update public.deals set title = 'Fixed typo' where id = $1`, [dealId]);
  expect((await deal(dealId)).title).toBe('Fixed typo');
});
