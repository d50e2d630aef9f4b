import { expect, test } from 'vitest';
import { SYNC_PROTOCOL_VERSION } from '../../src/domain/collections/index.ts';
import { conversationIdFor } from '../../src/domain/conversation-id.ts';
import type { TestUser } from '../support/test-server.ts';
import { insertDeals, newId } from './sync-harness.ts';
import { syncTestFixture } from './sync-fixture.ts';

// The conversation rules of 20261123000200_conversations.sql, through the sync server's push and pull
// as the signed-in users (the path every device takes).

const sync = syncTestFixture();

type Doc = Record<string, unknown> & { id: string; _deleted: boolean };

async function pushRaw(
  user: TestUser,
  collection: string,
  rows: { newDocumentState: Doc; assumedMasterState?: Doc }[],
) {
  return fetch(`${sync.server.url}/sync/v1/${collection}/push`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      authorization: `Bearer ${user.accessToken}`,
      'x-pacta-protocol': String(SYNC_PROTOCOL_VERSION),
    },
    body: JSON.stringify({ rows }),
  });
}

async function push(user: TestUser, collection: string, rows: { newDocumentState: Doc; assumedMasterState?: Doc }[]) {
  const res = await pushRaw(user, collection, rows);
  expect(res.status).toBe(200);
  return ((await res.json()) as { conflicts: Doc[] }).conflicts;
}

const server = (sql: string, params: unknown[] = []) => sync.server.db.pool.query(sql, params);

function conversation(a: TestUser, b: TestUser, dealId: string | null = null): Doc {
  return {
    id: conversationIdFor(a.id, b.id, dealId),
    user1_id: a.id,
    user2_id: b.id,
    deal_id: dealId,
    title: '',
    _deleted: false,
  };
}

function message(conversationId: string, from: TestUser, to: TestUser, body: string): Doc {
  return {
    id: newId(),
    conversation_id: conversationId,
    sender_id: from.id,
    recipient_id: to.id,
    body,
    _deleted: false,
  };
}

async function pair() {
  const brand = await sync.server.createUser({ role: 'brand', fullName: 'Acme Studio' });
  const creator = await sync.server.createUser({ role: 'creator', fullName: 'Casey Creator' });
  const [dealId] = (await insertDeals(sync.server.db, brand.id, 1)) as [string];
  const conv = conversation(creator, brand, dealId);
  expect(await push(creator, 'conversations', [{ newDocumentState: conv }])).toEqual([]);
  return { brand, creator, dealId, conv };
}

test('only the two participants read or write a conversation', async () => {
  const { brand, creator, conv } = await pair();
  const outsider = await sync.server.createUser({ role: 'creator' });
  await push(creator, 'messages', [{ newDocumentState: message(conv.id, creator, brand, 'Hello!') }]);

  // The outsider's pulls never see the conversation or its messages.
  for (const collection of ['conversations', 'messages']) {
    const res = await fetch(`${sync.server.url}/sync/v1/${collection}/pull?limit=100`, {
      headers: { authorization: `Bearer ${outsider.accessToken}`, 'x-pacta-protocol': String(SYNC_PROTOCOL_VERSION) },
    });
    const { documents } = (await res.json()) as { documents: Doc[] };
    expect(documents.filter((d) => d.id === conv.id || d.conversation_id === conv.id)).toEqual([]);
  }
  // Writing into it as oneself: a conversation the outsider may not see is refused exactly as a missing
  // one (no existence oracle), nothing written.
  const intruding = message(conv.id, outsider, brand, 'Let me in');
  const [refused] = await push(outsider, 'messages', [{ newDocumentState: intruding }]);
  expect(refused?.sync_rejection).toEqual({ code: 'conversation_not_found', message: 'Conversation not found.' });
  // Starting a conversation between two other people: the refusal is about the outsider's own new row,
  // which reveals nothing, so it keeps its reason.
  const [notMine] = await push(outsider, 'conversations', [{ newDocumentState: conversation(brand, creator) }]);
  expect(notMine?.sync_rejection).toMatchObject({ code: 'not_a_participant' });
  const { rows } = await server('select count(*)::int as n from public.messages where conversation_id = $1', [conv.id]);
  expect(rows[0].n).toBe(1);
});

test('a forged sender is refused: the sender is always the signed-in user', async () => {
  const { brand, creator, conv } = await pair();
  const forged = message(conv.id, brand, creator, 'I am the brand, honest');
  const [refused] = await push(creator, 'messages', [{ newDocumentState: forged }]);
  expect(refused?.sync_rejection).toEqual({
    code: 'not_your_message',
    message: 'You can only send messages as yourself.',
  });
  const { rows } = await server('select count(*)::int as n from public.messages where id = $1', [forged.id]);
  expect(rows[0].n).toBe(0);
});

test('a message body over 4,000 characters or blank is refused with a clear reason', async () => {
  const { brand, creator, conv } = await pair();
  const [long] = await push(creator, 'messages', [
    { newDocumentState: message(conv.id, creator, brand, 'x'.repeat(4001)) },
  ]);
  expect(long?.sync_rejection).toEqual({
    code: 'message_too_long',
    message: 'A message can be at most 4,000 characters (this one has 4,001).',
  });
  const [blank] = await push(creator, 'messages', [{ newDocumentState: message(conv.id, creator, brand, '   \n ') }]);
  expect(blank?.sync_rejection).toEqual({ code: 'empty_message', message: 'Type a message before sending.' });
  expect(
    await push(creator, 'messages', [{ newDocumentState: message(conv.id, creator, brand, 'y'.repeat(4000)) }]),
  ).toEqual([]);
});

test('a duplicate send lands once, with one sequence number and one notification', async () => {
  const { brand, creator, conv } = await pair();
  const first = message(conv.id, creator, brand, 'Are the samples shipped?');
  expect(await push(creator, 'messages', [{ newDocumentState: first }])).toEqual([]);
  // The answer was lost; the device sends the same message again (even claiming a sequence of its own).
  expect(await push(creator, 'messages', [{ newDocumentState: { ...first, seq: 99 } }])).toEqual([]);
  expect(
    await push(creator, 'messages', [
      { newDocumentState: first },
      { newDocumentState: message(conv.id, creator, brand, 'Thanks!') },
    ]),
  ).toEqual([]);
  const { rows } = await server(
    'select id, seq, version from public.messages where conversation_id = $1 order by seq',
    [conv.id],
  );
  expect(rows).toEqual([
    { id: first.id, seq: 1, version: 1 },
    { id: expect.any(String), seq: 2, version: 1 },
  ]);
  const notes = await server(
    `select title, message, data from public.notifications where user_id = $1 and type = 'new_message'`,
    [brand.id],
  );
  // Collapsed per conversation while unread.
  expect(notes.rows).toEqual([
    {
      title: '2 new messages from Casey Creator',
      message: 'Thanks!',
      data: expect.objectContaining({ conversation_id: conv.id, count: 2, link: `/inbox/${conv.id}` }),
    },
  ]);
});

test('concurrent sends from both sides get one gapless sequence, in each sender’s order', async () => {
  const { brand, creator, conv } = await pair();
  const fromCreator = Array.from({ length: 12 }, (_, i) => message(conv.id, creator, brand, `creator ${i}`));
  const fromBrand = Array.from({ length: 12 }, (_, i) => message(conv.id, brand, creator, `brand ${i}`));
  // Each side sends one message per request, in order; both sides at once.
  const sendAll = async (user: TestUser, messages: Doc[]) => {
    for (const m of messages) expect(await push(user, 'messages', [{ newDocumentState: m }])).toEqual([]);
  };
  await Promise.all([sendAll(creator, fromCreator), sendAll(brand, fromBrand)]);

  const { rows } = await server('select body, seq from public.messages where conversation_id = $1 order by seq', [
    conv.id,
  ]);
  expect(rows.map((r) => r.seq)).toEqual(Array.from({ length: 24 }, (_, i) => i + 1));
  const order = rows.map((r) => r.body as string);
  expect(order.filter((b) => b.startsWith('creator'))).toEqual(fromCreator.map((m) => m.body));
  expect(order.filter((b) => b.startsWith('brand'))).toEqual(fromBrand.map((m) => m.body));
  const conv2 = await server('select last_seq, last_message from public.conversations where id = $1', [conv.id]);
  expect(conv2.rows[0]).toEqual({ last_seq: 24, last_message: order[23] });
});

test('read state never goes backwards, and reading to the end reads the message notification', async () => {
  const { brand, creator, conv } = await pair();
  for (const body of ['one', 'two', 'three'])
    await push(creator, 'messages', [{ newDocumentState: message(conv.id, creator, brand, body) }]);
  const pull = async () => (await server('select * from public.conversations where id = $1', [conv.id])).rows[0];
  const master = async (): Promise<Doc> => {
    const c = await pull();
    return {
      ...conv,
      user1_id: c.user1_id,
      user2_id: c.user2_id,
      user1_read_seq: c.user1_read_seq,
      user2_read_seq: c.user2_read_seq,
    };
  };
  // The brand is user2; the creator (who sent all three) has read up to 3.
  expect(await pull()).toMatchObject({ user1_read_seq: 3, user2_read_seq: 0, last_seq: 3 });

  // The brand's phone reads everything.
  const base = await master();
  expect(
    await push(brand, 'conversations', [
      { newDocumentState: { ...base, user2_read_seq: 3 }, assumedMasterState: base },
    ]),
  ).toEqual([]);
  expect(await pull()).toMatchObject({ user2_read_seq: 3 });
  const note = await server(`select read_at from public.notifications where user_id = $1 and type = 'new_message'`, [
    brand.id,
  ]);
  expect(note.rows[0].read_at).not.toBeNull();

  // Then the brand's laptop, offline since it had read only the first message, pushes its older position.
  const now = await master();
  expect(
    await push(brand, 'conversations', [{ newDocumentState: { ...now, user2_read_seq: 1 }, assumedMasterState: now }]),
  ).toEqual([]);
  expect(await pull()).toMatchObject({ user2_read_seq: 3 });
  // A position past the last message is held to it.
  const again = await master();
  expect(
    await push(brand, 'conversations', [
      { newDocumentState: { ...again, user2_read_seq: 50 }, assumedMasterState: again },
    ]),
  ).toEqual([]);
  expect(await pull()).toMatchObject({ user2_read_seq: 3 });
  // Nor does anyone's copy move the other member's read state back.
  expect(
    await push(brand, 'conversations', [
      { newDocumentState: { ...again, user1_read_seq: 0 }, assumedMasterState: again },
    ]),
  ).toEqual([]);
  expect(await pull()).toMatchObject({ user1_read_seq: 3 });
});

test('both sides starting the same conversation offline end up with one conversation', async () => {
  const brand = await sync.server.createUser({ role: 'brand' });
  const creator = await sync.server.createUser({ role: 'creator' });
  const [dealId] = (await insertDeals(sync.server.db, brand.id, 1)) as [string];
  const fromCreator = { ...conversation(creator, brand, dealId), title: 'From the creator' };
  const fromBrand = { ...conversation(brand, creator, dealId), title: 'From the brand' };
  expect(fromBrand.id).toBe(fromCreator.id);
  expect(await push(creator, 'conversations', [{ newDocumentState: fromCreator }])).toEqual([]);
  // The brand's copy meets the creator's: the server's copy comes back, nothing is duplicated.
  const [master] = await push(brand, 'conversations', [{ newDocumentState: fromBrand }]);
  expect(master).toMatchObject({ id: fromCreator.id, title: 'From the creator' });
  expect(
    await push(brand, 'messages', [{ newDocumentState: message(fromBrand.id, brand, creator, 'Hi from the brand') }]),
  ).toEqual([]);
  expect(
    await push(creator, 'messages', [
      { newDocumentState: message(fromCreator.id, creator, brand, 'Hi from the creator') },
    ]),
  ).toEqual([]);
  const { rows } = await server(
    `select c.id, count(m.id)::int as messages from public.conversations c left join public.messages m on m.conversation_id = c.id
      where $1 in (c.user1_id, c.user2_id) group by c.id`,
    [creator.id],
  );
  expect(rows).toEqual([{ id: fromCreator.id, messages: 2 }]);
  // An id that does not derive from the pair and deal is refused rather than duplicating the pair.
  const [stray] = await push(creator, 'conversations', [{ newDocumentState: { ...fromCreator, id: newId() } }]);
  expect(stray?.sync_rejection).toMatchObject({ code: 'conversation_id_mismatch' });
});

test('the application notifications: a new one to the brand, accepted or rejected to the creator', async () => {
  const brand = await sync.server.createUser({ role: 'brand' });
  const creator = await sync.server.createUser({ role: 'creator', fullName: 'Robin Reel' });
  const [dealId] = (await insertDeals(sync.server.db, brand.id, 1)) as [string];
  const application = {
    id: newId(),
    deal_id: dealId,
    creator_id: creator.id,
    status: 'pending',
    pitch: 'Me!',
    _deleted: false,
  };
  expect(await push(creator, 'applications', [{ newDocumentState: application }])).toEqual([]);
  const toBrand = await server(`select type, title, data from public.notifications where user_id = $1`, [brand.id]);
  expect(toBrand.rows).toEqual([
    { type: 'new_application', title: 'New application', data: { deal_id: dealId, application_id: application.id } },
  ]);
  const { rows } = await server(`select * from public.applications where id = $1`, [application.id]);
  const assumed = { ...application, status: rows[0].status, pitch: rows[0].pitch };
  expect(
    await push(brand, 'applications', [
      { newDocumentState: { ...assumed, status: 'accepted' }, assumedMasterState: assumed },
    ]),
  ).toEqual([]);
  const toCreator = await server(`select type, title from public.notifications where user_id = $1`, [creator.id]);
  expect(toCreator.rows).toEqual([{ type: 'application_accepted', title: 'Application accepted' }]);
});
