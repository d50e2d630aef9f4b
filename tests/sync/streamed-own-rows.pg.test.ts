import { expect, test } from 'vitest';
import {
  SYNC_PROTOCOL_HEADER,
  SYNC_PROTOCOL_VERSION,
  type PullResponse,
  type SyncCheckpoint,
} from '../../src/domain/collections/index.ts';
import { conversationIdFor } from '../../src/domain/conversation-id.ts';
import { readStreamEvent } from '../../src/domain/contracts/change-stream.ts';
import { sendMessage } from '../../src/features/inbox/data/inbox-operations.ts';
import { idleDownstream } from '../../src/db/sync/pull-scheduler.ts';
import type { TestUser } from '../support/test-server.ts';
import { syncTestFixture } from './sync-fixture.ts';
import { eventually, insertDeals, newId, openTestStream, type TestClient } from './sync-harness.ts';

// A user's own rows (here messages) travel in that user's change stream, read as that user: the other
// person's open conversation shows a message without a pull.

const sync = syncTestFixture();

type Message = { id: string; body: string; seq: number | null; conversation_id: string };

/** A deal of the brand's and the creator's conversation about it, written as the server. */
async function conversationBetween(creator: TestUser, brand: TestUser): Promise<string> {
  const [dealId] = (await insertDeals(sync.server.db, brand.id, 1)) as [string];
  const id = conversationIdFor(creator.id, brand.id, dealId);
  await sync.server.db.pool.query(
    `insert into public.conversations (id, user1_id, user2_id, deal_id, title) values ($1, $2, $3, $4, 'About the deal')`,
    [id, creator.id, brand.id, dealId],
  );
  return id;
}

/** A message written as the server (what another device's push commits). */
async function serverMessage(conversationId: string, from: TestUser, to: TestUser, body: string): Promise<string> {
  const id = newId();
  await sync.server.db.pool.query(
    `insert into public.messages (id, conversation_id, sender_id, recipient_id, body) values ($1, $2, $3, $4, $5)`,
    [id, conversationId, from.id, to.id, body],
  );
  return id;
}

async function pullMessages(user: TestUser, checkpoint: SyncCheckpoint | null): Promise<PullResponse<Message>> {
  const params = new URLSearchParams({ limit: '100' });
  if (checkpoint) params.set('checkpoint', JSON.stringify(checkpoint));
  const res = await fetch(`${sync.server.url}/sync/v1/messages/pull?${params}`, {
    headers: { authorization: `Bearer ${user.accessToken}`, [SYNC_PROTOCOL_HEADER]: String(SYNC_PROTOCOL_VERSION) },
  });
  expect(res.status).toBe(200);
  return (await res.json()) as PullResponse<Message>;
}

/** A pull as a device settles it: a page held back behind another open transaction is asked for again. */
async function settledPull(user: TestUser, checkpoint: SyncCheckpoint | null): Promise<PullResponse<Message>> {
  return eventually(async () => {
    const page = await pullMessages(user, checkpoint);
    return !page.pending && page;
  });
}

/** A change stream read as the app of this version reads it (rows may come in it). */
async function rowsStream(user: TestUser) {
  const s = await openTestStream(sync.server.url, user.accessToken, String(SYNC_PROTOCOL_VERSION));
  await eventually(() => s.events.some((e) => e.event === 'hello'));
  return {
    ...s,
    rows: () =>
      s.events
        .filter((e) => e.event === 'rows')
        .map((e) => readStreamEvent('rows', e.data)!)
        .filter((r) => r.collection === 'messages'),
    notices: () => s.changes().filter((c) => c === 'messages').length,
  };
}

/**
 * Writes messages until the stream carries them as rows; returns that event and the ids written. A read
 * held back behind another open transaction (other tests share the database server) goes out as a notice,
 * as the devices then pull; the next write's rows then start from the same place, with every id written.
 */
async function streamedWrites(stream: Awaited<ReturnType<typeof rowsStream>>, write: () => Promise<string>) {
  const ids: string[] = [];
  for (let attempt = 1; attempt <= 5; attempt++) {
    const [rowsBefore, noticesBefore] = [stream.rows().length, stream.notices()];
    ids.push(await write());
    const rows = await eventually(() =>
      stream.rows().length > rowsBefore ? stream.rows()[rowsBefore]! : stream.notices() > noticesBefore && 'notice',
    );
    if (rows !== 'notice') return { rows, ids };
  }
  throw new Error('five reads in a row were held back');
}

const messagePulls = (c: TestClient) =>
  c.network.calls.filter((call) => call.url.includes('/sync/v1/messages/pull')).length;
const streamedPages = (c: TestClient) =>
  c.replication.states.get('messages')!.internalReplicationState!.stats.down.downstreamProcessChanges;
const held = async (c: TestClient, id: string) => (await c.db.messages.findOne(id).exec())?.toJSON();

test('a message reaches the other person’s open device through the stream, with no pull', async () => {
  const brand = await sync.server.createUser({ role: 'brand' });
  const creator = await sync.server.createUser({ role: 'creator' });
  const conversationId = await conversationBetween(creator, brand);
  const [sender, receiver] = [
    await sync.client(creator, ['conversations', 'messages']),
    await sync.client(brand, ['conversations', 'messages']),
  ];
  for (const d of [sender, receiver]) await d.replication.awaitInitialSync();
  await eventually(() => [sender, receiver].every((d) => d.replication.syncStatus.streaming));
  const conversation = await eventually(async () => (await sender.db.conversations.findOne(conversationId).exec())!);

  // The first message may come by a notice and a pull: that pull tells the server where the device stands.
  await sendMessage(sender.db, conversation, creator.id, 'Hello there');
  await eventually(async () => (await receiver.db.messages.find().exec()).length === 1);
  await receiver.replication.awaitInSync();
  await eventually(() => idleDownstream(receiver.replication.states.get('messages')));

  // Later ones come as rows. A read held back behind another open transaction (other tests share the
  // database server) goes out as a notice and the device pulls, so messages go until one needs no pull.
  let arrived: Message | undefined;
  for (let attempt = 1; !arrived && attempt <= 5; attempt++) {
    const pullsBefore = messagePulls(receiver);
    const streamedBefore = streamedPages(receiver);
    const body = `Shooting on Saturday (${attempt})`;
    await sendMessage(sender.db, conversation, creator.id, body);
    const message = await eventually(async () =>
      (await receiver.db.messages.find().exec()).find((m) => m.body === body)?.toJSON(),
    );
    if (messagePulls(receiver) === pullsBefore) {
      expect(streamedPages(receiver)).toBeGreaterThan(streamedBefore);
      arrived = message;
    }
    await receiver.replication.awaitInSync();
    await eventually(() => idleDownstream(receiver.replication.states.get('messages')));
  }
  expect(arrived?.seq).toBeGreaterThan(1);

  // The sender's own copy gets its sequence number the same way.
  await eventually(async () => (await held(sender, arrived!.id))?.seq === arrived!.seq);
  // And a reply comes back to the sender.
  const reply = await serverMessage(conversationId, brand, creator, 'Saturday works');
  await eventually(async () => (await held(sender, reply))?.seq === arrived!.seq! + 1);
  for (const d of [sender, receiver]) await sync.closeClient(d);
});

test('a user’s stream carries their own rows from where their last pull left them, and nobody else’s', async () => {
  const brand = await sync.server.createUser({ role: 'brand' });
  const creator = await sync.server.createUser({ role: 'creator' });
  const stranger = await sync.server.createUser({ role: 'creator' });
  const conversationId = await conversationBetween(creator, brand);
  const [creatorStream, strangerStream] = [await rowsStream(creator), await rowsStream(stranger)];
  await serverMessage(conversationId, brand, creator, 'First');

  // The server knows nothing of where the creator's devices stand until one of them pulls: a notice.
  await eventually(() => creatorStream.changes().includes('messages'));
  expect(creatorStream.rows()).toEqual([]);
  const pulled = await settledPull(creator, null);
  expect(pulled.documents.map((m) => m.body)).toEqual(['First']);

  // From then on the rows themselves, following that pull's checkpoint, as a pull from it would bring them.
  const second = await streamedWrites(creatorStream, () => serverMessage(conversationId, brand, creator, 'Second'));
  expect(second.rows.from).toEqual({
    xid: pulled.checkpoint!.xid,
    id: pulled.checkpoint!.id,
    horizon: pulled.checkpoint!.horizon,
  });
  expect(second.rows.documents.map((d) => d.id)).toEqual(second.ids);
  const fromThere = await settledPull(creator, pulled.checkpoint);
  expect(second.rows.documents).toEqual(fromThere.documents);
  expect(second.rows.to).toEqual({ xid: fromThere.checkpoint!.xid, id: fromThere.checkpoint!.id });

  // The next follows on from the last.
  const third = await streamedWrites(creatorStream, () => serverMessage(conversationId, creator, brand, 'Third'));
  expect(third.rows.from).toEqual({ ...second.rows.to, horizon: second.rows.from.horizon });
  expect(third.rows.documents.map((d) => d.id)).toEqual(third.ids);

  // Someone else's conversation never reaches the stranger, as rows or as a notice.
  expect(strangerStream.rows()).toEqual([]);
  expect(strangerStream.changes()).not.toContain('messages');
  creatorStream.close();
  strangerStream.close();
});

test('a client that does not read rows gets a notice, and so does every admin', async () => {
  const brand = await sync.server.createUser({ role: 'brand' });
  const creator = await sync.server.createUser({ role: 'creator' });
  const admin = await sync.server.createUser({ role: 'admin' });
  const conversationId = await conversationBetween(creator, brand);
  const older = await openTestStream(sync.server.url, creator.accessToken, '1');
  const staff = await openTestStream(sync.server.url, admin.accessToken, String(SYNC_PROTOCOL_VERSION));
  await eventually(
    () => older.events.some((e) => e.event === 'hello') && staff.events.some((e) => e.event === 'hello'),
  );
  await pullMessages(creator, null);
  await serverMessage(conversationId, brand, creator, 'Hi');
  await eventually(() => older.changes().includes('messages') && staff.changes().includes('messages'));
  expect(older.events.filter((e) => e.event === 'rows')).toEqual([]);
  older.close();
  staff.close();
});
