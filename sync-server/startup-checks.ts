import fs from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { isLoopbackHost, type ServerConfig } from './config.ts';

/**
 * A reason `npm start` cannot go on that the person starting it can fix: the message names what is
 * wrong and the setting to change, and main prints it instead of a stack trace.
 */
export class StartupProblem extends Error {
  override name = 'StartupProblem';
}

/**
 * Fails when something already listens on `port` at `host`. Checked before anything starts, so a
 * taken port never leaves a half-started server or a freshly initialised database behind.
 */
export async function checkPortFree(opts: {
  port: number;
  host: string;
  what: string;
  setting: string;
}): Promise<void> {
  if (opts.port === 0) return;
  const error = await new Promise<NodeJS.ErrnoException | undefined>((resolve) => {
    const probe = net.createServer();
    probe.once('error', (err: NodeJS.ErrnoException) => resolve(err));
    probe.listen({ port: opts.port, host: opts.host, exclusive: true }, () => probe.close(() => resolve(undefined)));
  });
  if (!error) return;
  throw portProblem(error, opts);
}

/** The message for a port `listen` refused (also used when the server's own listen fails). */
export function portProblem(
  error: NodeJS.ErrnoException,
  opts: { port: number; host: string; what: string; setting: string },
): StartupProblem {
  const where = `${opts.host}:${opts.port}`;
  if (error.code === 'EADDRINUSE') {
    return new StartupProblem(
      `Port ${opts.port} (${opts.what}) is already in use on ${opts.host}: another Pacta, or another program, listens there.\n` +
        `Stop it, or choose a free port with ${opts.setting}, e.g. ${opts.setting}=${opts.port + 1} npm start`,
    );
  }
  if (error.code === 'EACCES') {
    return new StartupProblem(
      `Port ${opts.port} (${opts.what}) may not be used by this user on ${opts.host}.\n` +
        `Choose a port above 1023 with ${opts.setting}, e.g. ${opts.setting}=8787 npm start`,
    );
  }
  if (error.code === 'EADDRNOTAVAIL' || error.code === 'ENOTFOUND') {
    return new StartupProblem(
      `${opts.what} cannot listen on ${where}: this machine has no address ${opts.host}.\n` +
        `Set HOST to one of its addresses, e.g. HOST=127.0.0.1 npm start`,
    );
  }
  return new StartupProblem(
    `${opts.what} cannot listen on ${where} (${error.code ?? error.message}). Check ${opts.setting}.`,
  );
}

/**
 * Fails unless `dataDir` is (or can be made) a folder this process can write: the embedded Postgres
 * keeps its cluster there and the server its log.
 */
export async function checkDataDir(dataDir: string): Promise<void> {
  const advice = `Set DATA_DIR to a folder Pacta may create and write, e.g. DATA_DIR=${path.join(process.cwd(), '.data')} npm start`;
  try {
    await fs.mkdir(dataDir, { recursive: true });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const why =
      code === 'ENOTDIR' || code === 'EEXIST'
        ? 'part of that path is a file, not a folder'
        : code === 'EACCES' || code === 'EPERM'
          ? 'permission denied'
          : code === 'EROFS'
            ? 'the file system is read-only'
            : String(code ?? err);
    throw new StartupProblem(`The data folder ${dataDir} cannot be created: ${why}.\n${advice}`);
  }
  const probe = path.join(dataDir, `.pacta-write-check-${process.pid}`);
  try {
    await fs.writeFile(probe, '');
    await fs.rm(probe, { force: true });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const why =
      code === 'EACCES' || code === 'EPERM'
        ? 'permission denied'
        : code === 'EROFS'
          ? 'read-only file system'
          : String(code ?? err);
    throw new StartupProblem(`The data folder ${dataDir} is not writable (${why}).\n${advice}`);
  }
}

/**
 * A deployment serves people other than its operator, so it gets none of a developer's conveniences
 * (the dev mailbox lists every account's sign-in links; the local Stripe's test card buys Pro) and
 * cannot start without what replaces them. One message names every missing setting, so the operator
 * fixes them all at once instead of one restart per setting.
 */
export function checkDeploymentSettings(config: ServerConfig): void {
  if (config.mode !== 'deployment') return;
  const missing: string[] = [];
  if (config.auth.mode === 'local' && !config.smtp) {
    missing.push(
      'SMTP_URL: local auth sends sign-up confirmations and password resets by e-mail (or set SUPABASE_URL to use a hosted Supabase Auth).',
    );
  }
  if (config.payments === 'on' && !config.stripe) {
    missing.push(
      'STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET: real Stripe for Pro and escrow (README, "Real Stripe"), or PAYMENTS=off to run without payments.',
    );
  }
  if (isLoopbackHost(new URL(config.publicUrl).hostname)) {
    missing.push(
      `PUBLIC_URL: the address people's browsers use (e-mail links, Stripe's return pages); ${config.publicUrl} reaches no one else.`,
    );
  }
  if (!missing.length) return;
  const why = config.databaseUrl
    ? 'DATABASE_URL is set'
    : !isLoopbackHost(config.host)
      ? `HOST=${config.host} is reachable from other machines`
      : 'PACTA_MODE=deployment';
  throw new StartupProblem(
    `this is a deployment (${why}) and it lacks:\n${missing.map((m) => `  - ${m}`).join('\n')}\n` +
      "The dev mailbox, the local Stripe and the demo logins exist only on a developer's machine " +
      '(no DATABASE_URL, HOST on loopback). See README, "Deploying".',
  );
}
