import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { createClient } from '@supabase/supabase-js';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { objectPath } from '../../src/domain/files.ts';
import { conversationIdFor } from '../../src/domain/conversation-id.ts';
import { hashPassword } from '../../sync-server/auth/passwords.ts';
import { getAccountExport } from '../../src/domain/contracts/account.ts';
import { apply, asUser, makeDeal } from '../support/rules-fixtures.ts';
import { startTestServer, type TestServer, type TestUser } from '../support/test-server.ts';

class NoRealtime {
  constructor() {
    throw new Error('Realtime is not used here');
  }
}

let server: TestServer;
let dataDir: string;

beforeAll(async () => {
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'pacta-account-'));
  server = await startTestServer({ env: { DATA_DIR: dataDir } });
});

afterAll(async () => {
  await server?.close();
  await fs.rm(dataDir, { recursive: true, force: true });
});

async function call(user: TestUser | undefined, method: 'GET' | 'POST', url: string, body?: unknown) {
  const res = await fetch(`${server.url}${url}`, {
    method,
    headers: {
      ...(user ? { authorization: `Bearer ${user.accessToken}` } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, unknown> };
}

const query = async <T = Record<string, unknown>>(sql: string, params: unknown[] = []) =>
  (await server.db.pool.query(sql, params)).rows as T[];

/** A conversation between two people with one message from each (written as they would, under RLS). */
async function converse(a: TestUser, b: TestUser): Promise<string> {
  const id = conversationIdFor(a.id, b.id, null);
  await asUser(server.db, a.id, `insert into public.conversations (id, user1_id, user2_id) values ($1, $2, $3)`, [
    id,
    a.id,
    b.id,
  ]);
  await asUser(
    server.db,
    a.id,
    `insert into public.messages (id, conversation_id, sender_id, recipient_id, body) values ($1, $2, $3, $4, 'Hello from A')`,
    [randomUUID(), id, a.id, b.id],
  );
  await asUser(
    server.db,
    b.id,
    `insert into public.messages (id, conversation_id, sender_id, recipient_id, body) values ($1, $2, $3, $4, 'Hi from B')`,
    [randomUUID(), id, b.id, a.id],
  );
  return id;
}

/** Puts a deal in the state a funded one with a creator at work is in (money held in escrow). */
async function fundedInProgress(brand: TestUser, creator: TestUser): Promise<string> {
  const dealId = await makeDeal(server.db, brand.id);
  const applicationId = await apply(server.db, creator.id, dealId);
  await server.db.asService(async (tx) => {
    await tx.query(`update public.applications set status = 'accepted' where id = $1`, [applicationId]);
    await tx.query(
      `insert into public.deal_escrows (deal_id, brand_id, amount_cents, service_fee_cents, charge_id, funded_at, creator_id)
       values ($1, $2, 50000, 2500, $3, now(), $4)`,
      [dealId, brand.id, `ch_${randomUUID()}`, creator.id],
    );
    await tx.query(
      `insert into public.ledger_entries (deal_id, user_id, kind, amount_cents, stripe_ref) values ($1, $2, 'charge', 52500, $3)`,
      [dealId, brand.id, `ch_${dealId}`],
    );
    await tx.query(`update public.deals set status = 'in_progress', escrow_status = 'pending' where id = $1`, [dealId]);
  });
  return dealId;
}

describe('export my data', () => {
  test('is a JSON download of what the person owns or is a party to, and nothing of anyone else', async () => {
    const brand = await server.createUser({ role: 'brand' });
    const creator = await server.createUser({ role: 'creator' });
    const stranger = await server.createUser({ role: 'creator' });
    const dealId = await fundedInProgress(brand, creator);
    const conversationId = await converse(creator, brand);
    await converse(stranger, brand);

    const res = await call(creator, 'GET', '/api/account/export');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toMatch(
      /^attachment; filename="pacta-data-\d{4}-\d{2}-\d{2}\.json"$/,
    );
    const data = getAccountExport.response[200].parse(res.body);
    expect(data.account).toMatchObject({ id: creator.id, email: creator.email });
    expect(data.profile).toMatchObject({ id: creator.id });
    expect(data.deals.map((d) => d.id)).toEqual([dealId]);
    expect(data.applications.map((a) => a.creator_id)).toEqual([creator.id]);
    expect(data.conversations.map((c) => c.id)).toEqual([conversationId]);
    expect(data.messages.map((m) => m.body).sort()).toEqual(['Hello from A', 'Hi from B']);
    expect(data.payments.escrows).toEqual([expect.objectContaining({ deal_id: dealId, amount_cents: 50000 })]);
    expect(data.payments.ledger).toEqual([expect.objectContaining({ deal_id: dealId, kind: 'charge', yours: false })]);
    // Nothing of the stranger's conversation with the same brand.
    expect(JSON.stringify(data)).not.toContain(stranger.id);
    // Stripe's own ids stay with staff.
    expect(JSON.stringify(data.payments)).not.toMatch(/ch_/);
  });

  test('needs a signed-in caller and is limited to a few downloads an hour', async () => {
    expect((await call(undefined, 'GET', '/api/account/export')).status).toBe(401);
    const user = await server.createUser({ role: 'creator' });
    for (let i = 0; i < 5; i++) expect((await call(user, 'GET', '/api/account/export')).status).toBe(200);
    const sixth = await call(user, 'GET', '/api/account/export');
    expect(sixth).toMatchObject({ status: 429, body: { code: 'export_rate_limited', message: expect.any(String) } });
  });
});

describe('delete my account', () => {
  test('is refused, saying why, while money is in escrow and a deal is in progress; nothing is written', async () => {
    const brand = await server.createUser({ role: 'brand' });
    const creator = await server.createUser({ role: 'creator' });
    await fundedInProgress(brand, creator);
    for (const user of [brand, creator]) {
      expect(await call(user, 'GET', '/api/account/deletion')).toMatchObject({
        status: 200,
        body: { blockers: ['deal_in_progress', 'money_in_escrow'] },
      });
      const refused = await call(user, 'POST', '/api/account/delete', { confirmation: 'DELETE' });
      expect(refused).toMatchObject({
        status: 409,
        body: { code: 'deal_in_progress', blockers: ['deal_in_progress', 'money_in_escrow'] },
      });
      expect(await query(`select full_name, deleted from public.profiles where id = $1`, [user.id])).toEqual([
        { full_name: expect.stringMatching(/^Test /), deleted: false },
      ]);
      // Still signed in.
      expect((await call(user, 'GET', '/api/account/deletion')).status).toBe(200);
    }
  });

  test('needs the word typed and the password of an account that has one', async () => {
    const user = await server.createUser({ role: 'creator' });
    await query(`update auth.users set encrypted_password = $2 where id = $1`, [
      user.id,
      await hashPassword('right-horse-battery'),
    ]);
    expect((await call(user, 'GET', '/api/account/deletion')).body).toEqual({ blockers: [], needs_password: true });
    expect(await call(user, 'POST', '/api/account/delete', { confirmation: 'delete me' })).toMatchObject({
      status: 400,
      body: { code: 'confirmation_required' },
    });
    expect(
      await call(user, 'POST', '/api/account/delete', { confirmation: 'DELETE', password: 'wrong-horse' }),
    ).toMatchObject({ status: 400, body: { code: 'current_password_invalid' } });
    expect(await query(`select deleted from public.profiles where id = $1`, [user.id])).toEqual([{ deleted: false }]);
    const done = await call(user, 'POST', '/api/account/delete', {
      confirmation: 'DELETE',
      password: 'right-horse-battery',
    });
    expect(done).toMatchObject({ status: 200, body: { deleted: true } });
  });

  test('removes personal data, files and sessions; keeps messages for the other party and every ledger row', async () => {
    const brand = await server.createUser({ role: 'brand' });
    const creator = await server.createUser({ role: 'creator', fullName: 'Casey Creator' });
    // A finished deal with its money released: the ledger keeps it.
    const doneDeal = await fundedInProgress(brand, creator);
    await server.db.asService((tx) =>
      tx.query(`update public.deals set status = 'completed', escrow_status = 'released' where id = $1`, [doneDeal]),
    );
    const ledgerBefore = await query(`select id, amount_cents from public.ledger_entries where deal_id = $1`, [
      doneDeal,
    ]);
    const openDeal = await makeDeal(server.db, brand.id);
    const pending = await apply(server.db, creator.id, openDeal);
    const conversationId = await converse(creator, brand);
    await query(`update public.profiles set bio = 'Runner', username = 'casey_runs' where id = $1`, [creator.id]);

    const storage = createClient(server.url, 'pacta-local-anon-key', {
      auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
      realtime: { transport: NoRealtime as never },
      accessToken: async () => creator.accessToken,
    }).storage;
    const png = await sharp({ create: { width: 16, height: 16, channels: 3, background: '#336699' } })
      .png()
      .toBuffer();
    const upload = await storage
      .from('avatars')
      .upload(objectPath(creator.id, randomUUID(), 'me.png'), png, { contentType: 'image/png' });
    expect(upload.error).toBeNull();
    const bytesDir = path.join(dataDir, 'storage', 'objects', 'avatars');
    expect((await fs.readdir(bytesDir)).length).toBeGreaterThan(0);

    const res = await call(creator, 'POST', '/api/account/delete', { confirmation: 'DELETE' });
    expect(res).toMatchObject({ status: 200, body: { deleted: true } });

    expect(
      await query(`select full_name, username, bio, deleted from public.profiles where id = $1`, [creator.id]),
    ).toEqual([{ full_name: 'Deleted user', username: null, bio: '', deleted: true }]);
    expect(
      await query(`select email, deleted_at is not null as gone from auth.users where id = $1`, [creator.id]),
    ).toEqual([{ email: null, gone: true }]);
    expect(await query(`select status from public.applications where id = $1`, [pending])).toEqual([
      { status: 'withdrawn' },
    ]);
    expect(await query(`select count(*)::int as n from storage.objects where owner_id = $1`, [creator.id])).toEqual([
      { n: 0 },
    ]);
    expect(await fs.readdir(bytesDir)).toEqual([]);
    // The session ended: the same token is refused.
    expect((await call(creator, 'GET', '/api/account/deletion')).status).toBe(401);
    // The brand still has the conversation, with both messages.
    const kept = await asUser(
      server.db,
      brand.id,
      `select body from public.messages where conversation_id = $1 order by body`,
      [conversationId],
    );
    expect(kept.rows.map((r) => r.body)).toEqual(['Hello from A', 'Hi from B']);
    expect(await query(`select id, amount_cents from public.ledger_entries where deal_id = $1`, [doneDeal])).toEqual(
      ledgerBefore,
    );
    // Nobody writes to a deleted account.
    const reply = asUser(
      server.db,
      brand.id,
      `insert into public.messages (id, conversation_id, sender_id, recipient_id, body) values ($1, $2, $3, $4, 'Still there?')`,
      [randomUUID(), conversationId, brand.id, creator.id],
    );
    await expect(reply).rejects.toMatchObject({ message: 'account_deleted' });
  });

  test('a brand deleting closes its open deals', async () => {
    const brand = await server.createUser({ role: 'brand' });
    const openDeal = await makeDeal(server.db, brand.id);
    expect((await call(brand, 'POST', '/api/account/delete', { confirmation: 'DELETE' })).status).toBe(200);
    expect(await query(`select status from public.deals where id = $1`, [openDeal])).toEqual([{ status: 'cancelled' }]);
  });
});

describe('report a person or a deal', () => {
  const tickets = (userId: string) =>
    query(`select kind, subject, message, deal_id from public.support_tickets where user_id = $1 and kind = 'report'`, [
      userId,
    ]);

  test('lands in the staff queue as a report ticket', async () => {
    const brand = await server.createUser({ role: 'brand', fullName: 'Shady Brand' });
    const creator = await server.createUser({ role: 'creator' });
    const dealId = await makeDeal(server.db, brand.id, { title: 'Too good to be true' });
    expect(
      await call(creator, 'POST', '/api/reports', {
        target: 'user',
        target_id: brand.id,
        reason: 'scam',
        details: 'Asked me to pay a fee',
      }),
    ).toEqual({ status: 202, headers: expect.anything(), body: { received: true } });
    expect(
      await call(creator, 'POST', '/api/reports', { target: 'deal', target_id: dealId, reason: 'spam' }),
    ).toMatchObject({ status: 202 });
    expect(await tickets(creator.id)).toEqual([
      {
        kind: 'report',
        subject: 'Report: Scam or fraud (Shady Brand)',
        message: expect.stringContaining('Asked me to pay a fee'),
        deal_id: null,
      },
      {
        kind: 'report',
        subject: 'Report: Spam (deal "Too good to be true")',
        message: expect.stringContaining(`/deals/${dealId}`),
        deal_id: dealId,
      },
    ]);
    const admin = await server.createUser({ role: 'admin' });
    const queue = await asUser(
      server.db,
      admin.id,
      `select count(*)::int as n from public.support_tickets where kind = 'report' and user_id = $1`,
      [creator.id],
    );
    expect(queue.rows[0].n).toBe(2);
  });

  test('answers the same for a target that does not exist or is hidden, and writes nothing then', async () => {
    const reporter = await server.createUser({ role: 'creator' });
    const otherBrand = await server.createUser({ role: 'brand' });
    const hidden = await makeDeal(server.db, otherBrand.id);
    await server.db.asService((tx) => tx.query(`update public.deals set deleted = true where id = $1`, [hidden]));
    const answers = [
      await call(reporter, 'POST', '/api/reports', { target: 'user', target_id: randomUUID(), reason: 'spam' }),
      await call(reporter, 'POST', '/api/reports', { target: 'deal', target_id: randomUUID(), reason: 'spam' }),
      await call(reporter, 'POST', '/api/reports', { target: 'deal', target_id: hidden, reason: 'spam' }),
      await call(reporter, 'POST', '/api/reports', { target: 'user', target_id: reporter.id, reason: 'spam' }),
    ];
    expect(answers.map((a) => [a.status, a.body])).toEqual(Array(4).fill([202, { received: true }]));
    expect(await tickets(reporter.id)).toEqual([]);
  });

  test('a client cannot write a report ticket itself, around the route', async () => {
    const user = await server.createUser({ role: 'creator' });
    const direct = asUser(
      server.db,
      user.id,
      `insert into public.support_tickets (id, user_id, subject, message, kind) values ($1, $2, 'x', 'y', 'report')`,
      [randomUUID(), user.id],
    );
    await expect(direct).rejects.toMatchObject({ message: 'report_from_api' });
  });

  test('is refused signed out, on bad input, and past 10 an hour', async () => {
    const user = await server.createUser({ role: 'creator' });
    const target = await server.createUser({ role: 'brand' });
    expect(
      (await call(undefined, 'POST', '/api/reports', { target: 'user', target_id: target.id, reason: 'spam' })).status,
    ).toBe(401);
    const bad = await call(user, 'POST', '/api/reports', { target: 'user', target_id: target.id, reason: 'boring' });
    expect(bad).toMatchObject({ status: 400, body: { code: 'validation_failed' } });
    for (let i = 0; i < 10; i++)
      expect(
        (await call(user, 'POST', '/api/reports', { target: 'user', target_id: randomUUID(), reason: 'spam' })).status,
      ).toBe(202);
    const over = await call(user, 'POST', '/api/reports', { target: 'user', target_id: target.id, reason: 'spam' });
    expect(over).toMatchObject({ status: 429, body: { code: 'report_rate_limited' } });
    expect(await tickets(user.id)).toEqual([]);
  });
});
