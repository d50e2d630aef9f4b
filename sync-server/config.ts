import path from 'node:path';
import { z } from 'zod';
import type { PushEndpointPolicy } from './push/push-endpoint.ts';
import { DEFAULT_QUOTA_BYTES_PER_USER } from '../src/domain/files.ts';
import { DEFAULT_DEVICE_DEALS, MAX_DEVICE_DEALS } from '../src/domain/collections/protocol.ts';

/**
 * Everything the server reads from the environment, validated once at start-up.
 * With nothing set, Pacta runs on an embedded Postgres with local auth (the "embedded default").
 */
const envSchema = z.object({
  /**
   * Unset: `development` on a developer's machine (no DATABASE_URL, loopback HOST), `deployment`
   * otherwise. `development` with DATABASE_URL or a non-loopback HOST is refused; `deployment` on the
   * embedded Postgres tries a deployment's checks on a laptop.
   */
  PACTA_MODE: z.enum(['development', 'deployment']).optional(),
  PORT: z.coerce.number().int().min(0).max(65535).default(8787),
  HOST: z.string().default('127.0.0.1'),
  /** Public origin the browser uses; e-mail links and JWT `iss` derive from it. */
  PUBLIC_URL: z.string().url().optional(),
  /** Unset: start an embedded Postgres 17. Set: use that Postgres (15+, hosted Supabase included). */
  DATABASE_URL: z.string().optional(),
  DATA_DIR: z.string().default('.data'),
  EMBEDDED_PG_PORT: z.coerce.number().int().default(54329),
  /** Set to a hosted project's URL to verify its tokens instead of serving local auth. */
  SUPABASE_URL: z.string().url().optional(),
  SUPABASE_ANON_KEY: z.string().optional(),
  ACCESS_TOKEN_TTL_SECONDS: z.coerce.number().int().positive().default(3600),
  EMAIL_CONFIRMATION: z.enum(['on', 'off']).default('on'),
  /**
   * A session connection to the same Postgres (never through a transaction pooler): LISTEN and
   * migrations. Set it when DATABASE_URL points at a pooler in transaction mode; unset, DATABASE_URL
   * serves both.
   */
  DATABASE_DIRECT_URL: z.string().optional(),
  /** Change streams one user may hold open on one instance (tabs and devices); past it: 429. */
  SYNC_STREAMS_PER_USER: z.coerce.number().int().positive().default(10),
  /** Local auth abuse limits (sliding windows kept in Postgres, so they hold across instances). */
  AUTH_RATE_LIMIT_WINDOW_SECONDS: z.coerce.number().int().positive().default(300),
  AUTH_RATE_LIMIT_SIGN_IN_PER_IP: z.coerce.number().int().positive().default(30),
  AUTH_RATE_LIMIT_SIGN_UP_PER_IP: z.coerce.number().int().positive().default(30),
  AUTH_RATE_LIMIT_EMAIL_PER_IP: z.coerce.number().int().positive().default(30),
  /** Contact form: messages one IP address may send per window (counted in Postgres, across instances). */
  CONTACT_RATE_LIMIT_PER_IP: z.coerce.number().int().positive().default(5),
  CONTACT_RATE_LIMIT_WINDOW_SECONDS: z.coerce.number().int().positive().default(3600),
  SEARCH_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().positive().default(120),
  /** The deals a device holds (its working set) when it asks for no other number. */
  DEVICE_DEALS_LIMIT: z.coerce.number().int().positive().max(MAX_DEVICE_DEALS).default(DEFAULT_DEVICE_DEALS),
  /** Minimum gap between two auth e-mails to one address (GoTrue's SMTP max frequency). */
  AUTH_EMAIL_MIN_INTERVAL_SECONDS: z.coerce.number().int().min(0).default(60),
  AUTH_OTP_TTL_SECONDS: z.coerce.number().int().positive().default(3600),
  /** A just-rotated refresh token stays usable this long (concurrent tabs), as GoTrue's reuse interval. */
  AUTH_REFRESH_TOKEN_REUSE_INTERVAL_SECONDS: z.coerce.number().int().min(0).default(10),
  /** Account-flow safety of the local auth (limits per IP and address, one-time codes, password changes). */
  AUTH_RATE_LIMIT_SIGN_IN_PER_IP_AND_EMAIL: z.coerce.number().int().positive().default(10),
  AUTH_RATE_LIMIT_VERIFY_PER_IP: z.coerce.number().int().positive().default(30),
  AUTH_RATE_LIMIT_VERIFY_PER_EMAIL: z.coerce.number().int().positive().default(10),
  AUTH_OTP_CODE_TTL_SECONDS: z.coerce.number().int().positive().default(600),
  AUTH_OTP_MAX_FAILED_ATTEMPTS: z.coerce.number().int().positive().default(5),
  AUTH_PASSWORD_CHANGE_RECENT_SIGN_IN_SECONDS: z.coerce.number().int().min(0).default(600),
  SMTP_URL: z.string().optional(),
  SMTP_FROM: z.string().default('Pacta <no-reply@pacta.local>'),
  TOMBSTONE_HORIZON_DAYS: z.coerce.number().positive().default(30),
  /** Web Push signing keys (base64url, as `npx web-push generate-vapid-keys` prints). Unset: made on first start, kept in the database. */
  VAPID_PUBLIC_KEY: z.string().optional(),
  VAPID_PRIVATE_KEY: z.string().optional(),
  /** Contact push services may use (mailto: or https:). */
  VAPID_SUBJECT: z.string().optional(),
  /** Real Stripe: the secret key and the webhook endpoint's signing secret. Unset in development: the local Stripe runs. */
  STRIPE_SECRET_KEY: z.string().optional(),
  STRIPE_WEBHOOK_SECRET: z.string().optional(),
  /** Another Stripe-compatible API origin (the local Stripe), e.g. http://127.0.0.1:12111. */
  STRIPE_API_BASE: z.string().url().optional(),
  /** Port of the local Stripe `npm start` runs in development when STRIPE_SECRET_KEY is unset (0: any free port). */
  LOCAL_STRIPE_PORT: z.coerce.number().int().min(0).max(65535).default(0),
  /** Serve Prometheus metrics (GET /metrics) on this port, apart from the public one. Unset: no metrics. */
  METRICS_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  /** The metrics port's address: loopback unless the scraper reaches the instance over a private network. */
  METRICS_HOST: z.string().default('127.0.0.1'),
  /**
   * on: a proxy in front of Pacta sets X-Request-Id (replacing any a client sent), and Pacta uses it as
   * the request's id. off (default): Pacta makes its own for every request.
   */
  TRUST_REQUEST_ID: z.enum(['on', 'off']).default('off'),
  /** `off`: no Stripe at all; every money route answers 503 and the app says payments are unavailable. */
  PAYMENTS: z.enum(['on', 'off']).default('on'),
  /**
   * Fastify's trustProxy: comma-separated addresses or CIDRs of the proxies in front (or `loopback`,
   * `uniquelocal`…), or `true` when every peer is a proxy you run. Unset: the socket's address.
   */
  TRUST_PROXY: z
    .string()
    .refine(
      (v) => !/^\s*\d+\s*$/.test(v),
      "a hop count is not trusted by Fastify: name the proxies' addresses or CIDRs",
    )
    .optional(),
  /** Longest a client may take to send a whole request (headers and body); an open response is not bounded. */
  REQUEST_TIMEOUT_SECONDS: z.coerce.number().positive().default(30),
  /** Longest a client may take to send the request line and headers (at most REQUEST_TIMEOUT_SECONDS). */
  HEADERS_TIMEOUT_SECONDS: z.coerce.number().positive().default(10),
  /** An idle kept-alive connection is closed after this long (above a load balancer's own idle timeout). */
  KEEP_ALIVE_TIMEOUT_SECONDS: z.coerce.number().positive().default(72),
  /** Where uploaded files live with Pacta's own storage (local auth). Unset: DATA_DIR/storage. */
  STORAGE_DIR: z.string().optional(),
  /** All the files one user may keep, in megabytes (every bucket together). */
  STORAGE_QUOTA_MB: z.coerce
    .number()
    .positive()
    .default(DEFAULT_QUOTA_BYTES_PER_USER / (1024 * 1024)),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Where the log goes: a file path, or `-` for standard output. */
  LOG_FILE: z.string().optional(),
});

/**
 * `development`: a developer's machine, with its conveniences (the dev mailbox, the local Stripe, demo
 * data and logins, loopback redirect targets). `deployment`: none of them, and `npm start` refuses to
 * start without what a public server needs (see `deploymentProblems` in startup-checks.ts).
 */
export type ServerMode = 'development' | 'deployment';

export type ServerConfig = {
  /** Set from the environment by loadConfig; servers built by tests set it directly. */
  mode: ServerMode;
  port: number;
  host: string;
  publicUrl: string;
  databaseUrl: string | undefined;
  /** Session connections (LISTEN, migrations); undefined: `databaseUrl` keeps sessions and serves both. */
  databaseDirectUrl: string | undefined;
  streamsPerUser: number;
  dataDir: string;
  embeddedPgPort: number;
  /** Local mode serves /auth/v1 itself; hosted mode trusts the Supabase project's JWKS. */
  auth:
    | {
        mode: 'local';
        accessTokenTtlSeconds: number;
        emailConfirmation: boolean;
        rateLimits: AuthRateLimits;
        otpTtlSeconds: number;
        refreshTokenReuseIntervalSeconds: number;
        accountSafety: AccountSafety;
      }
    | { mode: 'hosted'; supabaseUrl: string; anonKey: string | undefined };
  smtp: { url: string; from: string } | undefined;
  contactRateLimit: { perIp: number; windowSeconds: number };
  /** Searches (`/api/search/*`) one account may run per minute. */
  searchRateLimitPerMinute: number;
  /** The working set's limit: the deals a device holds (sync-server/sync/working-set.ts). */
  deviceDealsLimit: number;
  tombstoneHorizonDays: number;
  push: {
    publicKey: string | undefined;
    privateKey: string | undefined;
    subject: string;
    /** Always none outside tests (no setting reads it): see PushEndpointPolicy. */
    endpointPolicy: PushEndpointPolicy;
  };
  /**
   * Files. `disk`: Pacta serves `/storage/v1` itself (Supabase Storage's API) and keeps the files in
   * `dir`. `hosted`: with a hosted Supabase (SUPABASE_URL) the app uses that project's own Storage and
   * Pacta serves no `/storage/v1` (its tokens are the project's, which only its Storage accepts).
   */
  storage: { mode: 'disk'; dir: string; quotaBytesPerUser: number } | { mode: 'hosted' };
  logLevel: z.infer<typeof envSchema>['LOG_LEVEL'];
  /** Where GET /metrics is served (never on the public port); undefined: not served. */
  metrics: { host: string; port: number } | undefined;
  /** Take a request's id from the X-Request-Id a trusted proxy sets (else one is made per request). */
  trustRequestId: boolean;
  /**
   * `npm start`'s log: a file (the console then shows only warnings and errors, so the start banner
   * stays readable) or `-` for standard output. Servers built by tests log where the test says.
   */
  logFile?: string;
  /** Folder of the built PWA to serve, if any. */
  staticDir: string | undefined;
  /** Stripe (real or the local stand-in); undefined: the money endpoints answer 503. */
  stripe: StripeSettings | undefined;
  localStripePort: number;
  /** `off`: switched off on purpose (PAYMENTS=off): no Stripe, not even the local one. */
  payments: 'on' | 'off';
  /** Which proxies' X-Forwarded-For to believe (Fastify's trustProxy); false: the socket's address. */
  trustProxy: boolean | string;
  /** Node's request, headers and keep-alive timeouts, in milliseconds. */
  timeouts: { requestMs: number; headersMs: number; keepAliveMs: number };
};

export type StripeSettings = {
  secretKey: string;
  webhookSecret: string;
  /** stripe-node's host/port/protocol come from it; unset: api.stripe.com. */
  apiBase: string | undefined;
};

export type AuthRateLimits = {
  windowSeconds: number;
  signInPerIp: number;
  signUpPerIp: number;
  /** Recover and resend requests together. */
  emailPerIp: number;
  emailMinIntervalSeconds: number;
};

/** Limits and lifetimes of the local auth's account flows (see docs/decisions/021). */
export type AccountSafety = {
  /** Password sign-ins per (client IP, address): one client cannot lock the address out for others. */
  signInPerIpAndEmail: number;
  /** `/verify` requests per client IP, and per address (typed codes and found tokens). */
  verifyPerIp: number;
  verifyPerEmail: number;
  /** Lifetime of the typed six-digit code; the link lives `otpTtlSeconds`. */
  otpCodeTtlSeconds: number;
  /** Wrong codes after which a pending code is dead. */
  otpMaxFailedAttempts: number;
  /** A session this young may change its password without the current one (0: always ask). */
  passwordChangeRecentSignInSeconds: number;
};

export function loadConfig(env: NodeJS.ProcessEnv = process.env): ServerConfig {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new Error(`Invalid configuration: ${problems}`);
  }
  const e = parsed.data;
  if (Boolean(e.STRIPE_SECRET_KEY) !== Boolean(e.STRIPE_WEBHOOK_SECRET)) {
    throw new Error(
      'Invalid configuration: STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET go together (see README, "Real Stripe").',
    );
  }
  const mode: ServerMode = e.PACTA_MODE ?? (!e.DATABASE_URL && isLoopbackHost(e.HOST) ? 'development' : 'deployment');
  if (mode === 'development' && (e.DATABASE_URL || !isLoopbackHost(e.HOST))) {
    throw new Error(
      `Invalid configuration: PACTA_MODE=development is for a developer's machine only: it cannot be combined with ${
        e.DATABASE_URL ? 'DATABASE_URL' : `HOST=${e.HOST} (not a loopback address)`
      }. Its dev mailbox shows every account's sign-in links. Unset PACTA_MODE to deploy (see README, "Deploying").`,
    );
  }
  if (e.HEADERS_TIMEOUT_SECONDS > e.REQUEST_TIMEOUT_SECONDS) {
    throw new Error('Invalid configuration: HEADERS_TIMEOUT_SECONDS cannot be longer than REQUEST_TIMEOUT_SECONDS.');
  }
  const publicUrl = (e.PUBLIC_URL ?? `http://${e.HOST === '0.0.0.0' ? 'localhost' : e.HOST}:${e.PORT}`).replace(
    /\/$/,
    '',
  );
  return {
    mode,
    port: e.PORT,
    host: e.HOST,
    publicUrl,
    databaseUrl: e.DATABASE_URL || undefined,
    databaseDirectUrl: (e.DATABASE_URL && e.DATABASE_DIRECT_URL) || undefined,
    streamsPerUser: e.SYNC_STREAMS_PER_USER,
    dataDir: path.resolve(e.DATA_DIR),
    embeddedPgPort: e.EMBEDDED_PG_PORT,
    auth: e.SUPABASE_URL
      ? { mode: 'hosted', supabaseUrl: e.SUPABASE_URL.replace(/\/$/, ''), anonKey: e.SUPABASE_ANON_KEY }
      : {
          mode: 'local',
          accessTokenTtlSeconds: e.ACCESS_TOKEN_TTL_SECONDS,
          emailConfirmation: e.EMAIL_CONFIRMATION === 'on',
          rateLimits: {
            windowSeconds: e.AUTH_RATE_LIMIT_WINDOW_SECONDS,
            signInPerIp: e.AUTH_RATE_LIMIT_SIGN_IN_PER_IP,
            signUpPerIp: e.AUTH_RATE_LIMIT_SIGN_UP_PER_IP,
            emailPerIp: e.AUTH_RATE_LIMIT_EMAIL_PER_IP,
            emailMinIntervalSeconds: e.AUTH_EMAIL_MIN_INTERVAL_SECONDS,
          },
          otpTtlSeconds: e.AUTH_OTP_TTL_SECONDS,
          refreshTokenReuseIntervalSeconds: e.AUTH_REFRESH_TOKEN_REUSE_INTERVAL_SECONDS,
          accountSafety: {
            signInPerIpAndEmail: e.AUTH_RATE_LIMIT_SIGN_IN_PER_IP_AND_EMAIL,
            verifyPerIp: e.AUTH_RATE_LIMIT_VERIFY_PER_IP,
            verifyPerEmail: e.AUTH_RATE_LIMIT_VERIFY_PER_EMAIL,
            otpCodeTtlSeconds: e.AUTH_OTP_CODE_TTL_SECONDS,
            otpMaxFailedAttempts: e.AUTH_OTP_MAX_FAILED_ATTEMPTS,
            passwordChangeRecentSignInSeconds: e.AUTH_PASSWORD_CHANGE_RECENT_SIGN_IN_SECONDS,
          },
        },
    smtp: e.SMTP_URL ? { url: e.SMTP_URL, from: e.SMTP_FROM } : undefined,
    contactRateLimit: { perIp: e.CONTACT_RATE_LIMIT_PER_IP, windowSeconds: e.CONTACT_RATE_LIMIT_WINDOW_SECONDS },
    searchRateLimitPerMinute: e.SEARCH_RATE_LIMIT_PER_MINUTE,
    deviceDealsLimit: e.DEVICE_DEALS_LIMIT,
    tombstoneHorizonDays: e.TOMBSTONE_HORIZON_DAYS,
    push: {
      publicKey: e.VAPID_PUBLIC_KEY || undefined,
      privateKey: e.VAPID_PRIVATE_KEY || undefined,
      subject:
        e.VAPID_SUBJECT ??
        (/^https:\/\/(?!localhost[:/]|127\.)/.test(publicUrl) ? publicUrl : 'mailto:push@pacta.local'),
      endpointPolicy: { trustedOrigins: [] },
    },
    storage: e.SUPABASE_URL
      ? { mode: 'hosted' }
      : {
          mode: 'disk',
          dir: path.resolve(e.STORAGE_DIR || path.join(e.DATA_DIR, 'storage')),
          quotaBytesPerUser: Math.floor(e.STORAGE_QUOTA_MB * 1024 * 1024),
        },
    logLevel: e.LOG_LEVEL,
    trustRequestId: e.TRUST_REQUEST_ID === 'on',
    metrics: e.METRICS_PORT === undefined ? undefined : { host: e.METRICS_HOST, port: e.METRICS_PORT },
    // Embedded (a developer's machine): a file beside the data. With DATABASE_URL (a deployment):
    // standard output, where container platforms collect logs.
    logFile:
      e.LOG_FILE === '-' || (!e.LOG_FILE && e.DATABASE_URL)
        ? '-'
        : path.resolve(e.LOG_FILE || path.join(e.DATA_DIR, 'server.log')),
    staticDir: path.resolve('dist'),
    stripe:
      e.PAYMENTS === 'on' && e.STRIPE_SECRET_KEY && e.STRIPE_WEBHOOK_SECRET
        ? { secretKey: e.STRIPE_SECRET_KEY, webhookSecret: e.STRIPE_WEBHOOK_SECRET, apiBase: e.STRIPE_API_BASE }
        : undefined,
    localStripePort: e.LOCAL_STRIPE_PORT,
    payments: e.PAYMENTS,
    trustProxy: parseTrustProxy(e.TRUST_PROXY),
    timeouts: {
      requestMs: e.REQUEST_TIMEOUT_SECONDS * 1000,
      headersMs: e.HEADERS_TIMEOUT_SECONDS * 1000,
      keepAliveMs: e.KEEP_ALIVE_TIMEOUT_SECONDS * 1000,
    },
  };
}

/** An address only this machine can reach (a server listening there serves no one else). */
export function isLoopbackHost(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  return h === 'localhost' || h === '::1' || /^127(\.\d{1,3}){3}$/.test(h);
}

function parseTrustProxy(value: string | undefined): boolean | string {
  const v = value?.trim();
  if (!v || v === 'false') return false;
  return v === 'true' ? true : v;
}
