import type { FastifyRequest } from 'fastify';
import { validationFailed } from './errors.ts';
import type { ClientInfo } from './sessions.ts';

export type Body = Record<string, unknown>;

export function bodyOf(request: FastifyRequest): Body {
  const body = request.body;
  if (body === undefined || body === null) return {};
  if (typeof body !== 'object' || Array.isArray(body)) throw validationFailed('Request body must be a JSON object');
  return body as Body;
}

/** An optional string field; anything else than a string or absent is a validation error. */
export function optionalString(body: Body, key: string): string | undefined {
  const value = body[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw validationFailed(`${key} must be a string`);
  return value;
}

export function optionalObject(body: Body, key: string): Record<string, unknown> | undefined {
  const value = body[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'object' || Array.isArray(value)) throw validationFailed(`${key} must be an object`);
  if (JSON.stringify(value).length > 16_384) throw validationFailed(`${key} is too large`);
  return value as Record<string, unknown>;
}

// The pragmatic shape GoTrue accepts: something@domain.tld, no spaces, at most 255 characters.
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function requireEmail(body: Body): string {
  const email = optionalString(body, 'email')?.trim();
  if (!email) throw validationFailed('An email address is required');
  if (email.length > 255 || !EMAIL.test(email)) throw validationFailed('Unable to validate email address: invalid format');
  return email.toLowerCase();
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
    if (LOOPBACK.has(own.hostname) && LOOPBACK.has(target.hostname) && target.protocol === 'http:') return target.toString();
  } catch {
    // not a URL: use the fallback
  }
  return fallback;
}
