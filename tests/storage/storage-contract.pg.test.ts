import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { BUCKETS, objectPath } from '../../src/domain/files.ts';
import { startTestServer, type TestServer, type TestUser } from '../support/test-server.ts';

class NoRealtime {
  constructor() {
    throw new Error('Realtime is not used here');
  }
}

/** The real supabase.storage client, as the app makes it, signed in with the user's access token. */
function storageFor(server: TestServer, user?: TestUser): SupabaseClient['storage'] {
  return createClient(server.url, 'pacta-local-anon-key', {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    realtime: { transport: NoRealtime as never },
    ...(user ? { accessToken: async () => user.accessToken } : {}),
  }).storage;
}

/** A real JPEG of `size` pixels, optionally carrying a GPS position in its EXIF. */
function jpeg(size = 64, opts: { gps?: boolean } = {}): Promise<Buffer> {
  const image = sharp({ create: { width: size, height: size, channels: 3, background: '#e0533d' } }).jpeg();
  return (
    opts.gps
      ? image.withExif({
          IFD0: { Make: 'TestCam' },
          IFD3: {
            GPSLatitudeRef: 'N',
            GPSLatitude: '51/1 30/1 0/1',
            GPSLongitudeRef: 'W',
            GPSLongitude: '0/1 7/1 0/1',
          },
        })
      : image
  ).toBuffer();
}

let server: TestServer;
let dataDir: string;
let creator: TestUser;
let other: TestUser;

beforeAll(async () => {
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'pacta-storage-'));
  server = await startTestServer({ env: { DATA_DIR: dataDir, STORAGE_QUOTA_MB: '2' } });
  creator = await server.createUser({ role: 'creator' });
  other = await server.createUser({ role: 'creator' });
});

afterAll(async () => {
  await server?.close();
  await fs.rm(dataDir, { recursive: true, force: true });
});

describe('storage API, through supabase.storage', () => {
  test('an avatar uploaded to the owner folder is listed, served at its public URL, and removed', async () => {
    const storage = storageFor(server, creator);
    const name = objectPath(creator.id, randomUUID(), 'Me at the beach!.jpg');
    const upload = await storage.from('avatars').upload(name, await jpeg(), { contentType: 'image/jpeg' });
    expect(upload.error).toBeNull();
    expect(upload.data).toMatchObject({ path: name, fullPath: `avatars/${name}` });

    const listed = await storage.from('avatars').list(creator.id);
    expect(listed.error).toBeNull();
    expect(listed.data?.map((f) => f.name)).toEqual([name.split('/')[1]]);
    expect(listed.data?.[0]?.metadata).toMatchObject({ mimetype: 'image/jpeg' });

    const { publicUrl } = storageFor(server).from('avatars').getPublicUrl(name).data;
    const res = await fetch(publicUrl);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/jpeg');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('content-disposition')).toMatch(/^inline; filename=/);
    expect((await sharp(Buffer.from(await res.arrayBuffer())).metadata()).format).toBe('jpeg');

    const removed = await storage.from('avatars').remove([name]);
    expect(removed.error).toBeNull();
    expect(removed.data?.map((r) => r.name)).toEqual([name]);
    expect((await fetch(publicUrl)).status).toBe(404);
  });
});

describe('refusals, in Storage error shapes', () => {
  test('the buckets in Postgres are the ones the app knows, with the same limits and types', async () => {
    const { rows } = await server.db.pool.query(
      'select id, public, file_size_limit, allowed_mime_types from storage.buckets order by id',
    );
    expect(rows).toEqual(
      Object.entries(BUCKETS)
        .map(([id, rule]) => ({
          id,
          public: rule.public,
          file_size_limit: rule.maxBytes,
          allowed_mime_types: [...rule.allowedTypes],
        }))
        .sort((a, b) => a.id.localeCompare(b.id)),
    );
  });

  test("someone else's folder is refused by the policy, and nothing is stored", async () => {
    const name = objectPath(creator.id, randomUUID(), 'not-mine.jpg');
    const { error } = await storageFor(server, other)
      .from('avatars')
      .upload(name, await jpeg());
    expect(error).toMatchObject({
      status: 403,
      statusCode: '403',
      message: 'new row violates row-level security policy',
    });
    const rows = await server.db.pool.query('select 1 from storage.objects where name = $1', [name]);
    expect(rows.rowCount).toBe(0);
  });

  test('a file whose content is not an allowed type is refused whatever its name and declared type', async () => {
    const name = objectPath(creator.id, randomUUID(), 'photo.jpg');
    const page = new Blob(['<html><script>alert(1)</script></html>'], { type: 'image/jpeg' });
    const { error } = await storageFor(server, creator).from('avatars').upload(name, page);
    expect(error).toMatchObject({ status: 415, statusCode: '415', message: 'mime type image/jpeg is not supported' });
    // A PDF is a real type, but not one an avatar may be.
    const pdf = Buffer.from('%PDF-1.4\n1 0 obj\n<<>>\nendobj\ntrailer\n<<>>\n%%EOF\n');
    const refused = await storageFor(server, creator)
      .from('avatars')
      .upload(name, pdf, { contentType: 'application/pdf' });
    expect(refused.error).toMatchObject({ status: 415, message: 'mime type application/pdf is not supported' });
    expect((await server.db.pool.query('select 1 from storage.objects where name = $1', [name])).rowCount).toBe(0);
  });

  test('a file over the bucket limit is refused', async () => {
    const name = objectPath(creator.id, randomUUID(), 'huge.jpg');
    const big = Buffer.alloc(BUCKETS.avatars.maxBytes + 1, 1);
    const { error } = await storageFor(server, creator)
      .from('avatars')
      .upload(name, big, { contentType: 'image/jpeg' });
    expect(error).toMatchObject({ status: 413, statusCode: '413' });
  });

  test('an upload past the user quota is refused', async () => {
    // The server of this file keeps 2 MB per user; a 3 MB portfolio video is within its bucket's limit.
    const name = objectPath(creator.id, randomUUID(), 'clip.mp4');
    const video = Buffer.alloc(3 * 1024 * 1024, 0);
    Buffer.from('0000001c6674797069736f6d0000020069736f6d69736f32', 'hex').copy(video);
    const { error } = await storageFor(server, creator)
      .from('portfolio')
      .upload(name, video, { contentType: 'video/mp4' });
    expect(error).toMatchObject({ status: 413, message: expect.stringContaining('quota') });
  });

  test('an unknown bucket is refused as Storage refuses it', async () => {
    const { error } = await storageFor(server, creator)
      .from('secrets')
      .upload(`${creator.id}/a.jpg`, await jpeg());
    expect(error).toMatchObject({ status: 404, statusCode: '404', message: 'Bucket not found' });
  });
});
