import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { loadConfig } from '../config.ts';
import { startEmbeddedPostgres, type EmbeddedDatabase } from '../db/embedded.ts';

/**
 * Operator command: `npm run make-admin -- someone@example.com`.
 * Admin is never granted through sign-up (its metadata only carries creator or brand); an operator
 * promotes an existing account here. Uses DATABASE_URL, or else the embedded database of `npm start`
 * (already running, or started just for this command).
 */
export async function promoteToAdmin(
  client: pg.ClientBase,
  email: string,
): Promise<{ id: string; previousRole: string } | undefined> {
  // The server's own connection: the rules let it change a role (clients need an admin for that).
  const { rows } = await client.query<{ id: string; previous_role: string }>(
    `update public.profiles p set role = 'admin'
     from auth.users u, (select role as previous_role, id from public.profiles) as before
     where u.id = p.id and before.id = p.id and lower(u.email) = lower($1) and u.deleted_at is null
     returning p.id, before.previous_role`,
    [email.trim()],
  );
  return rows[0] && { id: rows[0].id, previousRole: rows[0].previous_role };
}

async function main(): Promise<void> {
  const email = process.argv[2];
  if (!email || !email.includes('@')) {
    console.log('Usage: npm run make-admin -- <e-mail of an existing account>');
    process.exit(2);
  }
  const config = loadConfig();
  let url = config.databaseUrl;
  let embedded: EmbeddedDatabase | undefined;
  if (!url) {
    url = `postgres://postgres:pacta-local@127.0.0.1:${config.embeddedPgPort}/pacta`;
    if (!(await reachable(url))) {
      if (!fs.existsSync(path.join(config.dataDir, 'pg', 'PG_VERSION'))) {
        console.log(`No database in ${config.dataDir} yet: run npm start once (or set DATABASE_URL).`);
        process.exit(1);
      }
      embedded = await startEmbeddedPostgres({ dataDir: config.dataDir, port: config.embeddedPgPort });
      url = embedded.url;
    }
  }
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const promoted = await promoteToAdmin(client, email).catch((err: { code?: string }) => {
      if (err.code !== '42P01') throw err;
      console.log('This database has no Pacta schema yet: run npm start once (it applies the migrations).');
      process.exit(1);
    });
    if (!promoted) {
      console.log(`No account with the e-mail ${email}.`);
      process.exitCode = 1;
    } else if (promoted.previousRole === 'admin') {
      console.log(`${email} is already an admin.`);
    } else {
      console.log(
        `${email} is now an admin (was ${promoted.previousRole}). The change reaches their devices on the next sync.`,
      );
    }
  } finally {
    await client.end();
    await embedded?.stop();
  }
}

async function reachable(url: string): Promise<boolean> {
  const probe = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1500 });
  probe.on('error', () => {});
  try {
    await probe.connect();
    await probe.end();
    return true;
  } catch {
    return false;
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
