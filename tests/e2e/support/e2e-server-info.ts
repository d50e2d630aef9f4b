import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';

/** Where the e2e server (tests/e2e/support/start-e2e-server.ts) writes its database URL. */
export function e2eServerInfoFile(port: number): string {
  return path.join(os.tmpdir(), `pacta-e2e-server-${port}.json`);
}

export async function databaseUrl(): Promise<string> {
  const port = Number(process.env.E2E_PORT ?? 4273);
  const info = JSON.parse(await fs.readFile(e2eServerInfoFile(port), 'utf8')) as { databaseUrl: string };
  return info.databaseUrl;
}

/**
 * Makes an existing account an admin, as an operator would (sign-up never grants admin): the profile's
 * role and the server-set app_metadata the next token carries (users cannot edit it).
 */
export async function promoteToAdmin(email: string): Promise<void> {
  const client = new pg.Client({ connectionString: await databaseUrl() });
  await client.connect();
  try {
    const { rows } = await client.query<{ id: string }>(
      `update auth.users set raw_app_meta_data = raw_app_meta_data || '{"role":"admin"}'::jsonb where email = $1 returning id`,
      [email],
    );
    if (!rows[0]) throw new Error(`no user ${email}`);
    await client.query(`update public.profiles set role = 'admin' where id = $1`, [rows[0].id]);
  } finally {
    await client.end();
  }
}

/** Runs `fn` with a connection to the e2e server's database (as the server: no user claims). */
export async function withE2eDatabase<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: await databaseUrl() });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}
