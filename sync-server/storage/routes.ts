import { randomUUID } from 'node:crypto';
import fsp from 'node:fs/promises';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { HttpError } from '../http/errors.ts';
import { isDatabaseUnavailable } from '../db/unavailable.ts';
import { accept, cacheControlOf, receive } from './ingest.ts';
import { checkedObjectName, contentDisposition } from './object-names.ts';
import {
  checkMayWrite,
  checkQuota,
  deleteObjects,
  findBucket,
  listObjects,
  readObject,
  readPublicObject,
  writeObject,
  type ObjectRow,
} from './objects.ts';
import { requesterOf, writerOf } from './requester.ts';
import { resumableRoutes } from './resumable.ts';
import { uploadBody } from './upload-body.ts';
import { StorageError, storageErrors } from './storage-errors.ts';
import type { StorageContext } from './storage-service.ts';
import { THUMBNAIL_SIDE } from '../../src/domain/files.ts';

type ObjectParams = { bucket: string; '*': string };

const listBody = z.object({
  prefix: z.string().max(1024).default(''),
  limit: z.coerce.number().int().min(1).max(1000).default(100),
  offset: z.coerce.number().int().min(0).default(0),
  sortBy: z
    .object({
      column: z.enum(['name', 'created_at', 'updated_at', 'last_accessed_at']).default('name'),
      order: z.enum(['asc', 'desc']).default('asc'),
    })
    .default({ column: 'name', order: 'asc' }),
  search: z.string().max(200).default(''),
});
// Storage caps a signed URL's life at one year.
const expiresIn = z.coerce
  .number()
  .int()
  .min(1)
  .max(365 * 24 * 3600);
// A transform asks for the signed URL of an image's rendition (`createSignedUrl(path, s, { transform })`).
const transform = z.object({
  width: z.coerce.number().int().min(0).optional(),
  height: z.coerce.number().int().min(0).optional(),
});
const signBody = z.object({ expiresIn, transform: transform.optional() });
const signManyBody = z.object({ expiresIn, paths: z.array(z.string()).min(1).max(100) });
const removeBody = z.object({ prefixes: z.array(z.string()).min(1).max(1000) });

/** A request body Storage would refuse as invalid. */
function parsed<T>(schema: z.ZodType<T>, body: unknown): T {
  const result = schema.safeParse(body ?? {});
  if (!result.success) throw storageErrors.invalidRequest(result.error.issues[0]?.message ?? 'Invalid request body');
  return result.data;
}

/**
 * Supabase Storage's API at `/storage/v1`, so the app's `supabase.storage` works against Pacta as
 * against a hosted project: upload (POST, PUT, upsert), download, remove, list, signed URLs,
 * public URLs, image thumbnails through the render route, and resumable (TUS) uploads. Who may
 * read or write which object is decided by the policies on storage.objects: every read and write of
 * an object's row runs as the requesting user under row-level security.
 */
export async function storageRoutes(app: FastifyInstance, { storage }: { storage: StorageContext }): Promise<void> {
  const { ctx, store, signedUrls } = storage;

  app.setErrorHandler((err, request, reply) => {
    if (err instanceof StorageError) return reply.status(err.status).send(err.body(request.id));
    if (err instanceof HttpError) {
      return reply.status(err.status).send(new StorageError(err.status, err.code, err.message).body(request.id));
    }
    const e = err as { statusCode?: number; message: string };
    if (e.statusCode && e.statusCode >= 400 && e.statusCode < 500) {
      return reply
        .status(e.statusCode)
        .send(new StorageError(e.statusCode, 'InvalidRequest', e.message).body(request.id));
    }
    if (isDatabaseUnavailable(err)) {
      return reply
        .status(503)
        .header('retry-after', '5')
        .send(
          new StorageError(503, 'DatabaseError', 'Pacta is briefly unavailable. Please try again in a moment.').body(
            request.id,
          ),
        );
    }
    request.log.error({ err }, 'storage error');
    return reply.status(500).send(new StorageError(500, 'InternalError', 'Internal server error').body(request.id));
  });

  /** Sends a stored object's bytes: never as a page (its own type, nosniff, a sandbox), ranges for video. */
  async function sendObject(
    request: FastifyRequest,
    reply: FastifyReply,
    row: ObjectRow | undefined,
    opts: { thumbnail?: boolean } = {},
  ) {
    if (!row?.version || !row.metadata) throw storageErrors.noSuchKey();
    const fullKey = `${row.bucket_id}/${row.version}`;
    const thumbKey = `${fullKey}.thumb`;
    const key = opts.thumbnail && (await store.has(thumbKey)) ? thumbKey : fullKey;
    const range = key === fullKey ? byteRange(request.headers.range, row.metadata.size) : undefined;
    if (range === 'unsatisfiable') {
      return reply
        .status(416)
        .header('content-range', `bytes */${row.metadata.size}`)
        .send(storageErrors.invalidRequest('invalid range provided').body(request.id));
    }
    const file = await store.open(key, range);
    if (!file) throw storageErrors.noSuchKey();
    const query = request.query as { download?: string };
    const type = row.metadata.mimetype;
    const inline = query.download === undefined && (type.startsWith('image/') || type.startsWith('video/'));
    const fileName = query.download ? query.download : row.name;
    reply
      .header('content-type', type)
      .header('x-content-type-options', 'nosniff')
      .header('content-security-policy', "default-src 'none'; sandbox")
      .header('content-disposition', contentDisposition(inline ? 'inline' : 'attachment', fileName))
      .header('cache-control', cacheControlOf(row.metadata.cacheControl))
      .header('etag', key === fullKey ? row.metadata.eTag : `${row.metadata.eTag.slice(0, -1)}-thumb"`)
      .header('last-modified', new Date(row.updated_at).toUTCString())
      .header('accept-ranges', 'bytes');
    if (range) {
      reply
        .status(206)
        .header('content-range', `bytes ${range.start}-${range.end}/${file.size}`)
        .header('content-length', range.end - range.start + 1);
    } else {
      reply.header('content-length', file.size);
    }
    return reply.send(file.stream);
  }

  const objectOf = (request: FastifyRequest) => {
    const params = request.params as ObjectParams;
    return { bucketId: params.bucket, name: checkedObjectName(params['*']) };
  };

  // Downloads: as the user under the policies (`download()`), a public bucket's objects for anyone
  // (`getPublicUrl()`), and with a signed URL's token (`createSignedUrl()`).
  const download = async (request: FastifyRequest, reply: FastifyReply) => {
    const who = await requesterOf(ctx, request);
    const { bucketId, name } = objectOf(request);
    await findBucket(ctx.db, bucketId);
    return sendObject(request, reply, await readObject(ctx.db, who, bucketId, name));
  };
  app.get('/object/authenticated/:bucket/*', download);
  app.get('/object/:bucket/*', download);
  app.get('/object/public/:bucket/*', async (request, reply) => {
    const { bucketId, name } = objectOf(request);
    const bucket = await findBucket(ctx.db, bucketId);
    if (!bucket.public) throw storageErrors.noSuchBucket();
    return sendObject(request, reply, await readPublicObject(ctx.db, bucketId, name));
  });
  app.get('/object/sign/:bucket/*', async (request, reply) => {
    const { bucketId, name } = objectOf(request);
    const token = (request.query as { token?: string }).token;
    if (!token) throw storageErrors.invalidRequest('Missing token');
    const url = await signedUrls.verify(token);
    if (url !== `${bucketId}/${name}`) throw storageErrors.invalidJwt('invalid signature');
    return sendObject(request, reply, await readServerSide(bucketId, name));
  });
  // Thumbnails: a transform no larger than the thumbnail gets the thumbnail made at upload; any
  // other size gets the image itself (at most IMAGE_MAX_SIDE). Hosted Storage resizes on the fly.
  const wantsThumbnail = (request: FastifyRequest) => {
    const q = request.query as { width?: string; height?: string };
    const width = Number(q.width ?? 0);
    const height = Number(q.height ?? 0);
    return (width > 0 || height > 0) && width <= THUMBNAIL_SIDE && height <= THUMBNAIL_SIDE;
  };
  app.get('/render/image/public/:bucket/*', async (request, reply) => {
    const { bucketId, name } = objectOf(request);
    const bucket = await findBucket(ctx.db, bucketId);
    if (!bucket.public) throw storageErrors.noSuchBucket();
    return sendObject(request, reply, await readPublicObject(ctx.db, bucketId, name), {
      thumbnail: wantsThumbnail(request),
    });
  });
  app.get('/render/image/authenticated/:bucket/*', async (request, reply) => {
    const who = await requesterOf(ctx, request);
    const { bucketId, name } = objectOf(request);
    await findBucket(ctx.db, bucketId);
    return sendObject(request, reply, await readObject(ctx.db, who, bucketId, name), {
      thumbnail: wantsThumbnail(request),
    });
  });
  app.get('/render/image/sign/:bucket/*', async (request, reply) => {
    const { bucketId, name } = objectOf(request);
    const token = (request.query as { token?: string }).token;
    if (!token) throw storageErrors.invalidRequest('Missing token');
    const url = await signedUrls.verify(token);
    if (url !== `${bucketId}/${name}`) throw storageErrors.invalidJwt('invalid signature');
    return sendObject(request, reply, await readServerSide(bucketId, name), { thumbnail: wantsThumbnail(request) });
  });
  app.get('/object/info/:bucket/*', async (request) => {
    const who = await requesterOf(ctx, request);
    const { bucketId, name } = objectOf(request);
    await findBucket(ctx.db, bucketId);
    const row = await readObject(ctx.db, who, bucketId, name);
    if (!row?.metadata) throw storageErrors.noSuchKey();
    return {
      id: row.id,
      name: row.name,
      bucket_id: row.bucket_id,
      version: row.version,
      size: row.metadata.size,
      content_type: row.metadata.mimetype,
      cache_control: row.metadata.cacheControl,
      etag: row.metadata.eTag,
      metadata: row.user_metadata ?? {},
      last_modified: row.updated_at,
      created_at: row.created_at,
    };
  });

  app.post('/object/list/:bucket', async (request) => {
    const who = await requesterOf(ctx, request);
    const { bucket } = request.params as { bucket: string };
    await findBucket(ctx.db, bucket);
    return listObjects(ctx.db, who, bucket, parsed(listBody, request.body));
  });

  // A signed URL is made for an object the user may read now; whoever holds it reads it until it expires.
  app.post('/object/sign/:bucket/*', async (request) => {
    const who = await writerOf(ctx, request);
    const { bucketId, name } = objectOf(request);
    const { expiresIn: seconds, transform: size } = parsed(signBody, request.body);
    await findBucket(ctx.db, bucketId);
    if (!(await readObject(ctx.db, who, bucketId, name))) throw storageErrors.noSuchKey();
    const token = await signedUrls.sign(bucketId, name, seconds);
    const path = encodeURI(`${bucketId}/${name}`);
    if (!size) return { signedURL: `/object/sign/${path}?token=${token}` };
    // As Storage answers a transform: the rendition's address. The size only picks the thumbnail
    // made at upload or the image itself, of the object the token grants.
    const query = new URLSearchParams({ token });
    if (size.width) query.set('width', String(size.width));
    if (size.height) query.set('height', String(size.height));
    return { signedURL: `/render/image/sign/${path}?${query.toString()}` };
  });
  app.post('/object/sign/:bucket', async (request) => {
    const who = await writerOf(ctx, request);
    const { bucket } = request.params as { bucket: string };
    const { expiresIn: seconds, paths } = parsed(signManyBody, request.body);
    await findBucket(ctx.db, bucket);
    return Promise.all(
      paths.map(async (path) => {
        const name = safeName(path);
        if (!name || !(await readObject(ctx.db, who, bucket, name))) {
          return { error: 'Either the object does not exist or you do not have access to it', path, signedURL: null };
        }
        const token = await signedUrls.sign(bucket, name, seconds);
        return { error: null, path, signedURL: `/object/sign/${encodeURI(`${bucket}/${name}`)}?token=${token}` };
      }),
    );
  });

  app.delete('/object/:bucket', async (request) => {
    const who = await writerOf(ctx, request);
    const { bucket } = request.params as { bucket: string };
    const { prefixes } = parsed(removeBody, request.body);
    await findBucket(ctx.db, bucket);
    const names = prefixes.map(safeName).filter((n): n is string => n !== undefined);
    const removed = await deleteObjects(ctx.db, who, bucket, names);
    // The rows are gone (committed): their files follow. A file left by a crash here is unreachable.
    await store.remove(
      removed.flatMap((r) => (r.version ? [`${bucket}/${r.version}`, `${bucket}/${r.version}.thumb`] : [])),
    );
    return removed;
  });

  // Uploads read the body themselves, as a stream: registered where no body parser runs.
  await app.register(async (uploads) => {
    uploads.removeAllContentTypeParsers();
    uploads.addContentTypeParser('*', (_request, _payload, done) => done(null));
    const upload = (mode: 'create' | 'update') => async (request: FastifyRequest) => {
      const claims = await writerOf(ctx, request);
      const { bucketId, name } = objectOf(request);
      const bucket = await findBucket(ctx.db, bucketId);
      const upsert = mode === 'update' || request.headers['x-upsert'] === 'true';
      // Refused before a byte is read: a declared size past the bucket's limit or the user's quota,
      // and a name the policies do not let this user write.
      const declared = Number(request.headers['content-length']);
      const multipart = /^multipart\/form-data/i.test(request.headers['content-type'] ?? '');
      const fileBytes = Number.isFinite(declared) ? Math.max(0, declared - (multipart ? MULTIPART_OVERHEAD : 0)) : 0;
      if (fileBytes > bucket.maxBytes) throw storageErrors.entityTooLarge();
      await checkMayWrite(ctx.db, claims, bucketId, name);
      await checkQuota(ctx.db, claims.sub, fileBytes, storage.quotaBytes);

      const received = store.tempPath();
      const temporary = [received];
      try {
        const body = await uploadBody(request);
        await receive(body.file, received, bucket.maxBytes);
        const accepted = await accept(received, bucket, {
          declaredType: body.declaredType,
          cacheControl: cacheControlOf(body.cacheControl),
          tempPath: store.tempPath,
        });
        temporary.push(...accepted.temporaryPaths);
        const { id } = await storeObject(claims, bucketId, name, upsert, accepted);
        return { Id: id, Key: `${bucketId}/${name}` };
      } finally {
        await Promise.all(temporary.map((file) => fsp.rm(file, { force: true })));
      }
    };
    uploads.post('/object/:bucket/*', { config: { rawBody: true } }, upload('create'));
    uploads.put('/object/:bucket/*', { config: { rawBody: true } }, upload('update'));
  });

  await app.register(resumableRoutes, { storage, storeObject });

  /** An object read by the server itself (a signed URL is the permission). */
  async function readServerSide(bucketId: string, name: string): Promise<ObjectRow | undefined> {
    return ctx.db.asService(async (tx) => {
      const { rows } = await tx.query<ObjectRow>(
        `select id, name, bucket_id, owner, owner_id, version, created_at, updated_at, last_accessed_at, metadata, user_metadata
           from storage.objects where bucket_id = $1 and name = $2`,
        [bucketId, name],
      );
      return rows[0];
    });
  }

  /**
   * Keeps an accepted file: its row written as the user (policies, quota, upsert) in one transaction
   * with moving the file in; if the row is refused or the commit fails, the moved files go again.
   * The replaced version's files go once the new row is committed.
   */
  async function storeObject(
    claims: Parameters<typeof writeObject>[1],
    bucketId: string,
    name: string,
    upsert: boolean,
    accepted: Awaited<ReturnType<typeof accept>>,
  ): Promise<{ id: string }> {
    const version = randomUUID();
    const keys = [`${bucketId}/${version}`, `${bucketId}/${version}.thumb`];
    let result: Awaited<ReturnType<typeof writeObject>>;
    try {
      result = await writeObject(
        ctx.db,
        claims,
        { bucketId, name, version, metadata: accepted.metadata, upsert, quotaBytes: storage.quotaBytes },
        async () => {
          await store.put(keys[0]!, accepted.path);
          if (accepted.thumbnailPath) await store.put(keys[1]!, accepted.thumbnailPath);
        },
      );
    } catch (err) {
      await store.remove(keys);
      throw err;
    }
    if (result.replacedVersion) {
      await store.remove([`${bucketId}/${result.replacedVersion}`, `${bucketId}/${result.replacedVersion}.thumb`]);
    }
    return { id: result.id };
  }
}

export type StoreObject = (
  claims: Parameters<typeof writeObject>[1],
  bucketId: string,
  name: string,
  upsert: boolean,
  accepted: Awaited<ReturnType<typeof accept>>,
) => Promise<{ id: string }>;

/** Room a multipart body takes beyond its file (boundaries, part headers, the cacheControl field). */
const MULTIPART_OVERHEAD = 16 * 1024;

function safeName(name: string): string | undefined {
  try {
    return checkedObjectName(name);
  } catch {
    return undefined;
  }
}

/** A single `Range: bytes=…` of a file of `size` bytes; undefined for none (or one not understood). */
function byteRange(
  header: string | undefined,
  size: number,
): { start: number; end: number } | 'unsatisfiable' | undefined {
  const match = header ? /^bytes=(\d*)-(\d*)$/.exec(header.trim()) : null;
  if (!match || (match[1] === '' && match[2] === '')) return undefined;
  let start: number;
  let end: number;
  if (match[1] === '') {
    start = Math.max(0, size - Number(match[2]));
    end = size - 1;
  } else {
    start = Number(match[1]);
    end = match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1);
  }
  if (start > end || start >= size) return 'unsatisfiable';
  return { start, end };
}
