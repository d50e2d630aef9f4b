import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { migrate } from '../../sync-server/db/migrate.ts';
import { freePort } from '../support/free-port.ts';

/**
 * The deployment the README describes, on loopback: Debian's Postgres 15, PgBouncer in transaction
 * mode in front of it (as Supabase's pooled connection string behaves), and server instances that
 * reach Postgres both ways: requests through the pooler, LISTEN and migrations directly.
 */

const PG_BIN = '/usr/lib/postgresql/15/bin';
const PGBOUNCER = ['/usr/sbin/pgbouncer', '/usr/bin/pgbouncer'].find((p) => fs.existsSync(p));

/** Why the topology cannot be built here, or undefined when it can (`.ci/run` installs both). */
export function missingBinaries(): string | undefined {
  const missing = [
    ...(fs.existsSync(path.join(PG_BIN, 'postgres')) ? [] : [`Postgres 15 (${PG_BIN}; apt-get install postgresql)`]),
    ...(PGBOUNCER ? [] : ['PgBouncer (apt-get install pgbouncer)']),
  ];
  return missing.length ? `not installed: ${missing.join(', ')}` : undefined;
}

/** Postgres and PgBouncer refuse to run as root: as root, both run as the `postgres` user. */
function runAs(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
  return { uid: id('-u'), gid: id('-g') };
}

export type PooledCluster = {
  /** Through PgBouncer (transaction mode). */
  pooledUrl: string;
  /** Straight to Postgres. */
  directUrl: string;
  /** PgBouncer's admin console (`show servers`: the Postgres connections it holds). */
  adminUrl: string;
  stop(): Promise<void>;
};

export async function startPooledCluster(): Promise<PooledCluster> {
  const dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'pacta-topology-'));
  const user = runAs();
  if (user) await fsp.chown(dir, user.uid, user.gid);
  const children: ChildProcess[] = [];
  const stop = async () => {
    // PgBouncer first (SIGTERM: immediate shutdown), then Postgres (SIGINT: fast shutdown).
    for (const [child, signal] of children.reverse().map((c, i) => [c, i === 0 ? 'SIGTERM' : 'SIGINT'] as const)) {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill(signal);
        await exited;
      }
    }
    await fsp.rm(dir, { recursive: true, force: true });
  };
  try {
    const data = path.join(dir, 'data');
    execFileSync(path.join(PG_BIN, 'initdb'), ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8'], {
      ...user,
      stdio: 'ignore',
    });
    const pgPort = await freePort();
    const postgres = spawn(
      path.join(PG_BIN, 'postgres'),
      [
        '-D',
        data,
        '-p',
        String(pgPort),
        '-c',
        'listen_addresses=127.0.0.1',
        '-c',
        `unix_socket_directories=${dir}`,
        // Three instances × (5 session connections) + PgBouncer's pool + the test's own.
        '-c',
        'max_connections=60',
        '-c',
        'fsync=off',
      ],
      { ...user, stdio: ['ignore', 'ignore', 'pipe'] },
    );
    children.push(postgres);
    const directUrl = `postgres://postgres@127.0.0.1:${pgPort}/pacta`;
    await until(async () => {
      const c = new pg.Client({ connectionString: directUrl.replace(/\/pacta$/, '/postgres') });
      try {
        await c.connect();
        await c.query('create database pacta');
        return true;
      } finally {
        await c.end().catch(() => {});
      }
    }, 'Postgres to accept connections');
    await migrate(directUrl, { localBootstrap: true, seed: false });

    const bouncerPort = await freePort();
    const ini = path.join(dir, 'pgbouncer.ini');
    await fsp.writeFile(path.join(dir, 'userlist.txt'), '"postgres" ""\n');
    await fsp.writeFile(
      ini,
      [
        '[databases]',
        `pacta = host=127.0.0.1 port=${pgPort} dbname=pacta`,
        '[pgbouncer]',
        'listen_addr = 127.0.0.1',
        `listen_port = ${bouncerPort}`,
        'unix_socket_dir =',
        'auth_type = trust',
        `auth_file = ${path.join(dir, 'userlist.txt')}`,
        'pool_mode = transaction',
        'admin_users = postgres',
        // Fewer server connections than the instances' pools hold: transactions take turns on them,
        // which is what breaks anything that leans on a session.
        'default_pool_size = 8',
        'max_client_conn = 400',
        `logfile = ${path.join(dir, 'pgbouncer.log')}`,
        `pidfile = ${path.join(dir, 'pgbouncer.pid')}`,
        '',
      ].join('\n'),
    );
    if (user) for (const f of ['pgbouncer.ini', 'userlist.txt']) await fsp.chown(path.join(dir, f), user.uid, user.gid);
    const bouncer = spawn(PGBOUNCER!, [ini], { ...user, stdio: ['ignore', 'ignore', 'pipe'] });
    children.push(bouncer);
    const pooledUrl = `postgres://postgres@127.0.0.1:${bouncerPort}/pacta`;
    await until(async () => {
      const c = new pg.Client({ connectionString: pooledUrl });
      try {
        await c.connect();
        await c.query('select 1');
        return true;
      } finally {
        await c.end().catch(() => {});
      }
    }, 'PgBouncer to accept connections');
    return { pooledUrl, directUrl, adminUrl: `postgres://postgres@127.0.0.1:${bouncerPort}/pgbouncer`, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

async function until(check: () => Promise<boolean>, what: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < deadline) {
    try {
      if (await check()) return;
    } catch (err) {
      last = err;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting for ${what}: ${String(last)}`);
}

export type Instance = {
  url: string;
  port: number;
  process: ChildProcess;
  /** Everything the instance wrote (its log goes to standard output with a DATABASE_URL). */
  output(): string;
  /** Resolves with the exit code or signal once the process has ended. */
  exited: Promise<number | NodeJS.Signals | null>;
};

/** `npm run serve` as a deployment runs it: one process, both connection strings, the shared public URL. */
export async function startInstance(
  cluster: PooledCluster,
  publicUrl: string,
  env: Record<string, string> = {},
): Promise<Instance> {
  const port = await freePort();
  // `node --import tsx`, not the tsx command: that one runs the server as its own child, so a SIGKILL
  // would end only the wrapper and leave the server running.
  const child = spawn(process.execPath, ['--import', 'tsx', 'sync-server/main.ts'], {
    env: {
      ...process.env,
      DATABASE_URL: cluster.pooledUrl,
      DATABASE_DIRECT_URL: cluster.directUrl,
      PUBLIC_URL: publicUrl,
      PORT: String(port),
      HOST: '127.0.0.1',
      EMAIL_CONFIRMATION: 'off',
      // What a deployment must have; nothing here sends mail (no confirmation) or takes a payment.
      SMTP_URL: 'smtp://127.0.0.1:9',
      PAYMENTS: 'off',
      LOG_LEVEL: 'warn',
      LOG_FILE: '-',
      // Every test user signs up from 127.0.0.1.
      AUTH_RATE_LIMIT_SIGN_UP_PER_IP: '1000',
      AUTH_RATE_LIMIT_SIGN_IN_PER_IP: '1000',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (b: Buffer) => (output += b.toString()));
  child.stderr.on('data', (b: Buffer) => (output += b.toString()));
  const exited = new Promise<number | NodeJS.Signals | null>((resolve) =>
    child.once('exit', (code, signal) => resolve(signal ?? code)),
  );
  const url = `http://127.0.0.1:${port}`;
  await Promise.race([
    until(async () => (await fetch(`${url}/api/health`)).ok, `the instance on port ${port}`, 60_000),
    exited.then((code) => {
      throw new Error(`the instance on port ${port} exited (${String(code)}):\n${output}`);
    }),
  ]);
  return { url, port, process: child, output: () => output, exited };
}

/**
 * A load balancer without stickiness, as a TCP proxy: each connection goes to the next instance in
 * turn, skipping those that refuse it (an instance that stopped listening).
 */
export async function startRoundRobinProxy(backends: () => number[]): Promise<{ url: string; close(): void }> {
  let next = 0;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    const ports = backends();
    const attempt = (tries: number) => {
      if (tries >= ports.length) return client.destroy();
      const port = ports[next++ % ports.length]!;
      const upstream = net.connect(port, '127.0.0.1');
      let connected = false;
      upstream.once('connect', () => {
        connected = true;
        sockets.add(upstream);
        upstream.on('close', () => sockets.delete(upstream));
        client.pipe(upstream).pipe(client);
        upstream.on('error', () => client.destroy());
        client.on('error', () => upstream.destroy());
      });
      upstream.once('error', () => {
        if (!connected) attempt(tries + 1);
      });
    };
    attempt(0);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`,
    close() {
      sockets.forEach((s) => s.destroy());
      server.close();
    },
  };
}
