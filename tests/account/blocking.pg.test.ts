import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { Database } from '../../sync-server/db/database.ts';
import { conversationIdFor } from '../../src/domain/conversation-id.ts';
import { savedListId } from '../../src/domain/saved-lists.ts';
import { createDatabase } from '../../sync-server/db/database.ts';
import { createTestDatabase } from '../support/test-database.ts';
import { apply, asUser, expectRule, makeDeal, makeUser } from '../support/rules-fixtures.ts';

let db: Database;
let drop: () => Promise<void>;
beforeAll(async () => {
  const database = await createTestDatabase();
  drop = database.drop;
  db = createDatabase(database.url);
});
afterAll(async () => {
  await db?.close();
  await drop?.();
});

/** Writes the user's block list as the app does (their own saved list of kind blocked_users). */
async function setBlocked(userId: string, items: string[]) {
  await asUser(
    db,
    userId,
    `insert into public.saved_lists (id, user_id, kind, items) values ($1, $2, 'blocked_users', $3)
     on conflict (id) do update set items = excluded.items`,
    [savedListId(userId, 'blocked_users'), userId, items],
  );
}

const startConversation = (from: string, to: string) =>
  asUser(db, from, `insert into public.conversations (id, user1_id, user2_id) values ($1, $2, $3)`, [
    conversationIdFor(from, to, null),
    from,
    to,
  ]);
const send = (conversationId: string, from: string, to: string) =>
  asUser(
    db,
    from,
    `insert into public.messages (id, conversation_id, sender_id, recipient_id, body) values ($1, $2, $3, $4, 'Hi')`,
    [randomUUID(), conversationId, from, to],
  );

test('a blocked person cannot start a conversation or send a message, either way round, until unblocked', async () => {
  const creator = await makeUser(db, 'creator');
  const brand = await makeUser(db, 'brand');
  const other = await makeUser(db, 'brand');
  await startConversation(brand, creator);
  const conversationId = conversationIdFor(brand, creator, null);
  await send(conversationId, brand, creator);

  await setBlocked(creator, [brand]);
  await expectRule(send(conversationId, brand, creator), 'blocked', 403);
  await expectRule(send(conversationId, creator, brand), 'blocked', 403);
  await expectRule(
    startConversation(creator, brand).then(() => undefined),
    'blocked',
    403,
  );
  // Someone else is not affected.
  await startConversation(other, creator);
  await send(conversationIdFor(other, creator, null), other, creator);

  await setBlocked(creator, []);
  await send(conversationId, brand, creator);
});

test("a creator the brand blocked cannot apply to the brand's deals; others can", async () => {
  const brand = await makeUser(db, 'brand');
  const blocked = await makeUser(db, 'creator');
  const welcome = await makeUser(db, 'creator');
  const dealId = await makeDeal(db, brand);
  await setBlocked(brand, [blocked]);
  await expectRule(apply(db, blocked, dealId), 'blocked', 403);
  await apply(db, welcome, dealId);
});

test('a block list names people by id and never oneself, and only its owner reads it', async () => {
  const user = await makeUser(db, 'creator');
  const other = await makeUser(db, 'brand');
  await expectRule(setBlocked(user, [user]), 'cannot_block_yourself', 422);
  await expectRule(setBlocked(user, ['not-an-id']), 'invalid_block', 422);
  await setBlocked(user, [other]);
  const seen = await asUser(db, other, `select count(*)::int as n from public.saved_lists where user_id = $1`, [user]);
  expect(seen.rows[0].n).toBe(0);
});
