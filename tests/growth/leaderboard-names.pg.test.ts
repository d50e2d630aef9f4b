import { afterAll, beforeAll, expect, test } from 'vitest';
import { createDatabase, type Database } from '../../sync-server/db/database.ts';
import { createTestDatabase } from '../support/test-database.ts';
import { asServer, makeUser } from '../support/rules-fixtures.ts';

// The referral leaderboard is shown to every signed-in user: a member without a username appears by
// first name and last initial, never by the full name given at sign-up.

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

test('a member without a username is listed as “First L.”; a username is shown as it is', async () => {
  const [ava, mono, named] = await Promise.all([
    makeUser(db, 'creator', { name: 'Ava  van Vlogs' }),
    makeUser(db, 'brand', { name: 'Acme' }),
    makeUser(db, 'creator', { name: 'Bo Named' }),
  ]);
  await asServer(db, `update public.profiles set username = 'bo_runs' where id = $1`, [named]);
  const { rows } = await asServer(
    db,
    'select user_id, username, full_name from public.referral_leaderboard(null) where user_id = any($1::uuid[])',
    [[ava, mono, named]],
  );
  const byId = new Map(rows.map((r: { user_id: string }) => [r.user_id, r]));
  expect(byId.get(ava)).toMatchObject({ username: null, full_name: 'Ava V.' });
  expect(byId.get(mono)).toMatchObject({ full_name: 'Acme' });
  expect(byId.get(named)).toMatchObject({ username: 'bo_runs', full_name: 'Bo N.' });
});
