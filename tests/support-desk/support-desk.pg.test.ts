import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createDatabase, type Database } from '../../sync-server/db/database.ts';
import {
  averageFirstResponseMinutes,
  compareQueue,
  FREE_OPEN_TICKET_LIMIT,
  MESSAGE_MAX_LENGTH,
  REOPEN_WINDOW_DAYS,
  SUBJECT_MAX_LENGTH,
  SUPPORT_ERRORS,
} from '../../src/domain/support.ts';
import { createTestDatabase } from '../support/test-database.ts';
import { apply, asAnon, asServer, asUser, expectRule, makeDeal, makeUser } from '../support/rules-fixtures.ts';

// The support desk's rules (20261123000301_support_rules.sql and the RLS policies), through SQL as
// the signed-in user: the same path the sync server takes for every pull and push.

let db: Database;
let drop: () => Promise<void>;
let creator: string;
let otherCreator: string;
let proCreator: string;
let brand: string;
let admin: string;

beforeAll(async () => {
  const database = await createTestDatabase();
  drop = database.drop;
  db = createDatabase(database.url);
  [creator, otherCreator, proCreator, brand, admin] = await Promise.all([
    makeUser(db, 'creator', { name: 'Casey' }),
    makeUser(db, 'creator'),
    makeUser(db, 'creator', { pro: true }),
    makeUser(db, 'brand'),
    makeUser(db, 'admin'),
  ]);
});
afterAll(async () => {
  await db?.close();
  await drop?.();
});

async function openTicket(userId: string, fields: Record<string, unknown> = {}): Promise<string> {
  const row = {
    id: randomUUID(),
    user_id: userId,
    subject: 'Payout question',
    message: 'Where is my payout?',
    ...fields,
  };
  const cols = Object.keys(row);
  await asUser(
    db,
    userId,
    `insert into public.support_tickets (${cols.join(', ')}) values (${cols.map((_, i) => `$${i + 1}`).join(', ')})`,
    Object.values(row),
  );
  return row.id;
}

/** A dispute ticket as the server's dispute path files it. */
async function serverDispute(userId: string, dealId: string | null): Promise<string> {
  const id = randomUUID();
  await asServer(
    db,
    `insert into public.support_tickets (id, user_id, subject, message, priority, kind, deal_id)
     values ($1, $2, 'Dispute: Summer launch', 'Not delivered', 'high', 'dispute', $3)`,
    [id, userId, dealId],
  );
  return id;
}

function reply(userId: string, ticketId: string, message = 'Hello', id = randomUUID()) {
  return asUser(
    db,
    userId,
    `insert into public.support_messages (id, ticket_id, user_id, message) values ($1, $2, $3, $4)`,
    [id, ticketId, userId, message],
  );
}

const ticket = async (id: string) =>
  (await asServer(db, 'select * from public.support_tickets where id = $1', [id])).rows[0];
const close = (who: string, id: string) =>
  asUser(db, who, `update public.support_tickets set status = 'closed' where id = $1`, [id]);
const reopen = (who: string, id: string) =>
  asUser(db, who, `update public.support_tickets set status = 'open' where id = $1`, [id]);

describe('visibility', () => {
  test('the asker sees their ticket and its thread, another user sees neither, staff see both', async () => {
    const id = await openTicket(creator);
    await reply(creator, id, 'More details');
    await reply(admin, id, 'We are on it');
    const seen = async (who: string) => ({
      tickets: (await asUser(db, who, 'select id from public.support_tickets where id = $1', [id])).rowCount,
      messages: (await asUser(db, who, 'select id from public.support_messages where ticket_id = $1', [id])).rowCount,
    });
    expect(await seen(creator)).toEqual({ tickets: 1, messages: 2 });
    expect(await seen(otherCreator)).toEqual({ tickets: 0, messages: 0 });
    expect(await seen(admin)).toEqual({ tickets: 1, messages: 2 });
    // Nor can another user write into it, or close it. A ticket they may not see is refused exactly as a
    // missing one (no existence oracle), not with "only the ticket's owner…".
    await expectRule(reply(otherCreator, id), 'ticket_not_found', 404);
    expect(
      (await asServer(db, 'select count(*)::int as n from public.support_messages where ticket_id = $1', [id])).rows[0]
        .n,
    ).toBe(2);
    const closed = await close(otherCreator, id);
    expect(closed.rowCount).toBe(0);
    expect((await ticket(id)).status).toBe('open');
  });
});

describe('priority', () => {
  test("the plan decides: a Pro user's ticket is high, anyone else's normal, whatever was sent", async () => {
    const pro = await openTicket(proCreator, { priority: 'low' });
    const high = await openTicket(otherCreator, { priority: 'high' });
    const plain = await openTicket(brand);
    expect(await ticket(pro)).toMatchObject({ priority: 'high', is_pro: true });
    expect(await ticket(high)).toMatchObject({ priority: 'normal', is_pro: false });
    expect(await ticket(plain)).toMatchObject({ priority: 'normal', is_pro: false, status: 'open', kind: 'question' });
    await expectRule(
      asUser(db, brand, `update public.support_tickets set priority = 'high' where id = $1`, [plain]),
      'server_owned_field',
      403,
    );
    await asUser(db, admin, `update public.support_tickets set priority = 'high' where id = $1`, [plain]);
    expect((await ticket(plain)).priority).toBe('high');
  });
});

describe('replies', () => {
  test('the first staff reply sets first_response_at once, is marked staff and notifies the asker', async () => {
    const id = await openTicket(otherCreator);
    await reply(otherCreator, id, 'Any news?');
    expect((await ticket(id)).first_response_at).toBeNull();
    await reply(admin, id, 'Looking into it');
    const first = (await ticket(id)).first_response_at as Date;
    expect(first).toBeInstanceOf(Date);
    await reply(admin, id, 'Found it');
    expect((await ticket(id)).first_response_at).toEqual(first);

    const thread = await asUser(
      db,
      otherCreator,
      'select message, is_staff from public.support_messages where ticket_id = $1 order by created_at',
      [id],
    );
    expect(thread.rows).toEqual([
      { message: 'Any news?', is_staff: false },
      { message: 'Looking into it', is_staff: true },
      { message: 'Found it', is_staff: true },
    ]);
    const notes = await asUser(
      db,
      otherCreator,
      `select type, data from public.notifications where data->>'ticket_id' = $1`,
      [id],
    );
    expect(notes.rows).toHaveLength(2);
    expect(notes.rows[0]).toMatchObject({ type: 'support_reply', data: { ticket_id: id, link: `/support/${id}` } });
    // A client cannot claim to be staff.
    const forged = randomUUID();
    await asUser(
      db,
      otherCreator,
      `insert into public.support_messages (id, ticket_id, user_id, message, is_staff) values ($1, $2, $3, 'Me', true)`,
      [forged, id, otherCreator],
    );
    expect(
      (await asServer(db, 'select is_staff from public.support_messages where id = $1', [forged])).rows[0].is_staff,
    ).toBe(false);
  });

  test('a reply to a closed ticket is refused with a reason; the asker and staff close and reopen', async () => {
    const id = await openTicket(creator);
    await close(creator, id);
    expect((await ticket(id)).closed_at).toBeInstanceOf(Date);
    const refused = await expectRule(reply(creator, id), 'ticket_closed', 409);
    expect(refused.detail).toBe(SUPPORT_ERRORS.ticketClosed);
    await expectRule(reply(admin, id), 'ticket_closed', 409);
    await reopen(creator, id);
    expect(await ticket(id)).toMatchObject({ status: 'open', closed_at: null });
    await reply(creator, id, 'Thanks');
    await close(admin, id);
    await reopen(admin, id);
    expect((await ticket(id)).status).toBe('open');
  });

  test('the asker reopens only within 14 days of closing; staff any time', async () => {
    // An asker of its own: this test opens and reopens questions, so tickets other tests left open
    // (or a retried test opened again) must not bring it to the free plan's limit of open questions.
    const asker = await makeUser(db, 'creator');
    const id = await openTicket(asker);
    await close(asker, id);
    await asServer(
      db,
      `update public.support_tickets set closed_at = now() - make_interval(days => $2) - interval '1 minute' where id = $1`,
      [id, REOPEN_WINDOW_DAYS],
    );
    const stillOpenable = await openTicket(asker);
    await close(asker, stillOpenable);
    await asServer(
      db,
      `update public.support_tickets set closed_at = now() - make_interval(days => $2) + interval '1 minute' where id = $1`,
      [stillOpenable, REOPEN_WINDOW_DAYS],
    );
    await reopen(asker, stillOpenable);
    await close(asker, stillOpenable);
    const refused = await expectRule(reopen(asker, id), 'reopen_window_passed', 409);
    expect(refused.detail).toBe(SUPPORT_ERRORS.reopenExpired);
    await reopen(admin, id);
    expect((await ticket(id)).status).toBe('open');
    await close(asker, id);
  });

  test('blank and overlong texts are refused with the sentences the form shows', async () => {
    const blankSubject = await expectRule(openTicket(creator, { subject: '   ' }), 'subject_required', 422);
    expect(blankSubject).toMatchObject({ detail: SUPPORT_ERRORS.subjectRequired, hint: 'subject' });
    expect(
      (await expectRule(openTicket(creator, { subject: 'x'.repeat(SUBJECT_MAX_LENGTH + 1) }), 'subject_too_long', 422))
        .detail,
    ).toBe(SUPPORT_ERRORS.subjectTooLong);
    expect((await expectRule(openTicket(creator, { message: '' }), 'message_required', 422)).detail).toBe(
      SUPPORT_ERRORS.messageRequired,
    );
    expect(
      (await expectRule(openTicket(creator, { message: 'x'.repeat(MESSAGE_MAX_LENGTH + 1) }), 'message_too_long', 422))
        .detail,
    ).toBe(SUPPORT_ERRORS.messageTooLong);
    const id = await openTicket(brand);
    await expectRule(reply(brand, id, '  '), 'message_required', 422);
    await expectRule(reply(brand, id, 'x'.repeat(MESSAGE_MAX_LENGTH + 1)), 'message_too_long', 422);
  });

  test('the asker, subject and message never change; server-owned fields stay the server’s', async () => {
    const id = await openTicket(brand);
    await expectRule(
      asUser(db, brand, `update public.support_tickets set subject = 'Other' where id = $1`, [id]),
      'immutable_field',
      403,
    );
    await expectRule(
      asUser(db, brand, `update public.support_tickets set kind = 'dispute' where id = $1`, [id]),
      'immutable_field',
      403,
    );
    await expectRule(
      asUser(db, brand, `update public.support_tickets set first_response_at = now() where id = $1`, [id]),
      'server_owned_field',
      403,
    );
    await expectRule(
      asUser(db, brand, `update public.support_tickets set closed_at = now() where id = $1`, [id]),
      'server_owned_field',
      403,
    );
  });
});

describe('deals, disputes and the free plan', () => {
  test('a ticket names only one of the asker’s deals; disputes come only from the server’s dispute path', async () => {
    const deal = await makeDeal(db, brand);
    await expectRule(openTicket(otherCreator, { deal_id: deal }), 'not_your_deal', 403);
    await apply(db, otherCreator, deal);
    const about = await openTicket(otherCreator, { deal_id: deal });
    expect(await ticket(about)).toMatchObject({ deal_id: deal, kind: 'question' });
    await expectRule(openTicket(brand, { kind: 'dispute', deal_id: deal }), 'dispute_from_deal', 403);
    await expectRule(openTicket(brand, { kind: 'dispute' }), 'dispute_from_deal', 403);
    await expectRule(serverDispute(brand, null), 'deal_required', 422);
    const dispute = await serverDispute(brand, deal);
    expect((await ticket(dispute)).kind).toBe('dispute');
    // An applicant is not one of the deal's two sides.
    await expectRule(serverDispute(otherCreator, deal), 'not_a_participant', 403);
    await expectRule(openTicket(brand, { kind: 'contact' }), 'invalid_kind', 422);
  });

  test('the free plan keeps its open questions to the limit ("Pro users have no limit"); disputes do not count', async () => {
    const user = await makeUser(db, 'brand');
    const ids: string[] = [];
    for (let i = 0; i < FREE_OPEN_TICKET_LIMIT; i += 1) ids.push(await openTicket(user));
    const refused = await expectRule(openTicket(user), 'open_ticket_limit', 409);
    expect(refused.detail).toBe(SUPPORT_ERRORS.openTicketLimit);
    expect(refused.detail).toContain('Pro users');
    const deal = await makeDeal(db, user);
    await serverDispute(user, deal);
    await close(user, ids[0]!);
    await openTicket(user);
    // Reopening would make four open questions.
    await expectRule(reopen(user, ids[0]!), 'open_ticket_limit', 409);
    const pro = await makeUser(db, 'creator', { pro: true });
    for (let i = 0; i < 5; i += 1) await openTicket(pro);
  });
});

describe('contact form', () => {
  test('every contact message becomes a contact ticket in the staff queue, signed in or not', async () => {
    const signedOut = randomUUID();
    await asAnon(
      db,
      `insert into public.contact_messages (id, name, email, subject, message) values ($1, 'Jo', 'jo@example.test', 'billing', 'Bank transfer?')`,
      [signedOut],
    );
    const signedIn = randomUUID();
    await asUser(
      db,
      creator,
      `insert into public.contact_messages (id, name, email, subject, message, user_id) values ($1, 'Casey', 'c@example.test', 'feature', 'Dark mode please', $2)`,
      [signedIn, creator],
    );
    const staffView = await asUser(
      db,
      admin,
      `select user_id, subject, message, kind, status, contact_name, contact_email from public.support_tickets where contact_message_id in ($1, $2) order by subject`,
      [signedOut, signedIn],
    );
    expect(staffView.rows).toEqual([
      {
        user_id: null,
        subject: 'Contact: Billing',
        message: 'Bank transfer?',
        kind: 'contact',
        status: 'open',
        contact_name: 'Jo',
        contact_email: 'jo@example.test',
      },
      {
        user_id: creator,
        subject: 'Contact: Feature Request',
        message: 'Dark mode please',
        kind: 'contact',
        status: 'open',
        contact_name: 'Casey',
        contact_email: 'c@example.test',
      },
    ]);
    // Staff answer a visitor's contact ticket in the queue like any other.
    const visitorTicket = (
      await asServer(db, 'select id from public.support_tickets where contact_message_id = $1', [signedOut])
    ).rows[0].id as string;
    await reply(admin, visitorTicket, 'Yes, by invoice.');
    expect((await ticket(visitorTicket)).first_response_at).toBeInstanceOf(Date);
    const queue = await asUser(db, admin, 'select id from public.support_queue()');
    expect(queue.rows.map((r) => r.id)).toContain(visitorTicket);
  });
});

describe('staff figures', () => {
  // A database of its own, so the queue and the figures are exactly the tickets written here.
  let own: Database;
  let dropOwn: () => Promise<void>;
  beforeAll(async () => {
    const database = await createTestDatabase();
    dropOwn = database.drop;
    own = createDatabase(database.url);
  });
  afterAll(async () => {
    await own?.close();
    await dropOwn?.();
  });

  /** Writes history as it happened: triggers off for this one server transaction. */
  async function pastTicket(
    userId: string,
    t: { priority: string; ageMinutes: number; answeredAfter?: number; status?: string },
  ): Promise<string> {
    const id = randomUUID();
    await own.asService(async (tx) => {
      await tx.query(`set local session_replication_role = replica`);
      await tx.query(
        `insert into public.support_tickets (id, user_id, subject, message, priority, status, created_at, first_response_at)
         values ($1, $2, 'Past', 'Past', $3, $4, now() - make_interval(mins => $5), now() - make_interval(mins => $5) + make_interval(mins => $6))`,
        [id, userId, t.priority, t.status ?? 'open', t.ageMinutes, t.answeredAfter ?? null],
      );
    });
    return id;
  }

  test('the queue: open tickets by priority (high first), then oldest first; staff only', async () => {
    const [asker, staff] = await Promise.all([makeUser(own, 'creator'), makeUser(own, 'admin')]);
    const oldNormal = await pastTicket(asker, { priority: 'normal', ageMinutes: 600 });
    const newHigh = await pastTicket(asker, { priority: 'high', ageMinutes: 5 });
    const oldHigh = await pastTicket(asker, { priority: 'high', ageMinutes: 60 });
    const oldLow = await pastTicket(asker, { priority: 'low', ageMinutes: 9000 });
    const newNormal = await pastTicket(asker, { priority: 'normal', ageMinutes: 1 });
    await pastTicket(asker, { priority: 'high', ageMinutes: 30, status: 'closed' });

    const { rows } = await asUser(own, staff, 'select id, priority, created_at from public.support_queue()');
    expect(rows.map((r) => r.id)).toEqual([oldHigh, newHigh, oldNormal, newNormal, oldLow]);
    // The page sorts its replicated copy with the shared comparator: the same order.
    const byPage = rows
      .map((r) => ({ id: r.id as string, priority: r.priority, created_at: (r.created_at as Date).toISOString() }))
      .reverse()
      .sort(compareQueue);
    expect(byPage.map((r) => r.id)).toEqual(rows.map((r) => r.id));
    await expectRule(asUser(own, asker, 'select * from public.support_queue()'), 'forbidden', 403);
  });

  test('average first response in whole minutes over tickets opened in the last 30 days; counts by status', async () => {
    const [asker, staff] = await Promise.all([makeUser(own, 'creator'), makeUser(own, 'admin')]);
    const before = (await asUser(own, staff, 'select * from public.support_stats()')).rows[0];
    await own.asService((tx) => tx.query('update public.support_tickets set deleted = true'));
    await pastTicket(asker, { priority: 'normal', ageMinutes: 120, answeredAfter: 10 });
    await pastTicket(asker, { priority: 'high', ageMinutes: 3000, answeredAfter: 25, status: 'closed' });
    await pastTicket(asker, { priority: 'normal', ageMinutes: 60 }); // not answered yet: not counted
    await pastTicket(asker, { priority: 'normal', ageMinutes: 31 * 24 * 60, answeredAfter: 600, status: 'closed' }); // too old
    const stats = (await asUser(own, staff, 'select * from public.support_stats()')).rows[0];
    expect(before).toBeDefined();
    // (10 + 25) / 2 = 17.5 → 18
    expect(stats).toEqual({ open_count: 2, closed_count: 2, avg_first_response_minutes: 18 });

    const all = await asServer(
      own,
      'select created_at, first_response_at from public.support_tickets where not deleted',
    );
    const docs = all.rows.map((r) => ({
      created_at: (r.created_at as Date).toISOString(),
      first_response_at: r.first_response_at ? (r.first_response_at as Date).toISOString() : null,
    }));
    expect(averageFirstResponseMinutes(docs, new Date())).toBe(18);
    await expectRule(asUser(own, asker, 'select * from public.support_stats()'), 'forbidden', 403);
  });
});
