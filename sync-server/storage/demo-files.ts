import fsp from 'node:fs/promises';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import type { Database } from '../db/database.ts';
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
 * Run once, right after supabase/seed.sql seeded a fresh database, with Pacta's own storage.
 */
export async function storeDemoFiles(db: Database, store: ObjectStore, quotaBytes: number): Promise<string[]> {
  const stored: string[] = [];
  for (const bucketId of await fsp.readdir(DEMO_FILES_DIR)) {
    const bucket = await findBucket(db, bucketId);
    for (const owner of await fsp.readdir(path.join(DEMO_FILES_DIR, bucketId))) {
      for (const file of await fsp.readdir(path.join(DEMO_FILES_DIR, bucketId, owner))) {
        const name = `${owner}/${file}`;
        // accept() re-encodes images into temporary files, so the shipped file itself is never moved.
        const copy = store.tempPath();
        await fsp.copyFile(path.join(DEMO_FILES_DIR, bucketId, name), copy);
        const accepted = await accept(copy, bucket, {
          declaredType: undefined,
          cacheControl: cacheControlOf('3600'),
          tempPath: store.tempPath,
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
          await Promise.all([copy, ...accepted.temporaryPaths].map((f) => fsp.rm(f, { force: true })));
        }
        const url = `/storage/v1/object/public/${bucketId}/${name}`;
        if (PROFILE_PICTURE_BUCKETS.has(bucketId)) {
          await db.asService((tx) =>
            tx.query('update public.profiles set avatar_url = $2 where id = $1', [owner, url]),
          );
        }
        stored.push(url);
      }
    }
  }
  return stored;
}
