import fsp from 'node:fs/promises';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import sharp from 'sharp';
import type { Database } from '../db/database.ts';
import { demoPictureSvg } from './demo-pictures.ts';
import { accept, cacheControlOf } from './ingest.ts';
import type { ObjectStore } from './object-store.ts';
import { findBucket, writeObject } from './objects.ts';

/** The demo's pictures, shipped with the app: `<bucket>/<owner id>/<file>`. */
const DEMO_FILES_DIR = path.resolve(import.meta.dirname, '../../supabase/seed-files');

/** Buckets whose picture becomes the owner's profile picture. */
const PROFILE_PICTURE_BUCKETS = new Set(['avatars', 'brand-logos']);

/**
 * Stores the demo's pictures as their owners would upload them (the same checks, re-encoding and
 * storage.objects rows as an upload), then makes each avatar or logo its owner's profile picture.
 * The demo people and brands without a shipped picture get one drawn from their id
 * (`demo-pictures.ts`). Run once, right after supabase/seed.sql seeded a fresh database, with
 * Pacta's own storage.
 */
export async function storeDemoFiles(db: Database, store: ObjectStore, quotaBytes: number): Promise<string[]> {
  const stored: string[] = [];
  for (const bucketId of await fsp.readdir(DEMO_FILES_DIR)) {
    for (const owner of await fsp.readdir(path.join(DEMO_FILES_DIR, bucketId))) {
      for (const file of await fsp.readdir(path.join(DEMO_FILES_DIR, bucketId, owner))) {
        // accept() re-encodes images into temporary files, so the shipped file itself is never moved.
        const copy = store.tempPath();
        await fsp.copyFile(path.join(DEMO_FILES_DIR, bucketId, owner, file), copy);
        stored.push(await storeAsUpload(db, store, quotaBytes, { bucketId, owner, file, source: copy }));
      }
    }
  }
  const { rows } = await db.pool.query<{ id: string; role: string }>(
    `select id, role from public.profiles where avatar_url is null and role in ('creator', 'brand') order by id`,
  );
  // A few at a time: sharp works on its own threads, and the first start should not wait on each in turn.
  for (let i = 0; i < rows.length; i += 4) {
    stored.push(
      ...(await Promise.all(
        rows.slice(i, i + 4).map(async ({ id, role }) => {
          const drawn = store.tempPath();
          await sharp(Buffer.from(demoPictureSvg(id, role === 'brand' ? 'brand' : 'person')))
            .webp({ quality: 80 })
            .toFile(drawn);
          const bucketId = role === 'brand' ? 'brand-logos' : 'avatars';
          return storeAsUpload(db, store, quotaBytes, { bucketId, owner: id, file: 'demo.webp', source: drawn });
        }),
      )),
    );
  }
  return stored;
}

/** Stores one picture (a temporary file, removed here) as its owner's upload and sets it as their profile picture. */
async function storeAsUpload(
  db: Database,
  store: ObjectStore,
  quotaBytes: number,
  input: { bucketId: string; owner: string; file: string; source: string },
): Promise<string> {
  const { bucketId, owner } = input;
  const name = `${owner}/${input.file}`;
  const bucket = await findBucket(db, bucketId);
  const accepted = await accept(input.source, bucket, {
    declaredType: undefined,
    cacheControl: cacheControlOf('3600'),
    tempPath: store.tempPath,
  }).catch(async (err: unknown) => {
    await fsp.rm(input.source, { force: true });
    throw err;
  });
  const version = randomUUID();
  try {
    await writeObject(
      db,
      { sub: owner, role: 'authenticated' },
      { bucketId, name, version, metadata: accepted.metadata, upsert: true, quotaBytes },
      async () => {
        await store.put(`${bucketId}/${version}`, accepted.path);
        if (accepted.thumbnailPath) await store.put(`${bucketId}/${version}.thumb`, accepted.thumbnailPath);
      },
    );
  } finally {
    await Promise.all([input.source, ...accepted.temporaryPaths].map((f) => fsp.rm(f, { force: true })));
  }
  const url = `/storage/v1/object/public/${bucketId}/${name}`;
  if (PROFILE_PICTURE_BUCKETS.has(bucketId)) {
    await db.asService((tx) => tx.query('update public.profiles set avatar_url = $2 where id = $1', [owner, url]));
  }
  return url;
}
