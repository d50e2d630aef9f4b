import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createDatabase, type Database, type Tx } from '../../sync-server/db/database.ts';
import { createTestDatabase } from '../support/test-database.ts';
import { asServer, makeUser } from '../support/rules-fixtures.ts';

// The permission matrix: every table × role × (read, insert, update, delete) on ANOTHER user's row,
// through the real path (db.asUser → role authenticated with the claims; anon = role anon, no claims).
// Outcomes:
//   allowed  the statement sees / writes the row
//   hidden   the statement runs but RLS shows it no row (0 rows read or written)
//   denied   Postgres refuses it (no grant, or an RLS WITH CHECK): SQLSTATE 42501
//   rule:x   a business rule of 20261122000300_rules.sql refuses it with code x (SQLSTATE PTnnn)
// Each cell runs in its own transaction, rolled back, so cells never affect each other.

type Actor = 'anon' | 'creator' | 'brand' | 'admin';
type Outcome = 'allowed' | 'hidden' | 'denied' | `rule:${string}`;
type Ops = { read: Outcome; insert: Outcome; update: Outcome; delete: Outcome };

// The rows belong to creatorA / brandA; the actors are other users: creatorB, brandB and an admin.
type Fixture = Record<
  | 'creatorA'
  | 'brandA'
  | 'creatorB'
  | 'brandB'
  | 'admin'
  | 'deal'
  | 'completedDeal'
  | 'application'
  | 'savedList'
  | 'draft'
  | 'notification'
  | 'conversation'
  | 'message'
  | 'ticket'
  | 'ticketMessage'
  | 'review'
  | 'xpLog'
  | 'referral'
  | 'badge'
  | 'reward'
  | 'proFeature'
  | 'userProFeature'
  | 'contact',
  string
>;
let f: Fixture;

const D: Ops = { read: 'denied', insert: 'denied', update: 'denied', delete: 'denied' };
const ops = (read: Outcome, insert: Outcome, update: Outcome, del: Outcome = 'denied'): Ops => ({
  read,
  insert,
  update,
  delete: del,
});

type Row = {
  table: string;
  /** The row of another user the actors try to read, update and delete (a Fixture key). */
  row: keyof Fixture;
  /** An INSERT of a row belonging to another user (creatorA / brandA). */
  insert: string;
  /** A harmless UPDATE of the row. */
  set: string;
  expected: Record<Actor, Ops>;
};

const matrix: Row[] = [
  {
    table: 'profiles',
    row: 'creatorA',
    insert: `insert into public.profiles (id, full_name) values (:newId, 'Impostor')`,
    set: `bio = 'edited'`,
    expected: {
      anon: D,
      creator: ops('allowed', 'denied', 'hidden'),
      brand: ops('allowed', 'denied', 'hidden'),
      admin: ops('allowed', 'denied', 'allowed'),
    },
  },
  {
    table: 'billing_accounts',
    row: 'creatorA',
    insert: `insert into public.billing_accounts (user_id, stripe_customer_id) values (:brandA, 'cus_forged')`,
    set: `stripe_account_id = 'acct_forged'`,
    expected: {
      anon: D,
      creator: ops('hidden', 'denied', 'denied'),
      brand: ops('hidden', 'denied', 'denied'),
      admin: ops('hidden', 'denied', 'denied'),
    },
  },
  {
    // An in-progress deal of brandA with creatorA selected: outside every other user's scope but the admin's.
    table: 'deals',
    row: 'deal',
    insert: `insert into public.deals (id, brand_id, title, description, amount_cents, niches) values (:newId, :brandA, 'Forged', 'Forged', 1000, '{Fitness}')`,
    set: `title = 'edited'`,
    expected: {
      anon: D,
      creator: ops('hidden', 'rule:only_brands_create_deals', 'hidden'),
      brand: ops('hidden', 'rule:not_deal_owner', 'hidden'),
      admin: ops('allowed', 'rule:not_deal_owner', 'allowed'),
    },
  },
  {
    table: 'applications',
    row: 'application',
    insert: `insert into public.applications (id, deal_id, creator_id) values (:newId, :completedDeal, :creatorA)`,
    set: `pitch = 'edited'`,
    expected: {
      anon: D,
      creator: ops('hidden', 'rule:not_your_application', 'hidden'),
      brand: ops('hidden', 'rule:not_your_application', 'hidden'),
      admin: ops('allowed', 'rule:not_your_application', 'rule:not_your_application'),
    },
  },
  {
    table: 'saved_lists',
    row: 'savedList',
    insert: `insert into public.saved_lists (id, user_id, kind, items) values (:newId, :creatorA, 'skipped_deals', '{x}')`,
    set: `items = '{edited}'`,
    expected: {
      anon: D,
      creator: ops('hidden', 'denied', 'hidden'),
      brand: ops('hidden', 'denied', 'hidden'),
      admin: ops('hidden', 'denied', 'hidden'),
    },
  },
  {
    table: 'drafts',
    row: 'draft',
    insert: `insert into public.drafts (id, user_id, kind, title) values (:newId, :creatorA, 'deal', 'Forged')`,
    set: `title = 'edited'`,
    expected: {
      anon: D,
      creator: ops('hidden', 'denied', 'hidden'),
      brand: ops('hidden', 'denied', 'hidden'),
      admin: ops('hidden', 'denied', 'hidden'),
    },
  },
  {
    table: 'notifications',
    row: 'notification',
    insert: `insert into public.notifications (user_id, type, title) values (:creatorA, 'level_up', 'Forged')`,
    set: `read_at = now()`,
    expected: {
      anon: D,
      creator: ops('hidden', 'denied', 'hidden'),
      brand: ops('hidden', 'denied', 'hidden'),
      admin: ops('hidden', 'denied', 'hidden'),
    },
  },
  {
    table: 'conversations',
    row: 'conversation',
    insert: `insert into public.conversations (id, user1_id, user2_id, title) values (:newId, :brandA, :creatorA, 'Forged')`,
    set: `title = 'edited'`,
    expected: {
      anon: D,
      creator: ops('hidden', 'rule:not_a_participant', 'hidden'),
      brand: ops('hidden', 'rule:not_a_participant', 'hidden'),
      admin: ops('hidden', 'rule:not_a_participant', 'hidden'),
    },
  },
  {
    table: 'messages',
    row: 'message',
    insert: `insert into public.messages (id, conversation_id, sender_id, recipient_id, body) values (:newId, :conversation, :creatorA, :brandA, 'Forged')`,
    set: `read_at = now()`,
    expected: {
      anon: D,
      // A conversation the writer cannot see is "not found", exactly like a missing one.
      creator: ops('hidden', 'rule:conversation_not_found', 'hidden'),
      brand: ops('hidden', 'rule:conversation_not_found', 'hidden'),
      admin: ops('hidden', 'rule:conversation_not_found', 'hidden'),
    },
  },
  {
    table: 'support_tickets',
    row: 'ticket',
    insert: `insert into public.support_tickets (id, user_id, subject, message) values (:newId, :creatorA, 'Forged', 'Forged')`,
    set: `status = 'closed'`,
    expected: {
      anon: D,
      creator: ops('hidden', 'rule:not_your_ticket', 'hidden'),
      brand: ops('hidden', 'rule:not_your_ticket', 'hidden'),
      admin: ops('allowed', 'rule:not_your_ticket', 'allowed'),
    },
  },
  {
    table: 'support_messages',
    row: 'ticketMessage',
    insert: `insert into public.support_messages (id, ticket_id, user_id, message) values (:newId, :ticket, :creatorA, 'Forged')`,
    set: `message = 'edited'`,
    expected: {
      anon: D,
      // A ticket the writer cannot see is "not found", exactly like a missing one.
      creator: ops('hidden', 'rule:ticket_not_found', 'denied'),
      brand: ops('hidden', 'rule:ticket_not_found', 'denied'),
      admin: ops('allowed', 'rule:not_your_message', 'denied'),
    },
  },
  {
    table: 'reviews',
    row: 'review',
    insert: `insert into public.reviews (id, deal_id, reviewer_id, reviewee_id, rating) values (:newId, :completedDeal, :creatorA, :brandA, 1)`,
    set: `content = 'edited'`,
    expected: {
      anon: D,
      // Blind: brandA's review of creatorA stays hidden until creatorA has written theirs (or 14 days).
      creator: ops('hidden', 'rule:not_your_review', 'hidden'),
      brand: ops('hidden', 'rule:not_your_review', 'hidden'),
      admin: ops('allowed', 'rule:not_your_review', 'hidden'),
    },
  },
  {
    table: 'xp_logs',
    row: 'xpLog',
    insert: `insert into public.xp_logs (user_id, action, xp_gained, total_xp) values (:creatorA, 'FORGED', 1000, 1000)`,
    set: `xp_gained = 1000`,
    expected: {
      anon: D,
      creator: ops('hidden', 'denied', 'denied'),
      brand: ops('hidden', 'denied', 'denied'),
      admin: ops('allowed', 'denied', 'denied'),
    },
  },
  {
    table: 'referrals',
    row: 'referral',
    insert: `insert into public.referrals (referrer_id, referred_user_id) values (:creatorA, :admin)`,
    set: `qualified = true`,
    expected: {
      anon: D,
      creator: ops('hidden', 'denied', 'denied'),
      brand: ops('hidden', 'denied', 'denied'),
      admin: ops('allowed', 'denied', 'denied'),
    },
  },
  {
    table: 'referral_badges',
    row: 'badge',
    insert: `insert into public.referral_badges (user_id, badge_type) values (:brandA, 'gold')`,
    set: `badge_type = 'gold'`,
    expected: {
      anon: D,
      creator: ops('hidden', 'denied', 'denied'),
      brand: ops('hidden', 'denied', 'denied'),
      admin: ops('allowed', 'denied', 'denied'),
    },
  },
  {
    table: 'referral_rewards',
    row: 'reward',
    insert: `insert into public.referral_rewards (referrer_id, reward_type, amount_cents) values (:brandA, 'pro_subscription', 1000)`,
    set: `status = 'paid'`,
    expected: {
      anon: D,
      creator: ops('hidden', 'denied', 'denied'),
      brand: ops('hidden', 'denied', 'denied'),
      admin: ops('allowed', 'denied', 'denied'),
    },
  },
  {
    // The catalogue belongs to nobody: readable by every signed-in user, written by the server.
    table: 'pro_features',
    row: 'proFeature',
    insert: `insert into public.pro_features (name) values ('free_money')`,
    set: `description = 'edited'`,
    expected: {
      anon: D,
      creator: ops('allowed', 'denied', 'denied'),
      brand: ops('allowed', 'denied', 'denied'),
      admin: ops('allowed', 'denied', 'denied'),
    },
  },
  {
    table: 'user_pro_features',
    row: 'userProFeature',
    insert: `insert into public.user_pro_features (user_id, feature_id) values (:brandA, :proFeature)`,
    set: `expires_at = null`,
    expected: {
      anon: D,
      creator: ops('hidden', 'denied', 'denied'),
      brand: ops('hidden', 'denied', 'denied'),
      admin: ops('allowed', 'denied', 'denied'),
    },
  },
  {
    table: 'contact_messages',
    row: 'contact',
    insert: `insert into public.contact_messages (name, email, subject, message, user_id) values ('A', 'a@example.test', 'general', 'Hi', :creatorA)`,
    set: `message = 'edited'`,
    expected: {
      anon: ops('denied', 'denied', 'denied'),
      creator: ops('hidden', 'denied', 'denied'),
      brand: ops('hidden', 'denied', 'denied'),
      admin: ops('allowed', 'denied', 'denied'),
    },
  },
];

let db: Database;
let drop: () => Promise<void>;

class Rollback {
  constructor(readonly outcome: Outcome) {}
}

const bind = (sql: string) =>
  sql.replace(/:([a-zA-Z]+)/g, (_, key: string) => `'${key === 'newId' ? randomUUID() : f[key as keyof Fixture]}'`);

/** Runs one statement as the actor in a transaction that is always rolled back; classifies the result. */
async function attempt(actor: Actor, sql: string): Promise<Outcome> {
  const run = async (tx: Tx): Promise<never> => {
    let outcome: Outcome;
    try {
      const res = await tx.query(bind(sql));
      const count = res.command === 'SELECT' ? Number(res.rows[0].n) : (res.rowCount ?? 0);
      outcome = count > 0 ? 'allowed' : 'hidden';
    } catch (err) {
      const { code, message } = err as { code?: string; message: string };
      if (code === '42501') outcome = 'denied';
      else if (code?.startsWith('PT')) outcome = `rule:${message}`;
      else throw err;
    }
    throw new Rollback(outcome);
  };
  const actorId = { creator: f.creatorB, brand: f.brandB, admin: f.admin }[actor as Exclude<Actor, 'anon'>];
  try {
    if (actor === 'anon') {
      await db.asService(async (tx) => {
        await tx.query(`select set_config('role', 'anon', true)`);
        return run(tx);
      });
    } else {
      await db.asUser({ sub: actorId, role: 'authenticated' }, run);
    }
  } catch (err) {
    if (err instanceof Rollback) return err.outcome;
    throw err;
  }
  throw new Error('unreachable');
}

beforeAll(async () => {
  const database = await createTestDatabase();
  drop = database.drop;
  db = createDatabase(database.url);
  const [creatorA, brandA, creatorB, brandB, admin] = await Promise.all([
    makeUser(db, 'creator'),
    makeUser(db, 'brand'),
    makeUser(db, 'creator'),
    makeUser(db, 'brand'),
    makeUser(db, 'admin'),
  ]);
  const id = () => randomUUID();
  f = {
    creatorA,
    brandA,
    creatorB,
    brandB,
    admin,
    deal: id(),
    completedDeal: id(),
    application: id(),
    savedList: id(),
    draft: id(),
    notification: id(),
    conversation: id(),
    message: id(),
    ticket: id(),
    ticketMessage: id(),
    review: id(),
    xpLog: '',
    referral: id(),
    badge: id(),
    reward: id(),
    proFeature: '',
    userProFeature: '',
    contact: id(),
  };
  // The server (table owner) builds the world, going through the same rules as anyone.
  const sql = `
    insert into public.deals (id, brand_id, title, description, amount_cents, niches) values
      (:deal, :brandA, 'In progress', 'Brief', 50000, '{Fitness}'), (:completedDeal, :brandA, 'Done', 'Brief', 80000, '{Travel}');
    insert into public.applications (id, deal_id, creator_id) values (:application, :deal, :creatorA), (gen_random_uuid(), :completedDeal, :creatorA);
    update public.applications set status = 'accepted' where creator_id = :creatorA;
    update public.deals set status = 'completed' where id = :completedDeal;
    insert into public.reviews (id, deal_id, reviewer_id, reviewee_id, rating) values (:review, :completedDeal, :brandA, :creatorA, 5);
    insert into public.billing_accounts (user_id, stripe_customer_id) values (:creatorA, 'cus_A');
    insert into public.saved_lists (id, user_id, kind, items) values (:savedList, :creatorA, 'saved_campaigns', '{a}');
    insert into public.drafts (id, user_id, kind, title) values (:draft, :creatorA, 'campaign_brief', 'Draft');
    insert into public.notifications (id, user_id, type, title) values (:notification, :creatorA, 'info', 'Hello');
    insert into public.conversations (id, user1_id, user2_id, title) values (:conversation, :brandA, :creatorA, 'Collab');
    insert into public.messages (id, conversation_id, sender_id, recipient_id, body) values (:message, :conversation, :brandA, :creatorA, 'Hi');
    insert into public.support_tickets (id, user_id, subject, message) values (:ticket, :creatorA, 'Help', 'Please');
    insert into public.support_messages (id, ticket_id, user_id, message) values (:ticketMessage, :ticket, :creatorA, 'More');
    insert into public.referrals (id, referrer_id, referred_user_id) values (:referral, :brandA, :creatorA);
    insert into public.referral_badges (id, user_id, badge_type) values (:badge, :brandA, 'bronze');
    insert into public.referral_rewards (id, referrer_id, referral_id, reward_type, amount_cents) values (:reward, :brandA, :referral, 'pro_subscription', 1000);
    select public.grant_pro_features(:creatorA, array['pro_deals'], interval '30 days');
    insert into public.contact_messages (id, name, email, subject, message, user_id) values (:contact, 'A', 'a@example.test', 'support', 'Hi', :creatorA);
  `;
  await db.asService((tx) => tx.query(bind(sql)));
  f.xpLog = (await asServer(db, `select id from public.xp_logs where user_id = $1 limit 1`, [creatorA])).rows[0].id;
  f.proFeature = (await asServer(db, `select id from public.pro_features where name = 'pro_deals'`)).rows[0].id;
  f.userProFeature = (
    await asServer(db, `select id from public.user_pro_features where user_id = $1`, [creatorA])
  ).rows[0].id;
});
afterAll(async () => {
  await db?.close();
  await drop?.();
});

describe("another user's rows", () => {
  for (const row of matrix) {
    for (const actor of ['anon', 'creator', 'brand', 'admin'] as const) {
      test(`${row.table} × ${actor}`, async () => {
        const key = row.table === 'billing_accounts' ? 'user_id' : 'id';
        const where = `where ${key} = :${row.row}`;
        const actual: Ops = {
          read: await attempt(actor, `select count(*) as n from public.${row.table} ${where}`),
          insert: await attempt(actor, row.insert),
          update: await attempt(actor, `update public.${row.table} set ${row.set} ${where}`),
          delete: await attempt(actor, `delete from public.${row.table} ${where}`),
        };
        expect(actual).toEqual(row.expected[actor]);
      });
    }
  }

  test('the matrix covers every table in public, and RLS is on for each', async () => {
    const { rows } = await asServer(
      db,
      `select c.relname, c.relrowsecurity from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = 'public' and c.relkind in ('r', 'p') order by 1`,
    );
    expect(rows.filter((r) => !r.relrowsecurity).map((r) => r.relname)).toEqual([]);
    const covered = new Set(matrix.map((r) => r.table));
    const known = rows.map((r) => r.relname as string).filter((name) => covered.has(name));
    expect(known.sort()).toEqual([...covered].sort());
  });

  test('anon holds no privilege on any table but INSERT on contact_messages', async () => {
    const { rows } = await asServer(
      db,
      `select table_name, privilege_type from information_schema.role_table_grants
      where grantee in ('anon', 'PUBLIC') and table_schema = 'public' order by 1, 2`,
    );
    expect(rows).toEqual([{ table_name: 'contact_messages', privilege_type: 'INSERT' }]);
  });
});

describe('functions', () => {
  const asCreator = (sql: string) => db.asUser({ sub: f.creatorB, role: 'authenticated' }, (tx) => tx.query(bind(sql)));
  const asAnon = (sql: string) =>
    db.asService(async (tx) => {
      await tx.query(`select set_config('role', 'anon', true)`);
      return tx.query(bind(sql));
    });

  test("clients cannot award XP, nor call the rules' internal helpers outside a trigger", async () => {
    await expect(asCreator(`select public.award_xp(:creatorB, 'FORGED', 10000)`)).rejects.toMatchObject({
      code: '42501',
    });
    await expect(asCreator(`select pacta_private.deal_for_rules(:deal)`)).rejects.toMatchObject({ code: '42501' });
    await expect(asCreator(`select pacta_private.ticket_for_rules(:ticket)`)).rejects.toMatchObject({ code: '42501' });
  });

  test('signed-out visitors call no function', async () => {
    for (const sql of [
      `select public.is_pro_user(:creatorA)`,
      `select public.is_admin()`,
      `select public.grant_pro_features(:creatorA, array['pro_deals'], interval '1 year')`,
    ]) {
      await expect(asAnon(sql)).rejects.toMatchObject({ code: '42501' });
    }
  });

  test('a signed-in user may ask whether someone is Pro (the Pro badge), and nothing more', async () => {
    expect((await asCreator(`select public.is_pro_user(:creatorA) as pro`)).rows[0].pro).toBe(true);
    await expect(
      asCreator(`select public.grant_pro_features(:creatorB, array['pro_deals'], interval '1 year')`),
    ).rejects.toMatchObject({ code: 'PT403' });
  });
});

describe('own rows and scope', () => {
  const as = (userId: string, sql: string) =>
    db.asUser({ sub: userId, role: 'authenticated' }, (tx) => tx.query(bind(sql)));
  const count = async (userId: string, sql: string) => Number((await as(userId, sql)).rows[0].n);

  test('owners read and update their private rows, and still cannot delete them', async () => {
    for (const [table, key, set] of [
      ['saved_lists', 'savedList', `items = '{a,b}'`],
      ['drafts', 'draft', `title = 'Mine'`],
      ['notifications', 'notification', `read_at = now()`],
      ['support_tickets', 'ticket', `status = 'open'`],
    ] as const) {
      expect(await count(f.creatorA, `select count(*) as n from public.${table} where id = :${key}`)).toBe(1);
      expect((await as(f.creatorA, `update public.${table} set ${set} where id = :${key}`)).rowCount).toBe(1);
      await expect(as(f.creatorA, `delete from public.${table} where id = :${key}`)).rejects.toMatchObject({
        code: '42501',
      });
    }
    expect(await count(f.creatorA, `select count(*) as n from public.billing_accounts where user_id = :creatorA`)).toBe(
      1,
    );
    expect(await count(f.creatorA, `select count(*) as n from public.xp_logs where id = :xpLog`)).toBe(1);
    expect(
      await count(f.creatorA, `select count(*) as n from public.user_pro_features where id = :userProFeature`),
    ).toBe(1);
  });

  test("a deal's applicant and its brand see the deal and the application; the brand sets its status", async () => {
    expect(await count(f.creatorA, `select count(*) as n from public.deals where id = :deal`)).toBe(1);
    expect(await count(f.brandA, `select count(*) as n from public.applications where id = :application`)).toBe(1);
    expect(await count(f.creatorA, `select count(*) as n from public.applications where id = :application`)).toBe(1);
    const res = await as(f.brandA, `update public.applications set status = 'rejected' where id = :application`);
    expect(res.rowCount).toBe(1);
  });

  test('both participants see the conversation and its messages', async () => {
    for (const who of [f.brandA, f.creatorA]) {
      expect(await count(who, `select count(*) as n from public.conversations where id = :conversation`)).toBe(1);
      expect(await count(who, `select count(*) as n from public.messages where id = :message`)).toBe(1);
    }
  });

  test('a referral is seen by the referrer and the referred user', async () => {
    expect(await count(f.brandA, `select count(*) as n from public.referrals where id = :referral`)).toBe(1);
    expect(await count(f.creatorA, `select count(*) as n from public.referrals where id = :referral`)).toBe(1);
  });

  test('open deals are visible to every signed-in user, Pro-only ones to Pro users only', async () => {
    const open = randomUUID();
    const proOnly = randomUUID();
    await db.asService((tx) =>
      tx.query(
        bind(`insert into public.deals (id, brand_id, title, description, amount_cents, niches, pro_only) values
        ('${open}', :brandA, 'Open', 'Brief', 1000, '{Food}', false), ('${proOnly}', :brandA, 'Pro', 'Brief', 1000, '{Food}', true)`),
      ),
    );
    for (const who of [f.creatorB, f.brandB, f.admin]) {
      expect(await count(who, `select count(*) as n from public.deals where id = '${open}'`)).toBe(1);
    }
    expect(await count(f.creatorB, `select count(*) as n from public.deals where id = '${proOnly}'`)).toBe(0);
    expect(await count(f.creatorA, `select count(*) as n from public.deals where id = '${proOnly}'`)).toBe(1); // granted pro_deals
    expect(await count(f.brandA, `select count(*) as n from public.deals where id = '${proOnly}'`)).toBe(1);
    expect(await count(f.admin, `select count(*) as n from public.deals where id = '${proOnly}'`)).toBe(1);
  });

  test('a signed-out visitor can send the contact form, and read nothing back', async () => {
    await db.asService(async (tx) => {
      await tx.query(`select set_config('role', 'anon', true)`);
      await tx.query(
        `insert into public.contact_messages (name, email, subject, message) values ('Sam', 'sam@example.test', 'general', 'Hello')`,
      );
      await expect(tx.query(`select count(*) from public.contact_messages`)).rejects.toMatchObject({ code: '42501' });
    });
  });
});
