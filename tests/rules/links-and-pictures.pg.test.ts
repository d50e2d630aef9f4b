import { afterAll, beforeAll, expect, test } from 'vitest';
import { createDatabase, type Database } from '../../sync-server/db/database.ts';
import { migrate } from '../../sync-server/db/migrate.ts';
import { createTestDatabase } from '../support/test-database.ts';
import { asServer, makeUser } from '../support/rules-fixtures.ts';
import { isPictureOf, type PublicBucket } from '../../src/domain/pictures.ts';
import { socialLinkError } from '../../src/domain/social-links.ts';

// The social-links and pictures rule on both sides: the forms' (src/domain) and Postgres' agree on
// every sample. Then what profiles held before the social-links and pictures rule (outside pictures, javascript: links)
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

test('the app and Postgres agree on which links and pictures are allowed', async () => {
  const links = [
    'https://instagram.com/maya',
    'https://www.linkedin.com/company/acme?trk=1#about',
    'https://tiktok.com.example.net/@maya',
    'https://x.com:443/maya',
    'HTTPS://YOUTUBE.COM/@Maya',
    'javascript:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'http://instagram.com/maya',
    'https://instagram.com/maya profile',
    'https://localhost/maya',
    'https://user@instagram.com/maya',
    'https://-bad-.com/x',
    ` https://instagram.com/maya`,
    `https://instagram.com/${'a'.repeat(2040)}`,
  ];
  const owner = '0192f5b0-1c2d-7e3f-8a4b-5c6d7e8f9a0b';
  const pictures = [
    `/storage/v1/object/public/avatars/${owner}/avatar.webp`,
    `/storage/v1/object/public/brand-logos/${owner}/logo-2.png`,
    `/storage/v1/object/public/portfolio/${owner}/0192f5b0.mp4`,
    `/storage/v1/object/public/avatars/0192f5b0-1c2d-7e3f-8a4b-5c6d7e8f9a0c/avatar.webp`,
    `/storage/v1/object/public/deliverables/${owner}/draft.mp4`,
    `/storage/v1/object/public/avatars/${owner}/../x.png`,
    `/storage/v1/object/public/avatars/${owner}/a b.png`,
    `/storage/v1/object/sign/avatars/${owner}/a.png`,
    '/avatars/maya.svg',
    'data:image/png;base64,iVBORw0KGgo=',
    'https://tracker.example/pixel.png',
    '//tracker.example/pixel.png',
    '/\\tracker.example/pixel.png',
    '/\t/tracker.example/pixel.png',
    `/storage/v1/object/public/avatars/${owner}/${'a'.repeat(2048)}`,
  ];
  const bucketSets: PublicBucket[][] = [['avatars', 'brand-logos'], ['portfolio']];
  const { rows } = await asServer(
    db,
    `select l as value, pacta_private.is_valid_social_link(to_jsonb(l)) as ok from unnest($1::text[]) l`,
    [links],
  );
  expect(rows).toEqual(links.map((value) => ({ value, ok: socialLinkError(value) === null })));
  for (const buckets of bucketSets) {
    const pics = await asServer(
      db,
      `select p as value, pacta_private.is_storage_picture(p, $2, $3) as ok from unnest($1::text[]) p`,
      [pictures, owner, buckets],
    );
    expect(pics.rows).toEqual(pictures.map((value) => ({ value, ok: isPictureOf(value, owner, buckets) })));
  }
});
