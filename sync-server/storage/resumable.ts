import fsp from 'node:fs/promises';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { EVENTS, Server, type Upload } from '@tus/server';
import { FileStore } from '@tus/file-store';
import type { JwtClaims } from '../db/database.ts';
import { accept, cacheControlOf } from './ingest.ts';
import { checkedObjectName } from './object-names.ts';
import { checkMayWrite, checkQuota, findBucket, readObject } from './objects.ts';
import { writerOf } from './requester.ts';
import { StorageError, storageErrors } from './storage-errors.ts';
import type { StorageContext } from './storage-service.ts';
import type { StoreObject } from './routes.ts';
import { createUploadLocker } from './upload-locks.ts';

const PATH = '/storage/v1/upload/resumable';
const DAY_MS = 24 * 60 * 60 * 1000;

/** The largest upload any bucket takes; each bucket's own limit is checked when the upload is created. */
const MAX_UPLOAD_BYTES = 1024 * 1024 * 1024;

/**
 * Resumable uploads as Supabase Storage speaks them: TUS at `/storage/v1/upload/resumable`, the
 * object named by the upload's metadata (`bucketName`, `objectName`, `contentType`, `cacheControl`)
 * and replaced only with `x-upsert: true`. The protocol is @tus/server's, its bytes collected by
 * @tus/file-store under the storage folder. Pacta adds: every request carries the user's token and
 * only the user who created an upload may resume, inspect or cancel it; the bucket, the name, the
 * policies, the size and the quota are checked when the upload is created (before any byte), and
 * when the last byte arrives the file goes through the same checks and processing as a simple upload.
 */
export async function resumableRoutes(
  app: FastifyInstance,
  { storage, storeObject }: { storage: StorageContext; storeObject: StoreObject },
): Promise<void> {
  const { ctx } = storage;
  const requesters = new WeakMap<object, JwtClaims>();
  // An upload left unfinished for a day is dropped (its bytes count toward no quota while it waits).
  const datastore = new FinishedInCreationStore({
    directory: storage.resumableDir,
    expirationPeriodInMilliseconds: DAY_MS,
  });
  const claimsOf = (req: { runtime?: { node?: { req: object } } }): JwtClaims => {
    const node = req.runtime?.node?.req;
    const claims = node && requesters.get(node);
    if (!claims) throw storageErrors.accessDenied('Sign in to upload files');
    return claims;
  };
  const asTusError = (err: StorageError) => ({
    status_code: err.status,
    body: JSON.stringify({ statusCode: String(err.status), code: err.code, error: err.code, message: err.message }),
  });

  // One request at a time per upload on every instance: the lock lives in Postgres, not in memory.
  const locker = createUploadLocker({
    connectionString: ctx.db.sessionUrl,
    busy: asTusError(storageErrors.uploadBusy()),
    onListenError: (err) => app.log.warn({ err }, 'upload lock listener lost its connection'),
  });
  app.addHook('onClose', () => locker.close());

  const tus = new Server({
    path: PATH,
    datastore,
    locker,
    relativeLocation: true,
    maxSize: MAX_UPLOAD_BYTES,
    namingFunction: () => randomUUID(),
    // The app and its API share one origin; nothing else may drive uploads from a browser.
    allowedOrigins: [ctx.config.publicUrl],
    async onIncomingRequest(req, id) {
      const claims = claimsOf(req);
      if (req.method === 'POST') return;
      // An upload is its creator's alone: anyone else is told it does not exist.
      const upload = await datastore.getUpload(id).catch(() => undefined);
      if (!upload || upload.metadata?.owner !== claims.sub) throw asTusError(storageErrors.noSuchKey());
    },
    async onUploadCreate(req, upload) {
      const claims = claimsOf(req);
      const meta = upload.metadata ?? {};
      if (upload.sizeIsDeferred || upload.size === undefined) {
        throw asTusError(storageErrors.invalidRequest('Upload-Length is required'));
      }
      try {
        const bucket = await findBucket(ctx.db, meta.bucketName ?? '');
        const name = checkedObjectName(meta.objectName ?? '');
        if (upload.size > bucket.maxBytes) throw storageErrors.entityTooLarge();
        const upsert = req.headers.get('x-upsert') === 'true';
        // Told now rather than after the last byte: the name is taken and the upload would not replace it.
        if (!upsert && (await readObject(ctx.db, claims, bucket.id, name))) throw storageErrors.alreadyExists();
        await checkMayWrite(ctx.db, claims, bucket.id, name);
        await checkQuota(ctx.db, claims.sub, upload.size, storage.quotaBytes);
      } catch (err) {
        if (err instanceof StorageError) throw asTusError(err);
        throw err;
      }
      return {
        metadata: { ...meta, owner: claims.sub, upsert: req.headers.get('x-upsert') === 'true' ? 'true' : 'false' },
      };
    },
    async onUploadFinish(req, upload) {
      const claims = claimsOf(req);
      try {
        await finish(claims, upload);
      } catch (err) {
        if (err instanceof StorageError) throw asTusError(err);
        throw err;
      } finally {
        // Whether kept or refused, the upload is over: its bytes (unless moved into the store) and its record go.
        await fsp.rm(path.join(storage.resumableDir, upload.id), { force: true });
        await datastore.configstore.delete(upload.id);
      }
      if (req.method === 'POST') datastore.finishedInCreation.set(upload.id, upload);
      return {};
    },
  });
  // The creation's answer is written: the finished upload need not be read any more.
  tus.on(EVENTS.POST_FINISH, (_req, _res, upload) => datastore.finishedInCreation.delete(upload.id));

  /** The whole file is here: the same checks and processing as a simple upload, then stored. */
  async function finish(claims: JwtClaims, upload: Upload): Promise<void> {
    const meta = upload.metadata ?? {};
    const bucket = await findBucket(ctx.db, meta.bucketName ?? '');
    const name = checkedObjectName(meta.objectName ?? '');
    const received = path.join(storage.resumableDir, upload.id);
    const accepted = await accept(received, bucket, {
      declaredType: meta.contentType ?? undefined,
      cacheControl: cacheControlOf(meta.cacheControl ?? undefined),
      tempPath: storage.store.tempPath,
    });
    try {
      await storeObject(claims, bucket.id, name, meta.upsert === 'true', accepted);
    } finally {
      await Promise.all(accepted.temporaryPaths.map((file) => fsp.rm(file, { force: true })));
    }
  }

  const sweep = setInterval(() => void tus.cleanUpExpiredUploads().catch(() => {}), 60 * 60 * 1000);
  sweep.unref();
  app.addHook('onClose', async () => clearInterval(sweep));

  // TUS reads its own bodies (PATCH sends application/offset+octet-stream), as streams.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, _payload, done) => done(null));
  const handle = async (request: FastifyRequest, reply: FastifyReply) => {
    if (request.method !== 'OPTIONS') requesters.set(request.raw, await writerOf(ctx, request));
    reply.hijack();
    await tus.handle(request.raw, reply.raw);
  };
  for (const url of ['/upload/resumable', '/upload/resumable/:id']) {
    app.route({
      method: ['POST', 'HEAD', 'PATCH', 'DELETE', 'OPTIONS'],
      url,
      config: { rawBody: true },
      handler: handle,
    });
  }
}

/**
 * A FileStore that still answers for an upload finished by its creation request (tus-js-client's
 * `uploadDataDuringCreation`: a POST carrying the whole file). @tus/server reads such an upload back
 * after onUploadFinish, to decide whether to send Upload-Expires, and onUploadFinish has already moved
 * its bytes into the object store and dropped its record: without this the stored file's creation was
 * answered 404. The finished upload is kept in memory only until that answer is written.
 */
class FinishedInCreationStore extends FileStore {
  readonly finishedInCreation = new Map<string, Upload>();

  override async getUpload(id: string): Promise<Upload> {
    return this.finishedInCreation.get(id) ?? super.getUpload(id);
  }
}
