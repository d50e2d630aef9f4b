import { randomUUID } from 'node:crypto';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { getRxStorageDexie } from 'rxdb/plugins/storage-dexie';
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { createPactaDatabase, type PactaDatabase } from '../../../db/index.ts';
import { conversationIdFor } from '../../../domain/conversation-id.ts';
import {
  findOrStartConversation,
  markAllNotificationsRead,
  markConversationRead,
  sendMessage,
} from './inbox-operations.ts';

let db: PactaDatabase;
const me = randomUUID();
const brand = randomUUID();
const deal = randomUUID();

beforeEach(async () => {
  vi.spyOn(console, 'warn').mockImplementation(() => {}); // RxDB's open-core storage notice
  db = await createPactaDatabase({
    userId: me,
    name: `unit-${randomUUID()}`,
    storage: getRxStorageDexie({ indexedDB: new IDBFactory(), IDBKeyRange }),
    collections: ['conversations', 'messages', 'notifications'],
    multiInstance: false,
  });
});
afterEach(async () => {
  await db.remove();
});

test('a conversation is found again per pair and deal; a new one takes the id both sides derive', async () => {
  const id = await findOrStartConversation(db, me, brand, deal, 'Summer launch');
  expect(id).toBe(conversationIdFor(brand, me, deal));
  expect(await findOrStartConversation(db, me, brand, deal)).toBe(id);
  const general = await findOrStartConversation(db, me, brand, null);
  expect(general).not.toBe(id);
  expect(await db.conversations.count().exec()).toBe(2);
  // One that arrived from the server under another id (written before the rule) is found too.
  const legacy = randomUUID();
  const other = randomUUID();
  await db.conversations.insert({
    id: legacy,
    user1_id: other,
    user2_id: me,
    deal_id: deal,
    title: '',
    last_message: '',
    last_message_at: null,
    last_seq: 0,
    user1_read_seq: 0,
    user2_read_seq: 0,
  });
  expect(await findOrStartConversation(db, me, other, deal)).toBe(legacy);
});

test('a blank or over-long message is not written; a good one is pending until the server numbers it', async () => {
  const id = await findOrStartConversation(db, me, brand, deal);
  const conversation = (await db.conversations.findOne(id).exec())!.toJSON();
  await expect(sendMessage(db, conversation, me, '  \n ')).rejects.toThrow('Type a message before sending.');
  await expect(sendMessage(db, conversation, me, 'x'.repeat(4001))).rejects.toThrow('at most 4,000 characters');
  await sendMessage(db, conversation, me, '  Hello there  ');
  const [message] = await db.messages.find().exec();
  expect(message?.toJSON()).toMatchObject({ body: 'Hello there', sender_id: me, recipient_id: brand, seq: null });
});

test('reading moves my read position up to the last message, never down', async () => {
  const id = await findOrStartConversation(db, me, brand, null);
  const doc = (await db.conversations.findOne(id).exec())!;
  const mine = doc.user1_id === me ? 'user1_read_seq' : 'user2_read_seq';
  await doc.incrementalPatch({ last_seq: 5 });
  await markConversationRead(db, id, me);
  expect((await db.conversations.findOne(id).exec())![mine]).toBe(5);
  await (await db.conversations.findOne(id).exec())!.incrementalPatch({ last_seq: 3 });
  await markConversationRead(db, id, me);
  expect((await db.conversations.findOne(id).exec())![mine]).toBe(5);
});

test("'Mark all read' reads every unread notification of mine", async () => {
  for (const title of ['One', 'Two']) {
    await db.notifications.insert({
      id: randomUUID(),
      user_id: me,
      type: 'x',
      title,
      message: '',
      data: {},
      read_at: null,
    });
  }
  await markAllNotificationsRead(db, me);
  const left = await db.notifications.find({ selector: { read_at: null } }).exec();
  expect(left).toEqual([]);
});
