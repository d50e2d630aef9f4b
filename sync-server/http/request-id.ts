import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { LogController, type FastifyInstance } from 'fastify';

/** The header a request id arrives in (from a proxy Pacta trusts) and goes back in, on every answer. */
export const REQUEST_ID_HEADER = 'x-request-id';

/**
 * What an incoming id may look like: the characters of UUIDs, trace ids and the ids load balancers
 * write, short. Anything else is replaced, so an id never breaks a header or a log line.
 */
const WELL_FORMED_ID = /^[A-Za-z0-9._:@/+=-]{1,128}$/;

/**
 * Fastify's `genReqId`: a fresh UUID, or the `X-Request-Id` a proxy in front of Pacta set when the
 * operator says that proxy can be trusted (TRUST_REQUEST_ID=on; it must replace any id a client
 * sends). Trusting a client's own id would let it write what it likes into the logs under another
 * request's id.
 */
export function requestIdGenerator(trustIncoming: boolean): (req: IncomingMessage) => string {
  return (req) => {
    const incoming = req.headers[REQUEST_ID_HEADER];
    return trustIncoming && typeof incoming === 'string' && WELL_FORMED_ID.test(incoming) ? incoming : randomUUID();
  };
}

/** Every log line of a request names its id under the same key error answers use. */
export const requestIdLogController = () => new LogController({ requestIdLogLabel: 'request_id' });

/**
 * Every answer carries its request's id in `X-Request-Id` (set on the raw response, so the change
 * stream and the snapshot stream, which write their own heads, carry it too), and every JSON error
 * `{ code, message }` carries it as `request_id`: what a user or a caller quotes to the operator, who
 * finds the request's log lines by it. Auth errors keep GoTrue's exact body (supabase-js reads it)
 * and carry the header only.
 */
export function registerRequestIds(app: FastifyInstance): void {
  app.addHook('onRequest', async (request, reply) => {
    reply.raw.setHeader(REQUEST_ID_HEADER, request.id);
  });
  app.addHook('onSend', async (request, reply, payload) => {
    if (reply.statusCode < 400 || typeof payload !== 'string' || request.url.startsWith('/auth/v1/')) return payload;
    if (!String(reply.getHeader('content-type') ?? '').startsWith('application/json')) return payload;
    let body: unknown;
    try {
      body = JSON.parse(payload);
    } catch {
      return payload;
    }
    if (!isErrorBody(body)) return payload;
    return JSON.stringify({ ...body, request_id: request.id });
  });
}

function isErrorBody(body: unknown): body is { code: string; message: string } {
  return (
    typeof body === 'object' &&
    body !== null &&
    typeof (body as { code?: unknown }).code === 'string' &&
    typeof (body as { message?: unknown }).message === 'string'
  );
}
