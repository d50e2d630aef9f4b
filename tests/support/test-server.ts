import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { buildServer } from '../../sync-server/app.ts';
import { loadConfig, type ServerConfig } from '../../sync-server/config.ts';
import { createDatabase, type Database } from '../../sync-server/db/database.ts';
import { freePort } from './free-port.ts';
import { createTestDatabase } from './test-database.ts';
import type { AccessTokenSigner } from '../../sync-server/auth/tokens.ts';

function signerOf(app: FastifyInstance): AccessTokenSigner {
  if (!app.pactaSigner) throw new Error('createUser needs local auth mode (no SUPABASE_URL)');
  return app.pactaSigner;
}

export type TestServer = {
  url: string;
  app: FastifyInstance;
  db: Database;
  databaseUrl: string;
  config: ServerConfig;
  /** Creates a confirmed user with a profile of that role and returns a valid access token for it. */
  createUser(opts: { role: 'creator' | 'brand' | 'admin'; email?: string; fullName?: string }): Promise<TestUser>;
  /** Stops the server (and, unless `keepDatabase`, drops its database). */
  close(opts?: { keepDatabase?: boolean }): Promise<void>;
};

export type TestUser = { id: string; email: string; role: string; accessToken: string };

/** Starts the real server on 127.0.0.1 with a fresh database from the real migrations. */
export async function startTestServer(
  opts: {
    env?: Record<string, string>;
    databaseUrl?: string;
    port?: number;
    /** Origins of push services the test runs on loopback, which the server may push to. */
    trustedPushOrigins?: string[];
    /** A folder with an index.html to serve as the app shell (none by default). */
    staticDir?: string;
  } = {},
): Promise<TestServer> {
  const database = opts.databaseUrl ? { url: opts.databaseUrl, drop: async () => {} } : await createTestDatabase();
  const db = createDatabase(database.url);
  // The issuer in tokens is derived from the public URL, so the port is chosen before listening.
  const port = opts.port ?? (await freePort());
  const url = `http://127.0.0.1:${port}`;
  const loaded = loadConfig({
    LOG_LEVEL: 'silent',
    EMAIL_CONFIRMATION: 'off',
    ...opts.env,
    DATABASE_URL: database.url,
    PORT: String(port),
  });
  const config: ServerConfig = {
    ...loaded,
    // A throw-away database on loopback: the developer's conveniences (dev mailbox, local Stripe)
    // the tests drive, which no environment can turn on together with DATABASE_URL.
    mode: 'development',
    // The issuer of its tokens; a test that hands them to a deployment-mode server gives both one PUBLIC_URL.
    publicUrl: opts.env?.PUBLIC_URL ?? url,
    staticDir: opts.staticDir,
    push: { ...loaded.push, endpointPolicy: { trustedOrigins: opts.trustedPushOrigins ?? [] } },
  };
  const app = await buildServer(config, db);
  await app.listen({ port, host: '127.0.0.1' });
  return {
    url,
    app,
    db,
    databaseUrl: database.url,
    config,
    async createUser({ role, email, fullName }) {
      const id = randomUUID();
      const address = email ?? `${role}-${id.slice(0, 8)}@example.test`;
      const name = fullName ?? `Test ${role} ${id.slice(0, 4)}`;
      const sessionId = randomUUID();
      await db.asService(async (tx) => {
        await tx.query(
          `insert into auth.users (instance_id, id, aud, role, email, encrypted_password, email_confirmed_at,
             raw_app_meta_data, raw_user_meta_data, created_at, updated_at)
           values ('00000000-0000-0000-0000-000000000000', $1, 'authenticated', 'authenticated', $2, '', now(),
             '{"provider":"email","providers":["email"]}', $3, now(), now())`,
          [id, address, { role: role === 'admin' ? 'creator' : role, full_name: name }],
        );
        // The sign-up trigger may already have made the profile; the role is set here either way
        // (admin is only ever granted by an operator, never through sign-up metadata).
        await tx.query(
          `insert into public.profiles (id, role, full_name) values ($1, $2, $3)
           on conflict (id) do update set role = excluded.role, full_name = excluded.full_name`,
          [id, role, name],
        );
        const hasSessions = await tx.query(`select to_regclass('auth.sessions') is not null as ok`);
        if (hasSessions.rows[0].ok) {
          await tx.query(
            `insert into auth.sessions (id, user_id, created_at, updated_at, aal) values ($1, $2, now(), now(), 'aal1')`,
            [sessionId, id],
          );
        }
      });
      const { token } = await signerOf(app).sign({
        sub: id,
        role: 'authenticated',
        email: address,
        phone: '',
        app_metadata: { provider: 'email', providers: ['email'] },
        user_metadata: { role, full_name: name },
        session_id: sessionId,
        aal: 'aal1',
        amr: [{ method: 'password', timestamp: Math.floor(Date.now() / 1000) }],
        is_anonymous: false,
      });
      return { id, email: address, role, accessToken: token };
    },
    async close({ keepDatabase } = {}) {
      // As the real server drains (sync-server/main.ts): a keep-alive connection whose last response
      // finished just after close began is idle only then, and would otherwise hold the close until
      // its keep-alive timeout.
      const closeIdle = setInterval(() => app.server.closeIdleConnections(), 50);
      try {
        await app.close();
      } finally {
        clearInterval(closeIdle);
      }
      await db.close();
      if (!keepDatabase) await database.drop();
    },
  };
}
