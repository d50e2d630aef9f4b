import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { safeText } from '../http/input-limits.ts';
import { validationFailed } from './errors.ts';
import type { ClientInfo } from './sessions.ts';

/**
 * Request bodies of the auth routes, validated with zod like every other route. Messages are GoTrue's
 * own where supabase-js users may see them; a refused body is 400 `validation_failed`.
 */
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The pragmatic shape GoTrue accepts: something@domain.tld, no spaces, at most 255 characters; lower-cased. */
const email = z
  .string({ error: 'An email address is required' })
  .trim()
  .min(1, 'An email address is required')
  .max(255, 'Unable to validate email address: invalid format')
  .regex(EMAIL, 'Unable to validate email address: invalid format')
  .transform((value) => value.toLowerCase());

/** Passwords are checked for length by `assertAcceptablePassword` (GoTrue's 422 weak_password). */
const password = z
  .string({ error: 'password must be a string' })
  .max(200, 'Password cannot be longer than 72 characters');

/** `data` (user metadata): a small JSON object, merged into the account's metadata. */
const metadata = z
  .record(safeText(100), z.unknown(), { error: 'data must be an object' })
  .refine((value) => JSON.stringify(value).length <= 16_384, 'data is too large');

const optional = <T extends z.ZodType>(schema: T) => schema.nullish().transform((v) => v ?? undefined);

export const authBodies = {
  signUp: z.object({
    email,
    password: z
      .string({ error: 'Signup requires a valid password' })
      .min(1, 'Signup requires a valid password')
      .pipe(password),
    data: optional(metadata),
  }),
  passwordGrant: z.object({ email: optional(safeText(320)), password: optional(password) }),
  refreshGrant: z.object({
    refresh_token: z.string({ error: 'refresh_token required' }).min(1, 'refresh_token required').max(200),
  }),
  updateUser: z.object({
    email: optional(safeText(320)),
    password: optional(password),
    current_password: optional(password),
    data: optional(metadata),
  }),
  recover: z.object({ email }),
  resend: z.object({
    type: z.enum(['signup', 'email_change', 'sms', 'phone_change'], {
      error: 'Missing one of these types: signup, email_change, sms, phone_change',
    }),
    email,
  }),
  verify: z.object({
    type: z
      .string({ error: 'Verify requires a verification type' })
      .min(1, 'Verify requires a verification type')
      .max(40),
    token_hash: optional(safeText(200)),
    token: optional(safeText(200)),
    email: optional(safeText(320)),
  }),
};

/** The request body parsed with `schema`; 400 `validation_failed` with the first problem otherwise. */
export function parseBody<T extends z.ZodType>(request: FastifyRequest, schema: T): z.output<T> {
  const body = request.body ?? {};
  if (typeof body !== 'object' || Array.isArray(body)) throw validationFailed('Request body must be a JSON object');
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw validationFailed(parsed.error.issues[0]?.message ?? 'Invalid request body');
  return parsed.data;
}

export function queryParam(request: FastifyRequest, key: string): string | undefined {
  const value = (request.query as Record<string, unknown> | undefined)?.[key];
  return typeof value === 'string' ? value : undefined;
}

export const clientInfo = (request: FastifyRequest): ClientInfo => ({
  ip: request.ip,
  userAgent: typeof request.headers['user-agent'] === 'string' ? request.headers['user-agent'] : undefined,
});

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * Where an e-mail link may send the browser: the app's own origin (or, in local development, another
 * loopback origin such as Vite's dev server). Anything else falls back to `/auth/callback`, so a
 * crafted link cannot turn the server into an open redirect that carries tokens away.
 */
export function safeRedirect(publicUrl: string, candidate: string | undefined): string {
  const fallback = `${publicUrl}/auth/callback`;
  if (!candidate) return fallback;
  try {
    const target = new URL(candidate);
    const own = new URL(publicUrl);
    if (target.origin === own.origin) return target.toString();
    if (LOOPBACK.has(own.hostname) && LOOPBACK.has(target.hostname) && target.protocol === 'http:')
      return target.toString();
  } catch {
    // not a URL: use the fallback
  }
  return fallback;
}
