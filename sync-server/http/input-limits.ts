import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { Socket } from 'node:net';
import { z } from 'zod';
import { HttpError } from './errors.ts';

/**
 * Limits every request meets before any route sees it, whatever the route's own schema says:
 * whatever passes here can be stored by Postgres and encoded back as JSON.
 */
export const INPUT_LIMITS = {
  /** Nesting of objects and arrays in a body (a push row's document sits at depth 3). */
  maxDepth: 12,
  /** Items in any one array (push batches are far smaller; string lists stay short). */
  maxArrayItems: 1_000,
  /** Keys of any one object. */
  maxObjectKeys: 200,
  /** Characters of any one key. */
  maxKeyLength: 100,
  /** Characters of any one string (the longest free text is a brief or a message body). */
  maxStringLength: 100_000,
  /** Characters of the request line's target (path and query). */
  maxUrlLength: 8_192,
  /** Bytes of a request body. */
  maxBodyBytes: 1024 * 1024,
  /** Bytes of the request line plus headers (Node answers 431 above). */
  maxHeaderBytes: 16 * 1024,
} as const;

/**
 * Names of built-in object properties: as keys they could reach an object's prototype in code that
 * copies objects by key, so no request may use them anywhere.
 */
const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * Control characters Postgres cannot store (NUL) or that no form produces (everything below space but
 * tab, line feed and carriage return, plus DEL); lone UTF-16 surrogates are refused separately.
 */
// eslint-disable-next-line no-control-regex
const CONTROL_CHARS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export const invalidInput = (message: string) => new HttpError(400, 'invalid_input', message);

/** A problem with a string's characters, or undefined when it is fine to store. */
export function stringProblem(value: string, maxLength: number = INPUT_LIMITS.maxStringLength): string | undefined {
  if (value.length > maxLength) return `is longer than ${maxLength} characters`;
  if (CONTROL_CHARS.test(value)) return 'contains a control character';
  if (LONE_SURROGATE.test(value)) return 'is not well-formed text';
  return undefined;
}

/**
 * Walks a parsed JSON value (a body, a query) and throws 400 `invalid_input` for anything outside the
 * limits: too deep, too long, too many keys, a built-in property name as a key, a control character,
 * a number that is not a finite number within ±2^53.
 */
export function assertSafeInput(value: unknown, where: string): void {
  walk(value, where, 0);
}

function walk(value: unknown, path: string, depth: number): void {
  if (value === null || value === undefined || typeof value === 'boolean') return;
  if (typeof value === 'string') {
    const problem = stringProblem(value);
    if (problem) throw invalidInput(`${path} ${problem}`);
    return;
  }
  if (typeof value === 'number') {
    if (!Number.isFinite(value) || Math.abs(value) > Number.MAX_SAFE_INTEGER)
      throw invalidInput(`${path} is out of range`);
    return;
  }
  if (typeof value !== 'object') throw invalidInput(`${path} has an unsupported type`);
  if (depth >= INPUT_LIMITS.maxDepth) throw invalidInput(`${path} is nested too deeply`);
  if (Array.isArray(value)) {
    if (value.length > INPUT_LIMITS.maxArrayItems)
      throw invalidInput(`${path} has more than ${INPUT_LIMITS.maxArrayItems} items`);
    value.forEach((item, i) => walk(item, `${path}[${i}]`, depth + 1));
    return;
  }
  const keys = Object.keys(value);
  if (keys.length > INPUT_LIMITS.maxObjectKeys)
    throw invalidInput(`${path} has more than ${INPUT_LIMITS.maxObjectKeys} keys`);
  for (const key of keys) {
    if (FORBIDDEN_KEYS.has(key)) throw invalidInput(`${path} uses the reserved key "${key}"`);
    const problem = stringProblem(key, INPUT_LIMITS.maxKeyLength);
    if (problem) throw invalidInput(`a key of ${path} ${problem}`);
    walk((value as Record<string, unknown>)[key], `${path}.${key}`, depth + 1);
  }
}

/** A zod string that is safe to store: no control characters, well-formed, at most `max` characters. */
export function safeText(max: number) {
  return z.string().superRefine((value, ctx) => {
    const problem = stringProblem(value, max);
    if (problem) ctx.addIssue({ code: 'custom', message: `Text ${problem}` });
  });
}

/**
 * Answers errors Node's HTTP parser raises before Fastify sees a request (headers too large, a
 * malformed request line) as JSON `{ code, message }` like every other refusal, then closes the
 * connection as Node itself would.
 */
export function clientErrorHandler(err: NodeJS.ErrnoException, socket: Socket): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, code, message] =
    err.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'headers_too_large', `The request headers are larger than ${INPUT_LIMITS.maxHeaderBytes} bytes.`]
      : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'request_timeout', 'The request took too long to arrive.']
        : [400, 'bad_request', 'The request could not be read.'];
  // No request exists yet, so no request id either: a fresh one names this refusal.
  const requestId = randomUUID();
  const body = JSON.stringify({ code, message, request_id: requestId });
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  // end(), not write() + destroy(): the answer must be flushed before the connection closes.
  const head = [
    `HTTP/1.1 ${status} ${http.STATUS_CODES[status]}`,
    'Connection: close',
    'Content-Type: application/json; charset=utf-8',
    `X-Request-Id: ${requestId}`,
    `Content-Length: ${Buffer.byteLength(body)}`,
  ];
  socket.end(`${head.join('\r\n')}\r\n\r\n${body}`);
}
