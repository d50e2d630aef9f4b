import { afterAll, beforeAll, expect, test } from 'vitest';
import { createDatabase, type Database } from '../sync-server/db/database.ts';
import { migrate } from '../sync-server/db/migrate.ts';
import { createTestDatabase } from './support/test-database.ts';
import { asServer, makeUser } from './support/rules-fixtures.ts';

// What profiles held before the social-links and pictures rule (outside pictures, javascript: links)
// is cleaned when the migration runs: the migration is applied again to a database holding such rows.

let db: Database;
let url: string;
let drop: () => Promise<void>;
beforeAll(async () => {
  const database = await createTestDatabase();
  ({ url, drop } = database);
  db = createDatabase(url);
});
afterAll(async () => {
  await db?.close();
  await drop?.();
});

test('outside pictures and invalid links stored before the rule are removed; valid ones stay', async () => {
  const tracked = await makeUser(db, 'creator');
  const demo = await makeUser(db, 'brand');
  // The database as it was before 20261127000401: no rule on profiles yet.
  await asServer(db, 'drop trigger c_links_and_picture on public.profiles');
  await asServer(db, `delete from supabase_migrations.schema_migrations where version = '20261127000401'`);
  await asServer(db, `update public.profiles set avatar_url = $2, social_links = $3 where id = $1`, [
    tracked,
    'https://tracker.example/pixel.png',
    { instagram: 'javascript:alert(1)', tiktok: 'https://www.tiktok.com/@maya', myspace: 'https://myspace.com/m' },
  ]);
  const inline = 'data:image/svg+xml,%3Csvg xmlns=%27http://www.w3.org/2000/svg%27/%3E';
  await asServer(db, `update public.profiles set avatar_url = $2, social_links = $3 where id = $1`, [
    demo,
    inline,
    { linkedin: 'https://www.linkedin.com/company/demo' },
  ]);

  const report = await migrate(url, { localBootstrap: false, seed: false });
  expect(report.migrations).toEqual(['20261127000401_social_links_and_pictures.sql']);

  const { rows } = await asServer(db, 'select id, avatar_url, social_links from public.profiles where id in ($1, $2)', [
    tracked,
    demo,
  ]);
  const byId = Object.fromEntries(rows.map((r) => [r.id, { avatar_url: r.avatar_url, social_links: r.social_links }]));
  expect(byId[tracked]).toEqual({ avatar_url: null, social_links: { tiktok: 'https://www.tiktok.com/@maya' } });
  expect(byId[demo]).toEqual({
    avatar_url: inline,
    social_links: { linkedin: 'https://www.linkedin.com/company/demo' },
  });
});
