import type { ServerResponse } from 'node:http';
import { promisify } from 'node:util';
import { constants as zlibConstants, createGzip, gzip, type Gzip } from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../app.ts';
import type { JwtClaims } from '../db/database.ts';
import { HttpError } from '../http/errors.ts';
import {
  checkpointSchema,
  COLLECTION_NAMES,
  DEFAULT_PULL_LIMIT,
  MAX_PULL_LIMIT,
  MAX_DEVICE_DEALS,
  MAX_PUSH_ROWS,
  MIN_SYNC_PROTOCOL_VERSION,
  STREAMED_ROWS_PROTOCOL_VERSION,
  SYNC_PROTOCOL_HEADER,
  SYNC_PROTOCOL_VERSION,
  type PullResponse,
  type SyncCheckpoint,
} from '../../src/domain/collections/index.ts';
import { serverCollection, type ServerCollection } from './collections.ts';
import { streamFreshFeed } from './pull.ts';
import { sharedCatalogPulls } from './shared-catalog-pulls.ts';
import { pushChanges, type PushRow } from './push.ts';
import { startChangeListener } from './change-listener.ts';
import { loadCheckpointSeal } from './checkpoint-seal.ts';
import { createStreamHub } from './stream-hub.ts';
import { STREAMED_CATALOG, streamedCatalogRows } from './streamed-catalog-rows.ts';
import { streamedOwnRows } from './streamed-own-rows.ts';
import { purgeTombstones } from './tombstones.ts';
import { aliveSessions } from '../auth/sessions.ts';

/**
 * The replication protocol (docs/decisions/001-sync-protocol.md):
 *   GET  /sync/v1/:collection/pull?checkpoint=<json>&limit=<n>  → { documents, checkpoint, reset? }
 *   POST /sync/v1/:collection/push  { rows: [{ newDocumentState, assumedMasterState? }] } → { conflicts }
 *   GET  /sync/v1/stream  Server-Sent Events: `hello` on connect, `change` notices, heartbeats.
 * Every request: `X-Pacta-Protocol` (426 below the minimum), then a bearer token (401), then the rest.
 */
export async function syncRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  const claimsOf = new WeakMap<FastifyRequest, JwtClaims>();
  // After a catalog notice every online device pulls from the same checkpoint: those pulls are read together.
  const pullChanges = sharedCatalogPulls(ctx.db);
  const hub = createStreamHub({
    knownCollections: COLLECTION_NAMES,
    onUserGone: (userId) => ownRows.forget(userId),
  });
  const checkpointSeal = await loadCheckpointSeal(ctx.db);
  // A notice of a user's own rows is read once for them, and the rows go in their streams.
  const ownRows = streamedOwnRows({
    db: ctx.db,
    seal: checkpointSeal,
    follows: (userId) => hub.readsRows(userId),
    deliver: (userId, collection, delivery) => {
      ctx.metrics.ownChangeStreamed(collection, 'rows' in delivery ? 'rows' : 'notice');
      if ('rows' in delivery) hub.streamRowsTo(userId, collection, delivery.rows);
      else hub.notifyUser(userId, collection);
    },
    onError: (err) => app.log.warn({ err }, 'could not read the rows of a notice'),
  });
  ctx.metrics.watchOpenStreams(() => hub.size);
  // A catalog notice is read once here, and its rows go in the stream when every reader may see them.
  const streamedRows = new Map(
    STREAMED_CATALOG.map((name) => {
      const rows = streamedCatalogRows(
        ctx.db,
        serverCollection(name)!,
        checkpointSeal,
        (change) => {
          const delivery = 'rows' in change ? 'rows' : 'notice';
          ctx.metrics.catalogueChangeStreamed(name, delivery);
          if ('rows' in change) hub.streamRows(name, change.rows);
          else hub.notify({ collection: name, audience: null });
        },
        (err) => app.log.warn({ err, collection: name }, 'could not read the rows of a catalog notice'),
      );
      rows.notice();
      return [name as string, rows];
    }),
  );
  app.addHook('onClose', async () => streamedRows.forEach((rows) => rows.close()));
  const listener = startChangeListener(ctx.db.session, {
    onNotice: (notice) => {
      ctx.metrics.changeNotice();
      const rows = notice.audience === null ? streamedRows.get(notice.collection) : undefined;
      const own = notice.audience === null ? undefined : participantCollection(notice.collection);
      if (rows) rows.notice();
      else if (own && notice.audience) {
        // The admins read every row of the collection, not a feed of their own: they pull.
        hub.notify({ collection: notice.collection, audience: [] });
        for (const userId of notice.audience) {
          if (hub.readsRows(userId)) ownRows.notice(userId, own);
          else hub.notifyUser(userId, notice.collection);
        }
      } else hub.notify(notice);
    },
    onResync: () => {
      ownRows.forgetAll();
      hub.resyncAll();
      void sweepEndedSessions();
    },
    onError: (err) => app.log.warn({ err }, 'change listener connection problem'),
    onSessionEnded: (sessionId) => hub.endSession(sessionId),
  });
  /**
   * Safety net for an announcement this instance missed (its LISTEN connection was down), and the only
   * way to learn of ended sessions with hosted Supabase (its Auth deletes the `auth.sessions` row and
   * announces nothing): every few seconds, one query for all open streams' sessions, and the streams
   * of sessions that no longer exist are closed — well within 15 s.
   */
  const sweepEndedSessions = async () => {
    const ids = hub.sessionIds();
    if (ids.length === 0) return;
    try {
      const alive = await aliveSessions(ctx.db.pool, ids);
      for (const id of ids) if (!alive.has(id)) hub.endSession(id);
    } catch (err) {
      app.log.warn({ err }, 'could not check the sessions of open change streams');
    }
  };
  const sweep = setInterval(() => void sweepEndedSessions(), 5_000);
  sweep.unref();
  app.addHook('onClose', async () => clearInterval(sweep));
  // Open streams would keep a graceful shutdown waiting forever.
  app.addHook('preClose', async () => hub.closeAll());
  app.addHook('onClose', async () => listener.close());

  const purgeEveryMs = 24 * 3600 * 1000;
  const purge = setInterval(() => {
    purgeTombstones(ctx.db, ctx.config.tombstoneHorizonDays).catch((err) =>
      app.log.error({ err }, 'tombstone purge failed'),
    );
  }, purgeEveryMs);
  purge.unref();
  app.addHook('onClose', async () => clearInterval(purge));

  // Security checks come first, before anything that could reveal what exists.
  app.addHook('onRequest', async (request) => {
    const version = Number(request.headers[SYNC_PROTOCOL_HEADER]);
    if (!Number.isInteger(version) || version < MIN_SYNC_PROTOCOL_VERSION) {
      throw new HttpError(426, 'client_too_old', 'This version of Pacta is out of date. Reload the app to update it.', {
        minimum: MIN_SYNC_PROTOCOL_VERSION,
      });
    }
    claimsOf.set(request, await ctx.authenticate(request));
  });

  const claims = (request: FastifyRequest) => claimsOf.get(request)!;
  /** A page as it goes out: its checkpoint sealed for the user who asked. */
  const sealed = <P extends { checkpoint: SyncCheckpoint | null }>(
    request: FastifyRequest,
    collection: ServerCollection,
    page: P,
  ): P =>
    page.checkpoint
      ? { ...page, checkpoint: checkpointSeal.seal(claims(request).sub, collection.name, page.checkpoint) }
      : page;

  function collectionOf(request: FastifyRequest): ServerCollection {
    const { collection } = request.params as { collection: string };
    const found = serverCollection(collection);
    if (!found) throw new HttpError(404, 'unknown_collection', `There is no collection named ${collection}`);
    return found;
  }

  const pullQuery = z.object({
    checkpoint: z.string().max(2000).optional(),
    limit: z.coerce.number().int().min(1).max(MAX_PULL_LIMIT).default(DEFAULT_PULL_LIMIT),
    /** The deals the device holds at most (its working set), when it asks for another number than the default. */
    set: z.coerce.number().int().min(1).max(MAX_DEVICE_DEALS).optional(),
  });

  app.get('/:collection/pull', async (request, reply) => {
    const collection = collectionOf(request);
    const query = pullQuery.safeParse(request.query);
    if (!query.success) throw validationFailed(query.error);
    let checkpoint = null;
    if (query.data.checkpoint !== undefined && query.data.checkpoint !== 'null') {
      let raw: unknown;
      try {
        raw = JSON.parse(query.data.checkpoint);
      } catch {
        throw new HttpError(400, 'bad_checkpoint', 'checkpoint must be JSON');
      }
      const parsed = checkpointSchema.safeParse(raw);
      if (!parsed.success) throw new HttpError(400, 'bad_checkpoint', z.prettifyError(parsed.error));
      // Twenty digits reach past 2^64: Postgres would refuse such an xid8 in the middle of the pull.
      if (BigInt(parsed.data.xid) > XID8_MAX || BigInt(parsed.data.horizon) > XID8_MAX) {
        throw new HttpError(400, 'bad_checkpoint', 'checkpoint xid and horizon must be below 2^64');
      }
      checkpoint = checkpointSeal.open(claims(request).sub, collection.name, parsed.data);
    }
    const startedAt = performance.now();
    const page = await pullChanges(
      claims(request),
      collection,
      checkpoint,
      query.data.limit,
      query.data.set ?? ctx.config.deviceDealsLimit,
    );
    const queriedAt = performance.now();
    if (collection.spec.scope === 'participant')
      ownRows.pulled(claims(request).sub, collection, page, query.data.limit);
    const encoded = encodedFor(page, claims(request).sub, (unsealed) =>
      unsealed ? checkpointSeal.seal(claims(request).sub, collection.name, unsealed) : null,
    );
    return sendJson(request, reply, encoded, { db: queriedAt - startedAt, json: performance.now() - queriedAt });
  });

  /**
   * A fresh feed in one request: newline-delimited pages (each `{ documents, checkpoint, pending? }`,
   * as a pull answers) read from one snapshot and sent as they are read, so the device writes page n
   * while page n+1 is read and on its way. For a device that holds nothing of the collection yet. The
   * stream stops after SNAPSHOT_BUDGET_MS (the transaction must not stay open for a slow reader); the
   * client pulls on from the last page it received, as after a dropped connection.
   */
  app.get('/:collection/snapshot', async (request, reply) => {
    const collection = collectionOf(request);
    const query = pullQuery.safeParse(request.query);
    if (!query.success) throw validationFailed(query.error);
    const startedAt = performance.now();
    let out: Gzip | ServerResponse | undefined;
    let gone = false;
    await streamFreshFeed(
      ctx.db,
      claims(request),
      collection,
      query.data.limit,
      ctx.config.deviceDealsLimit,
      async (unsealed) => {
        const page = sealed(request, collection, unsealed);
        // Headers go out with the first page: a failure before it is still an ordinary JSON error.
        out ??= startSnapshotResponse(request, reply, () => (gone = true));
        if (gone) return false;
        if (!out.write(`${JSON.stringify(page)}\n`)) await drained(out, reply.raw);
        if ('flush' in out) out.flush(zlibConstants.Z_SYNC_FLUSH);
        return !gone && performance.now() - startedAt < SNAPSHOT_BUDGET_MS;
      },
    ).catch((err: unknown) => {
      if (!out) throw err;
      request.log.warn({ err, collection: collection.name }, 'snapshot stream failed after its first page');
      reply.raw.destroy();
    });
    out?.end();
  });

  app.post('/:collection/push', async (request) => {
    const collection = collectionOf(request);
    if (collection.spec.readOnly) {
      throw new HttpError(403, 'read_only_collection', `${collection.name} is written by the server only`);
    }
    const body = request.body as { rows?: unknown } | null;
    if (body && Array.isArray(body.rows) && body.rows.length > MAX_PUSH_ROWS) {
      throw new HttpError(413, 'too_many_rows', `Push at most ${MAX_PUSH_ROWS} rows per request`);
    }
    const parsed = pushBodySchema(collection).safeParse(body);
    if (!parsed.success) throw validationFailed(parsed.error);
    const conflicts = await pushChanges(
      ctx.db,
      claims(request),
      collection,
      (parsed.data as { rows: PushRow[] }).rows,
      request.log,
    );
    ctx.metrics.rowsRefused(collection.name, conflicts);
    return { conflicts };
  });

  app.get('/stream', async (request, reply) => {
    const user = claims(request);
    const { rows } = await ctx.db.pool.query<{ role: string }>('select role from public.profiles where id = $1', [
      user.sub,
    ]);
    // Checked right before the stream joins the hub (nothing awaited in between), so a burst of
    // concurrent opens cannot all pass it. Each stream holds a socket and a place in every notice's
    // fan-out; one token must not hold any number of them.
    if (hub.countOf(user.sub) >= ctx.config.streamsPerUser) {
      void reply.header('retry-after', String(STREAM_CAP_RETRY_AFTER_SECONDS));
      throw new HttpError(
        429,
        'too_many_streams',
        `At most ${ctx.config.streamsPerUser} live connections per account. Close another tab or device, then try again.`,
      );
    }
    reply.hijack();
    const res = reply.raw;
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    hub.add(res, {
      id: user.sub,
      sessionId: typeof user.session_id === 'string' ? user.session_id : undefined,
      isAdmin: rows[0]?.role === 'admin',
      expiresAt: typeof user.exp === 'number' ? user.exp : undefined,
      protocol: SYNC_PROTOCOL_VERSION,
      readsRows: Number(request.headers[SYNC_PROTOCOL_HEADER]) >= STREAMED_ROWS_PROTOCOL_VERSION,
    });
  });
}

const XID8_MAX = 2n ** 64n - 1n;

/** The collection of a notice when it is one whose rows each belong to their participants. */
function participantCollection(name: string): ServerCollection | undefined {
  const collection = serverCollection(name);
  return collection?.spec.scope === 'participant' ? collection : undefined;
}

/** A client refused a stream tries again after this long (another of its streams may have closed by then). */
const STREAM_CAP_RETRY_AFTER_SECONDS = 30;

/** How long one snapshot stream may keep its read transaction open. */
const SNAPSHOT_BUDGET_MS = 20_000;

function startSnapshotResponse(
  request: FastifyRequest,
  reply: FastifyReply,
  onGone: () => void,
): Gzip | ServerResponse {
  reply.hijack();
  const res = reply.raw;
  const compress = /\bgzip\b/.test(String(request.headers['accept-encoding'] ?? ''));
  res.writeHead(200, {
    'content-type': 'application/x-ndjson; charset=utf-8',
    'cache-control': 'no-store',
    vary: 'accept-encoding',
    ...(compress ? { 'content-encoding': 'gzip' } : {}),
  });
  res.once('close', onGone);
  if (!compress) return res;
  const zipped = createGzip({ level: 1 });
  zipped.pipe(res);
  return zipped;
}

function drained(out: Gzip | ServerResponse, res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      out.off('drain', done);
      res.off('close', done);
      resolve();
    };
    out.once('drain', done);
    res.once('close', done);
  });
}

const gzipAsync = promisify(gzip);
/** Below this a page is sent as it is: compressing a few hundred bytes costs more than it saves. */
const COMPRESS_FROM_BYTES = 8 * 1024;

/**
 * Sends a pull page's JSON, gzip-compressed when the client accepts it (a page of 1,000 deals is
 * about half a megabyte of JSON and shrinks about tenfold; level 1 because the server's CPU is the
 * scarcer resource). `Server-Timing` tells the browser where the server's time went (query, JSON,
 * compression), which the first-sync profile reads from the Resource Timing API.
 */
async function sendJson(
  request: FastifyRequest,
  reply: FastifyReply,
  encoded: EncodedPage,
  spent: Record<string, number>,
): Promise<FastifyReply> {
  let body = encoded.json;
  const accepts = String(request.headers['accept-encoding'] ?? '');
  if (body.length >= COMPRESS_FROM_BYTES && /\bgzip\b/.test(accepts)) {
    const compressStart = performance.now();
    body = await (encoded.gzipped ??= gzipAsync(encoded.json, { level: 1 }));
    spent.gzip = performance.now() - compressStart;
    reply.header('content-encoding', 'gzip');
  }
  reply.header('vary', 'accept-encoding');
  reply.header(
    'server-timing',
    Object.entries(spent)
      .map(([name, ms]) => `${name};dur=${ms.toFixed(1)}`)
      .join(', '),
  );
  return reply.type('application/json; charset=utf-8').send(body);
}

type EncodedPage = { json: Buffer; gzipped?: Promise<Buffer> };
type PageEncodings = { withoutCheckpoint: string; byUser: Map<string, EncodedPage> };
const encodings = new WeakMap<PullResponse<unknown>, PageEncodings>();

/**
 * A pull page's bytes as they go to one user, its checkpoint sealed for them (checkpoint-seal.ts).
 * Pulls read together that see the same rows get the same page object (shared-catalog-pulls.ts):
 * the page without its checkpoint is encoded once for all of them, each user's sealed checkpoint is
 * spliced into those bytes, and each user's bytes (and gzip) are made once for all their devices.
 */
function encodedFor(
  page: PullResponse<unknown>,
  userId: string,
  seal: (checkpoint: SyncCheckpoint | null) => SyncCheckpoint | null,
): EncodedPage {
  let shared = encodings.get(page);
  if (!shared) {
    const { checkpoint: _sealedPerUser, ...rest } = page;
    encodings.set(page, (shared = { withoutCheckpoint: JSON.stringify(rest), byUser: new Map() }));
  }
  let encoded = shared.byUser.get(userId);
  if (!encoded) {
    // `rest` always holds `documents`, so its JSON is `{…}` with at least one member before the splice.
    const json = `${shared.withoutCheckpoint.slice(0, -1)},"checkpoint":${JSON.stringify(seal(page.checkpoint))}}`;
    shared.byUser.set(userId, (encoded = { json: Buffer.from(json) }));
  }
  return encoded;
}

const pushSchemas = new Map<string, z.ZodType>();

function pushBodySchema(collection: ServerCollection): z.ZodType {
  let schema = pushSchemas.get(collection.name);
  if (!schema) {
    const doc = collection.spec.schema.extend({ _deleted: z.boolean().default(false) }).superRefine(withinColumnRange);
    schema = z.object({
      rows: z
        .array(z.object({ newDocumentState: doc, assumedMasterState: doc.optional().nullable() }))
        .max(MAX_PUSH_ROWS),
    });
    pushSchemas.set(collection.name, schema);
  }
  return schema;
}

const INT4_MAX = 2_147_483_647;

/**
 * Numbers must fit their columns before they reach Postgres. The replicated tables hold numbers as
 * `bigint` (money `*_cents`, `version`: bounded to ±2^53 by the input limits), `integer` (counts, xp,
 * levels) or `numeric(6, 4)` / `numeric(3, 2)` (rates, ratings: below 100).
 */
function withinColumnRange(doc: Record<string, unknown>, ctx: z.RefinementCtx): void {
  for (const [field, value] of Object.entries(doc)) {
    if (typeof value !== 'number' || field.endsWith('_cents') || field === 'version') continue;
    const fits = Number.isInteger(value) ? Math.abs(value) <= INT4_MAX : Math.abs(value) < 100;
    if (!fits) ctx.addIssue({ code: 'custom', path: [field], message: `${field} is out of range` });
  }
}

function validationFailed(error: z.ZodError): HttpError {
  return new HttpError(400, 'validation_failed', z.prettifyError(error), {
    issues: error.issues.slice(0, 20).map((i) => ({ path: i.path.join('.'), message: i.message })),
  });
}
