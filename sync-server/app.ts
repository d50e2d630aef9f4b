import fs from 'node:fs';
import path from 'node:path';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import fastifyStatic from '@fastify/static';
import type { DestinationStream } from 'pino';
import type { ServerConfig } from './config.ts';
import type { Database, JwtClaims } from './db/database.ts';
import { HttpError, refusal } from './http/errors.ts';
import { assertSafeInput, clientErrorHandler, INPUT_LIMITS } from './http/input-limits.ts';
import { registerRequestIds, requestIdGenerator, requestIdLogController } from './http/request-id.ts';
import type { Metrics } from './metrics/metrics.ts';
import { registerMetrics } from './metrics/register-metrics.ts';
import { isDatabaseUnavailable } from './db/unavailable.ts';
import {
  createTokenVerifier,
  loadLocalSigner,
  type AccessTokenSigner,
  type AccessTokenVerifier,
} from './auth/tokens.ts';
import { authRoutes } from './auth/routes.ts';
import { createAuthenticator } from './auth/authenticate.ts';
import { decorateClaims } from './auth/signed-in.ts';
import { rememberVerifiedTokens } from './auth/verified-tokens.ts';
import { syncRoutes } from './sync/routes.ts';
import { apiRoutes } from './api/routes.ts';
import { createPayments, type Payments } from './payments/payments.ts';
import { createLiveLinkConfirmations, type LiveLinkConfirmations } from './jobs/live-link-confirmations.ts';
import { createKeptDealsCleanup, type KeptDealsCleanup } from './jobs/kept-deals-cleanup.ts';
import { registerSecurityHeaders } from './http/security-headers.ts';
import { contractRefusal, isResponseSerializationError, useContracts } from './http/contracts.ts';
import { registerOpenApi } from './http/openapi.ts';
import { getHealth } from '../src/domain/contracts/health.ts';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { createDiskStore } from './storage/object-store.ts';
import { storageRoutes } from './storage/routes.ts';
import { loadSignedUrls } from './storage/signed-urls.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The local auth's token signer (undefined with hosted Supabase); tests mint tokens with it. */
    pactaSigner: AccessTokenSigner | undefined;
    /** The same bearer-token check route modules get as `ctx.authenticate` (tests mount probes on it). */
    pactaAuthenticate: AppContext['authenticate'];
    /** Every route registered (method and path), so tests can drive all of them, including future ones. */
    pactaRoutes: { method: string; url: string }[];
    /** The money services (tests run the scheduled jobs and read Stripe through it). */
    pactaPayments: Payments | undefined;
    /** The automatic confirmation of live links, a job of its own (tests run it). */
    pactaLiveLinkConfirmations: LiveLinkConfirmations;
    pactaKeptDealsCleanup: KeptDealsCleanup;
  }
  interface FastifyContextConfig {
    /**
     * The route reads its body as the exact bytes received (a Buffer), so the input limits leave the
     * body to it: the Stripe webhook, whose signature covers those bytes. Size, query and path limits
     * still apply.
     */
    rawBody?: boolean;
  }
}

/** What every route module gets: configuration, the database and token handling. */
export type AppContext = {
  config: ServerConfig;
  db: Database;
  /** Present in local auth mode only: hosted Supabase signs its own tokens. */
  signer: AccessTokenSigner | undefined;
  verifyToken: AccessTokenVerifier;
  /** Verifies the request's bearer token (and, locally, that its session is still alive). 401 otherwise. */
  authenticate(request: FastifyRequest): Promise<JwtClaims>;
  /** Stripe-backed money (subscriptions, escrow, payouts); undefined when Stripe is not configured. */
  payments: Payments | undefined;
  /** This server's metrics (GET /metrics on the metrics port): routes count what only they see. */
  metrics: Metrics;
};

export async function buildServer(
  config: ServerConfig,
  db: Database,
  /** Tests capture the log lines (e.g. to prove no password is ever logged). */
  opts: { logStream?: DestinationStream } = {},
): Promise<FastifyInstance> {
  const app = Fastify({
    logger: {
      level: config.logLevel,
      ...(opts.logStream ? { stream: opts.logStream } : {}),
      // Tokens and passwords never reach the logs.
      redact: ['req.headers.authorization', 'req.headers.apikey', 'req.headers.cookie', '*.password'],
      serializers: {
        // E-mail links carry one-time tokens in the query string (GET /auth/v1/verify?token=…).
        req: (req: { method: string; url: string; ip?: string }) => ({
          method: req.method,
          url: withoutSecrets(req.url),
          remoteAddress: req.ip,
        }),
      },
    },
    // A request id in every log line, every answer's X-Request-Id and every error body (http/request-id.ts).
    requestIdHeader: false,
    genReqId: requestIdGenerator(config.trustRequestId),
    logController: requestIdLogController(),
    bodyLimit: INPUT_LIMITS.maxBodyBytes,
    // Which X-Forwarded-For to believe, so per-IP limits see the client behind a load balancer.
    trustProxy: config.trustProxy,
    // A request must arrive whole within its timeout (a body trickled in a byte at a time holds a
    // socket forever otherwise). These bound receiving the request only: an open /sync/v1/stream
    // response lives on. Node checks them every connectionsCheckingInterval.
    requestTimeout: config.timeouts.requestMs,
    keepAliveTimeout: config.timeouts.keepAliveMs,
    http: {
      requestTimeout: config.timeouts.requestMs,
      headersTimeout: config.timeouts.headersMs,
      connectionsCheckingInterval: Math.min(30_000, Math.max(100, Math.floor(config.timeouts.headersMs / 4))),
    },
    // Node's own refusals (headers too large, an unreadable request) answer JSON { code, message } too.
    clientErrorHandler,
    // A route parameter is an id or a collection name: anything longer is no route.
    routerOptions: { maxParamLength: 200 },
    // Router-level refusals (a malformed URL encoding, an unsupported media type) in the same shape.
    frameworkErrors: (err, _request, reply) => {
      const status = err.statusCode && err.statusCode >= 400 && err.statusCode < 500 ? err.statusCode : 400;
      void (reply as FastifyReply)
        .status(status)
        .send(refusal(status === 415 ? 'unsupported_media_type' : 'bad_request', err.message));
    },
  });

  registerRequestIds(app);
  useContracts(app);
  decorateClaims(app);
  const metrics = registerMetrics(app, db, config.metrics);
  registerSecurityHeaders(app, config);

  const routes: { method: string; url: string }[] = [];
  app.decorate('pactaRoutes', routes);
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) if (method !== 'HEAD') routes.push({ method, url: route.url });
  });

  // Input limits first, before authentication and before any route reads a value.
  app.addHook('onRequest', async (request) => {
    if (request.url.length > INPUT_LIMITS.maxUrlLength) {
      throw new HttpError(
        414,
        'url_too_long',
        `The request URL is longer than ${INPUT_LIMITS.maxUrlLength} characters.`,
      );
    }
  });
  app.addHook('preValidation', async (request) => {
    assertSafeInput(request.query, 'query');
    assertSafeInput(request.params, 'path');
    // A raw-body route checks its body itself (the webhook: signature first, then JSON); walking a
    // Buffer here would read it as an object with one key per byte and refuse every real event.
    if (!request.routeOptions.config?.rawBody) assertSafeInput(request.body, 'body');
  });

  const issuer = config.auth.mode === 'local' ? `${config.publicUrl}/auth/v1` : `${config.auth.supabaseUrl}/auth/v1`;
  const signer =
    config.auth.mode === 'local' ? await loadLocalSigner(db, issuer, config.auth.accessTokenTtlSeconds) : undefined;
  const verifyToken = rememberVerifiedTokens(
    createTokenVerifier({
      issuer,
      jwks: signer ? signer.jwks : new URL(`${issuer}/.well-known/jwks.json`),
    }),
  );
  const ctx: AppContext = {
    config,
    db,
    signer,
    verifyToken,
    authenticate: createAuthenticator({ config, db, verifyToken }),
    payments: config.stripe ? createPayments(config.stripe, config, db, app.log) : undefined,
    metrics,
  };

  app.decorate('pactaSigner', signer);
  app.decorate('pactaAuthenticate', ctx.authenticate);
  app.decorate('pactaPayments', ctx.payments);
  // Runs with payments on or off: the approval window closes either way.
  const confirmations = createLiveLinkConfirmations({ db, log: app.log });
  app.decorate('pactaLiveLinkConfirmations', confirmations);
  app.addHook('onReady', async () => confirmations.start());
  app.addHook('onClose', () => confirmations.stop());
  const keptDealsCleanup = createKeptDealsCleanup({ db, log: app.log });
  app.decorate('pactaKeptDealsCleanup', keptDealsCleanup);
  app.addHook('onReady', async () => keptDealsCleanup.start());
  app.addHook('onClose', () => keptDealsCleanup.stop());
  if (ctx.payments) {
    const payments = ctx.payments;
    // The scheduled money jobs (automatic release, refunds of cancelled deals) live as long as the server.
    app.addHook('onReady', async () => {
      // "One Stripe price per interval created or looked up by lookup key at start" (retried on first use if Stripe is away).
      void payments.prices.ensure().catch((err: unknown) => app.log.warn({ err }, 'Pro prices not ready yet'));
      await payments.jobs.start();
    });
    app.addHook('onClose', () => payments.jobs.stop());
  }

  app.setErrorHandler((thrown, request, reply) => {
    const err = thrown instanceof HttpError ? thrown : (contractRefusal(thrown, request) ?? thrown);
    if (err instanceof HttpError) {
      return reply.status(err.status).send({ code: err.code, message: err.message, ...err.extra });
    }
    const e = err as { statusCode?: number; code?: string; message: string };
    if (e.statusCode && e.statusCode >= 400 && e.statusCode < 500) {
      // Fastify's own parse and size errors (malformed JSON, body too large, bad content type).
      const code =
        e.code === 'FST_ERR_CTP_BODY_TOO_LARGE'
          ? 'payload_too_large'
          : e.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE'
            ? 'unsupported_media_type'
            : 'bad_request';
      return reply.status(e.statusCode).send(refusal(code, e.message));
    }
    if (isResponseSerializationError(err)) {
      // The handler's answer does not match its contract: a bug, never sent half-right to the client.
      request.log.error({ err, issues: err.cause.issues }, 'answer does not match its contract');
      return reply.status(500).send(refusal('internal_error'));
    }
    if (isDatabaseUnavailable(err)) {
      // Postgres restarting or unreachable: the pool reconnects by itself once it is back.
      request.log.warn({ err }, 'database unavailable');
      return reply.status(503).header('retry-after', '5').send(refusal('database_unavailable'));
    }
    request.log.error({ err }, 'unhandled error');
    return reply.status(500).send(refusal('internal_error'));
  });

  // Public: whether Pacta is up and whether it takes payments (the app hides its money buttons when
  // not), and no versions of anything, which would only tell an attacker which flaws to try.
  const payments = ctx.payments ? ('available' as const) : ('unavailable' as const);
  await registerOpenApi(app);
  app.withTypeProvider<ZodTypeProvider>().get('/api/health', { schema: getHealth }, async (_request, reply) => {
    try {
      await db.pool.query('select 1');
      return { status: 'ok' as const, database: { reachable: true as const }, payments };
    } catch {
      return reply
        .status(503)
        .send({ status: 'unavailable' as const, database: { reachable: false as const }, payments });
    }
  });

  if (config.auth.mode === 'local') await app.register(authRoutes, { prefix: '/auth/v1', ctx });
  await app.register(syncRoutes, { prefix: '/sync/v1', ctx });
  // One store of file bytes: the storage routes write it, deleting an account empties the person's part.
  const store = config.storage.mode === 'disk' ? await createDiskStore(config.storage.dir) : undefined;
  await app.register(apiRoutes, { prefix: '/api', ctx, store });
  if (config.storage.mode === 'disk' && store) {
    const storage = {
      ctx,
      store,
      signedUrls: await loadSignedUrls(db),
      quotaBytes: config.storage.quotaBytesPerUser,
      resumableDir: path.join(config.storage.dir, 'resumable'),
    };
    await app.register(storageRoutes, { prefix: '/storage/v1', storage });
  }
  registerApp(app, config);
  return app;
}

/** Serves the built PWA with an SPA fallback: any unknown non-API path gets index.html. */
function registerApp(app: FastifyInstance, config: ServerConfig): void {
  const dir = config.staticDir;
  const index = dir ? path.join(dir, 'index.html') : undefined;
  if (dir && index && fs.existsSync(index)) {
    void app.register(fastifyStatic, { root: dir, wildcard: false, index: false });
  }
  app.setNotFoundHandler((request, reply) => {
    const pathname = request.url.split('?')[0] ?? '';
    const apiPath = /^\/(api|sync|auth\/v1|storage\/v1)(\/|$)/.test(pathname);
    // A missing file (an old build's /assets/*.js) must be a 404, never index.html served as a script.
    const filePath = /\.[a-z0-9]+$/i.test(pathname);
    if (request.method === 'GET' && !apiPath && !filePath && index && fs.existsSync(index)) {
      return reply.type('text/html').header('cache-control', 'no-cache').send(fs.createReadStream(index));
    }
    return reply.status(404).send(refusal('not_found', `No route for ${request.method} ${request.url.split('?')[0]}`));
  });
}

const SECRET_QUERY_PARAMS = /([?&](?:token|token_hash|code|access_token|refresh_token|apikey)=)[^&#]*/gi;
/** A request URL fit for the logs: secret query values replaced. */
export function withoutSecrets(url: string): string {
  return url.replace(SECRET_QUERY_PARAMS, '$1[redacted]');
}
