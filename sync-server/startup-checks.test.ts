import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { freePort } from '../tests/support/free-port.ts';
import { loadConfig } from './config.ts';
import { checkDataDir, checkDeploymentSettings, checkPortFree, StartupProblem } from './startup-checks.ts';

const repoRoot = path.resolve(import.meta.dirname, '..');
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function occupiedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(() => new Promise((resolve) => server.close(() => resolve())));
  return (server.address() as net.AddressInfo).port;
}

async function tempDir(): Promise<string> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'pacta-start-'));
  cleanups.push(() => fs.rm(dir, { recursive: true, force: true }));
  return dir;
}

/** Runs the real `npm start` server entry (without the build) and returns what it printed. */
function runServer(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const { DATABASE_URL: _db, SUPABASE_URL: _url, ...rest } = process.env;
    const child = spawn(process.execPath, ['--import', 'tsx', 'sync-server/main.ts'], {
      cwd: repoRoot,
      env: { ...rest, HOST: '127.0.0.1', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('exit', (code) => resolve({ code, output }));
  });
}

test('a taken HTTP port stops npm start with a message naming the port and PORT', { timeout: 30_000 }, async () => {
  const port = await occupiedPort();
  const { code, output } = await runServer({
    PORT: String(port),
    DATA_DIR: await tempDir(),
    EMBEDDED_PG_PORT: String(await freePort()),
  });
  expect(code).toBe(1);
  expect(output).toContain(`Pacta cannot start: Port ${port} (the Pacta server) is already in use on 127.0.0.1`);
  expect(output).toContain(`PORT=${port + 1} npm start`);
  expect(output).not.toContain('undefined');
  // Checked before anything started: no embedded Postgres, no stack trace.
  expect(output).not.toContain('Starting the embedded Postgres');
  expect(output).not.toMatch(/\n\s+at /);
});

test(
  'a taken embedded Postgres port stops npm start with a message naming EMBEDDED_PG_PORT',
  { timeout: 30_000 },
  async () => {
    const pgPort = await occupiedPort();
    const dataDir = await tempDir();
    const { code, output } = await runServer({
      PORT: String(await freePort()),
      DATA_DIR: dataDir,
      EMBEDDED_PG_PORT: String(pgPort),
    });
    expect(code).toBe(1);
    expect(output).toContain(`Port ${pgPort} (the embedded Postgres) is already in use`);
    expect(output).toContain(`EMBEDDED_PG_PORT=${pgPort + 1} npm start`);
    expect(output).not.toContain('undefined');
    // No half-made cluster left behind in the data folder.
    await expect(fs.access(path.join(dataDir, 'pg'))).rejects.toThrow();
  },
);

test(
  'a data folder that cannot be used stops npm start with a message naming DATA_DIR',
  { timeout: 30_000 },
  async () => {
    const dir = await tempDir();
    const aFile = path.join(dir, 'not-a-folder');
    await fs.writeFile(aFile, 'x');
    const { code, output } = await runServer({
      PORT: String(await freePort()),
      DATA_DIR: path.join(aFile, 'data'),
      EMBEDDED_PG_PORT: String(await freePort()),
    });
    expect(code).toBe(1);
    expect(output).toContain(
      `The data folder ${path.join(aFile, 'data')} cannot be created: part of that path is a file, not a folder.`,
    );
    expect(output).toContain('Set DATA_DIR to a folder Pacta may create and write');
    expect(output).not.toContain('undefined');
  },
);

test('the checks pass for a free port and a writable folder, leaving nothing behind', async () => {
  const dir = path.join(await tempDir(), 'data');
  await checkPortFree({ port: await freePort(), host: '127.0.0.1', what: 'x', setting: 'PORT' });
  await checkDataDir(dir);
  expect(await fs.readdir(dir)).toEqual([]);
});

const deployment = { DATABASE_URL: 'postgres://pacta@db.internal/pacta', HOST: '0.0.0.0' };
const refusal = (env: Record<string, string>) => {
  try {
    checkDeploymentSettings(loadConfig(env));
    return undefined;
  } catch (err) {
    expect(err).toBeInstanceOf(StartupProblem);
    return (err as Error).message;
  }
};

test('a deployment needs SMTP, Stripe (or PAYMENTS=off) and a public PUBLIC_URL; the message names what lacks', () => {
  const all = refusal(deployment);
  expect(all).toContain('SMTP_URL');
  expect(all).toContain('STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET');
  expect(all).toContain('PUBLIC_URL');
  const complete = {
    ...deployment,
    PUBLIC_URL: 'https://pacta.example.com',
    SMTP_URL: 'smtps://mail.example.com',
    STRIPE_SECRET_KEY: 'sk_live_x',
    STRIPE_WEBHOOK_SECRET: 'whsec_x',
  };
  expect(refusal(complete)).toBeUndefined();
  const { STRIPE_SECRET_KEY: _k, STRIPE_WEBHOOK_SECRET: _w, ...noStripe } = complete;
  expect(refusal(noStripe)).toContain('or PAYMENTS=off');
  expect(refusal({ ...noStripe, PAYMENTS: 'off' })).toBeUndefined();
  // A hosted Supabase Auth sends its own e-mail.
  const { SMTP_URL: _s, ...noSmtp } = complete;
  expect(refusal(noSmtp)).toContain('SMTP_URL');
  expect(refusal({ ...noSmtp, SUPABASE_URL: 'https://ref.supabase.co' })).toBeUndefined();
  // A loopback PUBLIC_URL reaches no one else.
  expect(refusal({ ...complete, PUBLIC_URL: 'http://localhost:8787' })).toContain('PUBLIC_URL');
});

test("the mode follows DATABASE_URL and HOST; only a developer's machine is development", () => {
  expect(loadConfig({}).mode).toBe('development');
  expect(loadConfig({ HOST: '::1' }).mode).toBe('development');
  expect(loadConfig({ HOST: '0.0.0.0' }).mode).toBe('deployment');
  expect(loadConfig({ DATABASE_URL: 'postgres://x' }).mode).toBe('deployment');
  expect(loadConfig({ PACTA_MODE: 'deployment' }).mode).toBe('deployment');
  expect(() => loadConfig({ PACTA_MODE: 'development', DATABASE_URL: 'postgres://x' })).toThrow(
    /cannot be combined with DATABASE_URL/,
  );
  expect(() => loadConfig({ PACTA_MODE: 'development', HOST: '10.0.0.5' })).toThrow(/HOST=10.0.0.5/);
  // Development with nothing set needs nothing.
  expect(refusal({})).toBeUndefined();
});
