import http from 'node:http';
import type { FastifyInstance } from 'fastify';
import type { DestinationStream } from 'pino';
import { buildServer } from '../../sync-server/app.ts';
import { loadConfig, type ServerConfig } from '../../sync-server/config.ts';
import { createDatabase, type Database } from '../../sync-server/db/database.ts';
import { createTestDatabase } from '../support/test-database.ts';
import { freePort } from '../support/free-port.ts';

export type AuthTestServer = {
  url: string;
  app: FastifyInstance;
  db: Database;
  config: ServerConfig;
  databaseUrl: string;
  close(): Promise<void>;
};

/**
 * Like startTestServer, but lets a test capture the log stream and mount probe routes before
 * listening, and start a second instance on the same database (`databaseUrl`).
 */
export async function startAuthTestServer(
  opts: {
    env?: Record<string, string>;
    logStream?: DestinationStream;
    databaseUrl?: string;
    beforeListen?: (app: FastifyInstance) => void | Promise<void>;
  } = {},
): Promise<AuthTestServer> {
  const database = opts.databaseUrl ? { url: opts.databaseUrl, drop: async () => {} } : await createTestDatabase();
  const db = createDatabase(database.url);
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const config: ServerConfig = {
    ...loadConfig({
      LOG_LEVEL: 'silent',
      EMAIL_CONFIRMATION: 'off',
      ...opts.env,
      DATABASE_URL: database.url,
      PORT: String(port),
    }),
    // A throw-away database on loopback: the developer's conveniences (dev mailbox, local Stripe)
    // the tests drive, which no environment can turn on together with DATABASE_URL.
    mode: 'development',
    publicUrl: url,
    staticDir: undefined,
  };
  const app = await buildServer(config, db, { logStream: opts.logStream });
  await opts.beforeListen?.(app);
  await app.listen({ port, host: '127.0.0.1' });
  return {
    url,
    app,
    db,
    config,
    databaseUrl: database.url,
    async close() {
      await app.close();
      await db.close();
      await database.drop();
    },
  };
}

export async function postJson(
  url: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: Record<string, unknown>; headers: Headers }> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : {}, headers: res.headers };
}

/**
 * A `fetch` whose requests leave from another loopback address (127.0.0.2, 127.0.0.3, …), so the
 * server sees a different client IP: how a test stands for an attacker and a victim on two networks.
 */
export function fetchFrom(localAddress: string): typeof fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    const body = request.body ? Buffer.from(await request.arrayBuffer()) : undefined;
    return new Promise<Response>((resolve, reject) => {
      const req = http.request(
        request.url,
        { method: request.method, headers: Object.fromEntries(request.headers), localAddress },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            const headers = new Headers();
            for (const [k, v] of Object.entries(res.headers)) if (typeof v === 'string') headers.set(k, v);
            const status = res.statusCode ?? 500;
            const empty = status === 204 || status === 304;
            resolve(new Response(empty ? null : Buffer.concat(chunks), { status, headers }));
          });
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  };
}
