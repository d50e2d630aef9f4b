import { afterAll, beforeAll, expect, test } from 'vitest';
import { SYNC_PROTOCOL_VERSION } from '../../src/domain/collections/index.ts';
import { postJson, startAuthTestServer, type AuthTestServer } from '../auth/auth-test-server.ts';
import { startTestServer, type TestServer, type TestUser } from '../support/test-server.ts';
import { insertDeals, newId } from '../sync/sync-harness.ts';

// "No existence oracle": a refusal to a user who may not see a row is indistinguishable from the row
// not existing — across sync pushes, /api and auth (no account enumeration either).

let server: TestServer;
let auth: AuthTestServer;
beforeAll(async () => {
  server = await startTestServer();
  // E-mail confirmation on, as in production: sign-up must not reveal registered addresses.
  auth = await startAuthTestServer({ env: { EMAIL_CONFIRMATION: 'on', AUTH_EMAIL_MIN_INTERVAL_SECONDS: '0' } });
});
afterAll(async () => {
  await server?.close();
  await auth?.close();
});

type Doc = Record<string, unknown> & { id: string };

async function push(user: TestUser, collection: string, doc: Doc): Promise<{ status: number; body: unknown }> {
  const res = await fetch(`${server.url}/sync/v1/${collection}/push`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      authorization: `Bearer ${user.accessToken}`,
      'x-pacta-protocol': String(SYNC_PROTOCOL_VERSION),
    },
    body: JSON.stringify({ rows: [{ newDocumentState: { _deleted: false, ...doc } }] }),
  });
  return { status: res.status, body: await res.json() };
}

/** The answer with the row's own ids blanked, so two refusals can be compared as a whole. */
function shapeOf(answer: { status: number; body: unknown }, ...ids: string[]): string {
  let text = JSON.stringify(answer);
  for (const id of ids) text = text.replaceAll(id, '<id>');
  return text;
}

test('sync pushes: naming a deal, conversation or ticket you may not see is refused exactly as a missing one', async () => {
  const brand = await server.createUser({ role: 'brand' });
  const otherBrand = await server.createUser({ role: 'brand' });
  const creator = await server.createUser({ role: 'creator' });
  const outsider = await server.createUser({ role: 'creator' });
  const [cancelled] = (await insertDeals(server.db, brand.id, 1)) as [string];
  await server.db.asService((tx) =>
    tx.query(`update public.deals set status = 'cancelled' where id = $1`, [cancelled]),
  );
  const conversation = newId();
  const ticket = newId();
  await server.db.asService(async (tx) => {
    await tx.query(`insert into public.conversations (id, user1_id, user2_id, title) values ($1, $2, $3, 'Private')`, [
      conversation,
      brand.id,
      creator.id,
    ]);
    await tx.query(
      `insert into public.support_tickets (id, user_id, subject, message) values ($1, $2, 'Private', 'Mine only')`,
      [ticket, creator.id],
    );
  });
  const missing = newId();

  const application = (dealId: string, id = newId()) => ({
    id,
    deal_id: dealId,
    creator_id: outsider.id,
    status: 'pending',
    pitch: 'Hello',
  });
  const [a1, a2] = [newId(), newId()];
  expect(shapeOf(await push(outsider, 'applications', application(cancelled, a1)), a1, cancelled)).toBe(
    shapeOf(await push(outsider, 'applications', application(missing, a2)), a2, missing),
  );
  expect((await push(outsider, 'applications', application(cancelled))).body).toMatchObject({
    conflicts: [{ sync_rejection: { code: 'deal_not_found' } }],
  });

  const message = (conversationId: string, id = newId()) => ({
    id,
    conversation_id: conversationId,
    sender_id: otherBrand.id,
    recipient_id: creator.id,
    body: 'Let me in',
  });
  const [m1, m2] = [newId(), newId()];
  const intoHidden = await push(otherBrand, 'messages', message(conversation, m1));
  expect(intoHidden.body).toMatchObject({ conflicts: [{ sync_rejection: { code: 'conversation_not_found' } }] });
  expect(shapeOf(intoHidden, m1, conversation)).toBe(
    shapeOf(await push(otherBrand, 'messages', message(missing, m2)), m2, missing),
  );

  const reply = (ticketId: string, id = newId()) => ({
    id,
    ticket_id: ticketId,
    user_id: outsider.id,
    message: 'Me too',
  });
  const [r1, r2] = [newId(), newId()];
  const intoHiddenTicket = await push(outsider, 'support_messages', reply(ticket, r1));
  expect(intoHiddenTicket.body).toMatchObject({ conflicts: [{ sync_rejection: { code: 'ticket_not_found' } }] });
  expect(shapeOf(intoHiddenTicket, r1, ticket)).toBe(
    shapeOf(await push(outsider, 'support_messages', reply(missing, r2)), r2, missing),
  );

  const { rows } = await server.db.pool.query(
    `select (select count(*) from public.applications where creator_id = $1) + (select count(*) from public.messages where sender_id = $2)
          + (select count(*) from public.support_messages where user_id = $1) as n`,
    [outsider.id, otherBrand.id],
  );
  expect(Number(rows[0].n)).toBe(0);
});

test('sync pushes: a new document whose id a hidden row already has is refused per row as not_found, like anything else you may not see', async () => {
  const owner = await server.createUser({ role: 'creator' });
  const outsider = await server.createUser({ role: 'creator' });
  const hidden = newId();
  await server.db.asService((tx) =>
    tx.query(`insert into public.drafts (id, user_id, kind, title) values ($1, $2, 'deal', 'Secret plan')`, [
      hidden,
      owner.id,
    ]),
  );
  const draft = (id: string) => ({
    id,
    user_id: outsider.id,
    kind: 'deal',
    title: 'My plan',
    payload: {},
    _deleted: false,
  });
  const fresh = newId();
  const res = await fetch(`${server.url}/sync/v1/drafts/push`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      authorization: `Bearer ${outsider.accessToken}`,
      'x-pacta-protocol': String(SYNC_PROTOCOL_VERSION),
    },
    body: JSON.stringify({ rows: [{ newDocumentState: draft(hidden) }, { newDocumentState: draft(fresh) }] }),
  });
  const body = (await res.json()) as { conflicts: Doc[] };

  // The same answer as naming a deal that does not exist: 200, the sender's own document flagged.
  expect(res.status).toBe(200);
  expect(body.conflicts).toEqual([
    { ...draft(hidden), sync_rejection: { code: 'not_found', message: expect.any(String) } },
  ]);
  const missingDeal = await push(outsider, 'applications', {
    id: newId(),
    deal_id: newId(),
    creator_id: outsider.id,
    status: 'pending',
    pitch: 'Hello',
  });
  expect(missingDeal.status).toBe(res.status);
  expect(Object.keys((missingDeal.body as { conflicts: Doc[] }).conflicts[0]!.sync_rejection as object)).toEqual([
    'code',
    'message',
  ]);
  // Nothing of the hidden row is told, it is untouched, and the rest of the batch is written.
  expect(JSON.stringify(body)).not.toMatch(/Secret plan|${owner.id}/);
  const { rows } = await server.db.pool.query(
    `select id, user_id, title from public.drafts where id = any($1::uuid[]) order by title`,
    [[hidden, fresh]],
  );
  expect(rows).toEqual([
    { id: fresh, user_id: outsider.id, title: 'My plan' },
    { id: hidden, user_id: owner.id, title: 'Secret plan' },
  ]);
});

test('/api: a deal you may not see answers exactly as a missing one; no token is 401 before anything else', async () => {
  const brand = await server.createUser({ role: 'brand' });
  const creator = await server.createUser({ role: 'creator' });
  const [draftLike] = (await insertDeals(server.db, brand.id, 1)) as [string];
  await server.db.asService((tx) =>
    tx.query(`update public.deals set status = 'cancelled' where id = $1`, [draftLike]),
  );
  const missing = newId();
  const ask = async (id: string, user?: TestUser) => {
    const res = await fetch(`${server.url}/api/deals/${id}/access`, {
      headers: user ? { authorization: `Bearer ${user.accessToken}` } : {},
    });
    return { status: res.status, body: await res.json() };
  };
  expect(shapeOf(await ask(draftLike, creator), draftLike)).toBe(shapeOf(await ask(missing, creator), missing));
  // A missing deal is an answer, not a failed request (no error in a visitor's console): 200 not_found, the same for both.
  expect(await ask(missing, creator)).toEqual({ status: 200, body: { access: 'not_found' } });
  for (const id of [draftLike, missing, 'not-a-uuid'])
    expect(await ask(id)).toMatchObject({ status: 401, body: { code: 'no_authorization' } });
});

test('auth: sign-up, sign-in, password recovery and resend answer a registered address as an unknown one', async () => {
  const registered = `known-${newId().slice(0, 8)}@example.test`;
  const unknown = `nobody-${newId().slice(0, 8)}@example.test`;
  const password = 'correct-horse-battery';
  const first = await postJson(`${auth.url}/auth/v1/signup`, {
    email: registered,
    password,
    data: { role: 'creator', full_name: 'Known' },
  });
  expect(first.status).toBe(200);
  await auth.db.pool.query(`update auth.users set email_confirmed_at = now() where email = $1`, [registered]);

  const userShape = (body: Record<string, unknown>) => ({
    keys: Object.keys(body).sort(),
    identities: body.identities,
    email: typeof body.email,
  });
  const again = await postJson(`${auth.url}/auth/v1/signup`, {
    email: registered,
    password,
    data: { role: 'creator', full_name: 'Again' },
  });
  const fresh = await postJson(`${auth.url}/auth/v1/signup`, {
    email: unknown,
    password,
    data: { role: 'creator', full_name: 'New' },
  });
  expect(again.status).toBe(fresh.status);
  expect(Object.keys(again.body).sort()).toEqual(Object.keys(fresh.body).sort());
  expect(userShape(again.body).email).toBe(userShape(fresh.body).email);

  const wrong = await postJson(`${auth.url}/auth/v1/token?grant_type=password`, {
    email: registered,
    password: 'wrong-password-1',
  });
  const nobody = await postJson(`${auth.url}/auth/v1/token?grant_type=password`, {
    email: `x-${unknown}`,
    password: 'wrong-password-1',
  });
  expect({ status: wrong.status, body: wrong.body }).toEqual({ status: nobody.status, body: nobody.body });

  for (const path of ['/auth/v1/recover']) {
    const known = await postJson(`${auth.url}${path}`, { email: registered });
    const other = await postJson(`${auth.url}${path}`, { email: `y-${unknown}` });
    expect({ status: known.status, body: known.body }).toEqual({ status: other.status, body: other.body });
  }
  const resendKnown = await postJson(`${auth.url}/auth/v1/resend`, { type: 'signup', email: registered });
  const resendOther = await postJson(`${auth.url}/auth/v1/resend`, { type: 'signup', email: `z-${unknown}` });
  expect({ status: resendKnown.status, body: resendKnown.body }).toEqual({
    status: resendOther.status,
    body: resendOther.body,
  });
});
