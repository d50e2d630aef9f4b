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

/** Bytes file-type reads as an MP4 video (an ISO base media `ftyp` box), then zeros. */
function mp4(bytes: number): Buffer {
  const video = Buffer.alloc(bytes, 0);
  Buffer.from('0000001c6674797069736f6d0000020069736f6d69736f32', 'hex').copy(video);
  return video;
}

let server: TestServer;
let dataDir: string;
let creator: TestUser;
let other: TestUser;

beforeAll(async () => {
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'pacta-storage-'));
  server = await startTestServer({ env: { DATA_DIR: dataDir, STORAGE_QUOTA_MB: '12' } });
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
    // The server of this file keeps 12 MB per user; a 13 MB portfolio video is within its bucket's limit.
    const name = objectPath(creator.id, randomUUID(), 'clip.mp4');
    const video = mp4(13 * 1024 * 1024);
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

describe('images', () => {
  test('a JPEG is stored without its EXIF (GPS position, camera) and with a thumbnail', async () => {
    const original = await jpeg(1200, { gps: true });
    expect((await sharp(original).metadata()).exif).toBeDefined();
    const name = objectPath(creator.id, randomUUID(), 'holiday.jpg');
    // A File, as the browser's file picker gives it: storage-js sends it as multipart form data.
    const file = new File([new Uint8Array(original)], 'holiday.jpg', { type: 'image/jpeg' });
    const { error } = await storageFor(server, creator).from('portfolio').upload(name, file);
    expect(error).toBeNull();

    const public_ = storageFor(server).from('portfolio');
    const stored = Buffer.from(await (await fetch(public_.getPublicUrl(name).data.publicUrl)).arrayBuffer());
    const meta = await sharp(stored).metadata();
    expect({ exif: meta.exif, xmp: meta.xmp, width: meta.width }).toEqual({
      exif: undefined,
      xmp: undefined,
      width: 1200,
    });
    expect(stored.includes(Buffer.from('TestCam'))).toBe(false);

    const thumbUrl = public_.getPublicUrl(name, { transform: { width: 320, height: 320 } }).data.publicUrl;
    const thumb = await fetch(thumbUrl);
    expect(thumb.status).toBe(200);
    const thumbMeta = await sharp(Buffer.from(await thumb.arrayBuffer())).metadata();
    expect({ width: thumbMeta.width, exif: thumbMeta.exif }).toEqual({ width: 320, exif: undefined });
  });

  test('upsert replaces an object; without it the same name is refused as a duplicate', async () => {
    const storage = storageFor(server, creator).from('avatars');
    const name = `${creator.id}/avatar.jpg`;
    expect((await storage.upload(name, await jpeg(40))).error).toBeNull();
    expect((await storage.upload(name, await jpeg(50))).error).toMatchObject({ status: 409, statusCode: '409' });
    expect((await storage.upload(name, await jpeg(60), { upsert: true })).error).toBeNull();
    const { data } = await storage.download(name);
    expect((await sharp(Buffer.from(await data!.arrayBuffer())).metadata()).width).toBe(60);
    expect((await server.db.pool.query('select 1 from storage.objects where name = $1', [name])).rowCount).toBe(1);
  });

  test('a name that is not a plain path is refused', async () => {
    const storage = storageFor(server, creator).from('avatars');
    for (const name of [
      `${creator.id}/.hidden.jpg`,
      `${creator.id}/<b>.jpg`,
      `${creator.id}/semi;colon.jpg`,
      `${creator.id}/ leading-space.jpg`,
    ]) {
      const { error } = await storage.upload(name, await jpeg());
      expect(error, name).toMatchObject({
        status: 400,
        statusCode: '400',
        message: expect.stringMatching(/^Invalid key/),
      });
    }
    // A `..` never leaves the folder: the URL is resolved before it is sent, and lands outside the owner's folder.
    expect((await storage.upload(`${creator.id}/../x.jpg`, await jpeg())).error).toMatchObject({ status: 403 });
    const stored = await server.db.pool.query(
      `select name from storage.objects where name like '%x.jpg%' or name like '%.hidden%' or name like '%<b>%'`,
    );
    expect(stored.rows).toEqual([]);
  });
});
