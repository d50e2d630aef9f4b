import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import sharp from 'sharp';
import { Upload } from 'tus-js-client';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { SignJWT, decodeJwt } from 'jose';
import { BUCKETS, objectPath } from '../../src/domain/files.ts';
import { conversationIdFor } from '../../src/domain/conversation-id.ts';
import { asUser, makeDeal } from '../support/rules-fixtures.ts';
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
let brand: TestUser;

beforeAll(async () => {
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'pacta-storage-'));
  server = await startTestServer({ env: { DATA_DIR: dataDir, STORAGE_QUOTA_MB: '12' } });
  creator = await server.createUser({ role: 'creator' });
  other = await server.createUser({ role: 'creator' });
  brand = await server.createUser({ role: 'brand' });
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

  test('a portfolio video is served in byte ranges, as players seek in it', async () => {
    const name = objectPath(creator.id, randomUUID(), 'reel.mp4');
    const clip = mp4(200_000);
    for (let i = 64; i < clip.length; i++) clip[i] = i % 256;
    expect(
      (await storageFor(server, creator).from('portfolio').upload(name, clip, { contentType: 'video/mp4' })).error,
    ).toBeNull();
    const url = storageFor(server).from('portfolio').getPublicUrl(name).data.publicUrl;
    const part = await fetch(url, { headers: { range: 'bytes=1000-1999' } });
    expect([part.status, part.headers.get('content-range'), part.headers.get('content-type')]).toEqual([
      206,
      'bytes 1000-1999/200000',
      'video/mp4',
    ]);
    expect(Buffer.from(await part.arrayBuffer()).equals(clip.subarray(1000, 2000))).toBe(true);
    expect((await fetch(url, { headers: { range: 'bytes=300000-' } })).status).toBe(416);
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

describe('private buckets: deals and conversations', () => {
  test("a deal's files are its parties': the brand and the accepted creator, nobody else", async () => {
    const dealId = await makeDeal(server.db, brand.id);
    const name = `${dealId}/${randomUUID()}-draft.pdf`;
    const pdf = Buffer.from('%PDF-1.4\n1 0 obj\n<<>>\nendobj\ntrailer\n<<>>\n%%EOF\n');
    const asBrand = storageFor(server, brand).from('deliverables');
    expect((await asBrand.upload(name, pdf, { contentType: 'application/pdf' })).error).toBeNull();

    // A creator who is no party to the deal can neither write nor read, nor learn the file exists.
    const asOutsider = storageFor(server, creator).from('deliverables');
    const write = await asOutsider.upload(`${dealId}/${randomUUID()}-mine.pdf`, pdf, {
      contentType: 'application/pdf',
    });
    expect(write.error).toMatchObject({ status: 403, message: 'new row violates row-level security policy' });
    expect((await asOutsider.download(name)).error).toMatchObject({ status: 404 });
    expect((await asOutsider.createSignedUrl(name, 60)).error).toMatchObject({
      status: 404,
      message: 'Object not found',
    });
    expect((await asOutsider.list(dealId)).data).toEqual([]);
    // Nor is a private object public.
    const publicUrl = storageFor(server).from('deliverables').getPublicUrl(name).data.publicUrl;
    expect((await fetch(publicUrl)).status).toBe(404);

    // Once the brand accepts the creator's application, the creator is a party.
    const applicationId = randomUUID();
    await asUser(
      server.db,
      creator.id,
      `insert into public.applications (id, deal_id, creator_id, pitch) values ($1, $2, $3, 'Pick me')`,
      [applicationId, dealId, creator.id],
    );
    await asUser(server.db, brand.id, `update public.applications set status = 'accepted' where id = $1`, [
      applicationId,
    ]);
    const downloaded = await asOutsider.download(name);
    expect(downloaded.error).toBeNull();
    expect(Buffer.from(await downloaded.data!.arrayBuffer()).equals(pdf)).toBe(true);
  });

  test("a conversation's attachments are its two participants'", async () => {
    const conversationId = conversationIdFor(creator.id, brand.id, null);
    await asUser(
      server.db,
      creator.id,
      `insert into public.conversations (id, user1_id, user2_id) values ($1, $2, $3)`,
      [conversationId, creator.id, brand.id],
    );
    const name = `${conversationId}/${randomUUID()}-photo.png`;
    const png = await sharp({ create: { width: 20, height: 20, channels: 3, background: '#123456' } })
      .png()
      .toBuffer();
    expect(
      (await storageFor(server, creator).from('attachments').upload(name, png, { contentType: 'image/png' })).error,
    ).toBeNull();
    expect((await storageFor(server, brand).from('attachments').download(name)).error).toBeNull();
    expect((await storageFor(server, other).from('attachments').download(name)).error).toMatchObject({ status: 404 });
    const intrude = await storageFor(server, other)
      .from('attachments')
      .upload(`${conversationId}/${randomUUID()}-x.png`, png, { contentType: 'image/png' });
    expect(intrude.error).toMatchObject({ status: 403 });
    // A PDF is served as a download, never shown as a page.
    const pdfName = `${conversationId}/${randomUUID()}-terms.pdf`;
    const pdf = Buffer.from('%PDF-1.4\n%%EOF\n');
    expect(
      (await storageFor(server, brand).from('attachments').upload(pdfName, pdf, { contentType: 'application/pdf' }))
        .error,
    ).toBeNull();
    const { data } = await storageFor(server, creator).from('attachments').createSignedUrl(pdfName, 60);
    const res = await fetch(data!.signedUrl);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename=".*-terms\.pdf"$/);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('content-type')).toBe('application/pdf');
  });

  test('a signed URL works for anyone until it expires; an expired or altered one is refused', async () => {
    const dealId = await makeDeal(server.db, brand.id);
    const name = `${dealId}/${randomUUID()}-cut.jpg`;
    const asBrand = storageFor(server, brand).from('deliverables');
    expect((await asBrand.upload(name, await jpeg())).error).toBeNull();
    const { data, error } = await asBrand.createSignedUrl(name, 60);
    expect(error).toBeNull();
    const ok = await fetch(data!.signedUrl);
    expect(ok.status).toBe(200);
    expect(ok.headers.get('content-type')).toBe('image/jpeg');

    // The same grant, expired: signed with the server's key, as it would be a minute later.
    const url = new URL(data!.signedUrl);
    const claims = decodeJwt(url.searchParams.get('token')!);
    const { rows } = await server.db.pool.query<{ secret: string }>(
      'select secret from pacta_private.storage_url_keys',
    );
    const now = Math.floor(Date.now() / 1000);
    const expired = await new SignJWT({ url: claims.url as string })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuedAt(now - 120)
      .setExpirationTime(now - 60)
      .sign(Buffer.from(rows[0]!.secret, 'base64url'));
    url.searchParams.set('token', expired);
    const refused = await fetch(url);
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({
      statusCode: '400',
      error: 'InvalidJWT',
      message: '"exp" claim timestamp check failed',
    });

    // A token for one object opens no other.
    const otherUrl = new URL(data!.signedUrl.replace('-cut.jpg', '-other.jpg'));
    expect((await fetch(otherUrl)).status).toBe(400);

    const many = await asBrand.createSignedUrls([name, `${dealId}/missing.jpg`], 60);
    expect(many.data?.map((d) => d.signedUrl !== null)).toEqual([true, false]);
  });
});

/**
 * A loopback TCP proxy in front of the server that cuts the connection once, after `dropAfter` bytes
 * from the client, as a train going into a tunnel would: it holds the rest back until `beforeDrop`
 * says the server has stored part of what came through, then closes both sides. It records the
 * Upload-Offset of every PATCH the client sends.
 */
async function flakyProxy(target: string, dropAfter: number, beforeDrop: () => Promise<void>) {
  const { port } = new URL(target);
  const offsets: number[] = [];
  let forwarded = 0;
  let dropped = false;
  const proxy = net.createServer((client) => {
    const upstream = net.connect(Number(port), '127.0.0.1');
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
    upstream.pipe(client);
    client.on('data', (chunk: Buffer) => {
      for (const m of chunk
        .toString('latin1')
        .matchAll(/^PATCH [^\r\n]*\r\n(?:[^\r\n]+\r\n)*?upload-offset: (\d+)/gim)) {
        offsets.push(Number(m[1]));
      }
      if (dropped) return upstream.write(chunk);
      forwarded += chunk.length;
      upstream.write(chunk);
      if (forwarded > dropAfter) {
        dropped = true;
        client.pause();
        void beforeDrop().then(() => {
          client.destroy();
          upstream.destroy();
        });
      }
    });
    client.on('end', () => upstream.end());
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  const address = proxy.address() as net.AddressInfo;
  return {
    url: `http://127.0.0.1:${address.port}`,
    offsets,
    dropped: () => dropped,
    close: () => new Promise<void>((resolve) => proxy.close(() => resolve())),
  };
}

/** Bytes the server holds of the resumable upload under way (its one data file). */
async function resumableBytesStored(): Promise<number> {
  const dir = path.join(dataDir, 'storage', 'resumable');
  const files = (await fs.readdir(dir)).filter((f) => !f.endsWith('.json'));
  const sizes = await Promise.all(files.map(async (f) => (await fs.stat(path.join(dir, f))).size));
  return Math.max(0, ...sizes);
}

describe('resumable uploads (TUS, as Supabase Storage speaks it)', () => {
  test('an upload cut off mid-file resumes from the offset the server kept, and is stored whole', async () => {
    const dealId = await makeDeal(server.db, brand.id);
    const name = `${dealId}/${randomUUID()}-final-cut.mp4`;
    const video = mp4(8 * 1024 * 1024);
    for (let i = 64; i < video.length; i += 4096) video[i] = i % 251;
    const proxy = await flakyProxy(server.url, 3 * 1024 * 1024, () =>
      vi.waitFor(async () => expect(await resumableBytesStored()).toBeGreaterThan(1024 * 1024), { timeout: 10_000 }),
    );
    try {
      await new Promise<void>((resolve, reject) => {
        const upload = new Upload(video, {
          endpoint: `${proxy.url}/storage/v1/upload/resumable`,
          headers: { authorization: `Bearer ${brand.accessToken}`, 'x-upsert': 'true' },
          metadata: { bucketName: 'deliverables', objectName: name, contentType: 'video/mp4', cacheControl: '3600' },
          // Supabase Storage takes TUS chunks of 6 MB.
          chunkSize: 6 * 1024 * 1024,
          retryDelays: [0, 0, 0],
          onError: reject,
          onSuccess: () => resolve(),
        });
        upload.start();
      });
    } finally {
      await proxy.close();
    }
    expect(proxy.dropped()).toBe(true);
    // The first PATCH started at 0 and was cut; the next resumed mid-chunk where the server's bytes ended.
    expect(proxy.offsets[0]).toBe(0);
    const resumedAt = proxy.offsets[1]!;
    expect(resumedAt).toBeGreaterThan(0);
    expect(resumedAt).toBeLessThan(6 * 1024 * 1024);

    const { data, error } = await storageFor(server, brand).from('deliverables').download(name);
    expect(error).toBeNull();
    expect(Buffer.from(await data!.arrayBuffer()).equals(video)).toBe(true);
    // Nothing of the upload is left behind but the stored object.
    expect(await fs.readdir(path.join(dataDir, 'storage', 'resumable'))).toEqual([]);
  });

  test('a small file sent whole in the creation request (uploadDataDuringCreation) is stored, image and video', async () => {
    const dealId = await makeDeal(server.db, brand.id);
    for (const [bucket, name, bytes, contentType] of [
      ['deliverables', `${dealId}/${randomUUID()}-teaser.mp4`, mp4(64 * 1024), 'video/mp4'],
      ['avatars', `${brand.id}/${randomUUID()}.jpg`, await jpeg(), 'image/jpeg'],
    ] as const) {
      await new Promise<void>((resolve, reject) => {
        const upload = new Upload(bytes, {
          endpoint: `${server.url}/storage/v1/upload/resumable`,
          headers: { authorization: `Bearer ${brand.accessToken}`, 'x-upsert': 'true' },
          metadata: { bucketName: bucket, objectName: name, contentType, cacheControl: '3600' },
          uploadDataDuringCreation: true,
          chunkSize: 6 * 1024 * 1024,
          retryDelays: [],
          onError: reject,
          onSuccess: () => resolve(),
        });
        upload.start();
      });
      const { data, error } = await storageFor(server, brand).from(bucket).download(name);
      expect(error).toBeNull();
      if (bucket === 'deliverables') expect(Buffer.from(await data!.arrayBuffer()).equals(bytes)).toBe(true);
      else expect((await sharp(Buffer.from(await data!.arrayBuffer())).metadata()).format).toBe('jpeg');
    }
    expect(await fs.readdir(path.join(dataDir, 'storage', 'resumable'))).toEqual([]);
  });

  test("another user cannot resume or cancel someone's resumable upload", async () => {
    const dealId = await makeDeal(server.db, brand.id);
    const b64 = (v: string) => Buffer.from(v).toString('base64');
    const tus = (user: TestUser) => ({ 'tus-resumable': '1.0.0', authorization: `Bearer ${user.accessToken}` });
    const created = await fetch(`${server.url}/storage/v1/upload/resumable`, {
      method: 'POST',
      headers: {
        ...tus(brand),
        'upload-length': '1000',
        'upload-metadata': `bucketName ${b64('deliverables')},objectName ${b64(`${dealId}/cut.mp4`)},contentType ${b64('video/mp4')}`,
      },
    });
    expect(created.status).toBe(201);
    const location = new URL(created.headers.get('location')!, server.url).toString();
    const patch = { ...tus(creator), 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' };
    expect((await fetch(location, { method: 'HEAD', headers: tus(creator) })).status).toBe(404);
    expect((await fetch(location, { method: 'PATCH', headers: patch, body: new Uint8Array(mp4(1000)) })).status).toBe(
      404,
    );
    expect((await fetch(location, { method: 'DELETE', headers: tus(creator) })).status).toBe(404);
    // Without a token, nothing at all.
    expect((await fetch(location, { method: 'HEAD', headers: { 'tus-resumable': '1.0.0' } })).status).toBe(403);
    const own = await fetch(location, { method: 'HEAD', headers: tus(brand) });
    expect([own.status, own.headers.get('upload-offset')]).toEqual([200, '0']);
    expect((await fetch(location, { method: 'DELETE', headers: tus(brand) })).status).toBe(204);
  });

  test('a resumable upload is refused when created if the policies, the size or the type forbid it', async () => {
    const dealId = await makeDeal(server.db, brand.id);
    const refusal = (opts: { user: TestUser; bucket: string; name: string; bytes: Buffer }) =>
      new Promise<{ status: number | undefined; body: string | undefined }>((resolve, reject) => {
        const upload = new Upload(opts.bytes, {
          endpoint: `${server.url}/storage/v1/upload/resumable`,
          headers: { authorization: `Bearer ${opts.user.accessToken}` },
          metadata: { bucketName: opts.bucket, objectName: opts.name, contentType: 'video/mp4' },
          chunkSize: 6 * 1024 * 1024,
          retryDelays: [],
          onError: (err) => {
            const res = (err as { originalResponse?: { getStatus(): number; getBody(): string } }).originalResponse;
            resolve({ status: res?.getStatus(), body: res?.getBody() });
          },
          onSuccess: () => reject(new Error('the upload was accepted')),
        });
        upload.start();
      });
    const outsider = await refusal({
      user: creator,
      bucket: 'deliverables',
      name: `${dealId}/x.mp4`,
      bytes: mp4(1024),
    });
    expect(outsider.status).toBe(403);
    expect(JSON.parse(outsider.body!)).toMatchObject({ statusCode: '403', error: 'AccessDenied' });
    const tooBig = await refusal({
      user: creator,
      bucket: 'avatars',
      name: `${creator.id}/big.jpg`,
      bytes: Buffer.alloc(6 * 1024 * 1024),
    });
    expect(tooBig.status).toBe(413);
    // A name already taken is refused at creation unless x-upsert says to replace it.
    const taken = `${brand.id}/taken.jpg`;
    expect(
      (
        await storageFor(server, brand)
          .from('avatars')
          .upload(taken, await jpeg())
      ).error,
    ).toBeNull();
    const duplicate = await refusal({ user: brand, bucket: 'avatars', name: taken, bytes: await jpeg() });
    expect(duplicate.status).toBe(409);
    // The type is read once the last byte is in: a text file named .mp4 is refused and not kept.
    const text = await refusal({
      user: brand,
      bucket: 'deliverables',
      name: `${dealId}/notes.mp4`,
      bytes: Buffer.from('just text'),
    });
    expect(text.status).toBe(415);
    expect(
      (await server.db.pool.query(`select 1 from storage.objects where name like $1`, [`${dealId}/%`])).rowCount,
    ).toBe(0);
    expect(await fs.readdir(path.join(dataDir, 'storage', 'resumable'))).toEqual([]);
  });
});

test("with a hosted Supabase the app uses the project's own Storage: Pacta serves no /storage/v1", async () => {
  const hosted = await startTestServer({
    env: { SUPABASE_URL: 'https://project-ref.supabase.co', SUPABASE_ANON_KEY: 'anon', DATA_DIR: dataDir },
  });
  try {
    expect(hosted.config.storage).toEqual({ mode: 'hosted' });
    const res = await fetch(`${hosted.url}/storage/v1/object/public/avatars/${creator.id}/a.jpg`);
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ code: 'not_found' });
  } finally {
    await hosted.close();
  }
});
