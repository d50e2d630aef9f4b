import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { startEmbeddedPostgres } from '../../sync-server/db/embedded.ts';
import { migrate } from '../../sync-server/db/migrate.ts';
import { freePort } from './free-port.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Superuser URL of the test cluster's maintenance database. */
    pgAdminUrl: string;
  }
}

/**
 * One real Postgres for the whole run: the embedded one, or `DATABASE_URL` when set.
 * The real bootstrap + migrations go into `pacta_template` once; each test file clones it.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  let adminUrl: string;
  let stop = async () => {};
  if (process.env.DATABASE_URL) {
    const url = new URL(process.env.DATABASE_URL);
    url.pathname = '/postgres';
    adminUrl = url.toString();
  } else {
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'pacta-test-pg-'));
    const embedded = await startEmbeddedPostgres({ dataDir, port: await freePort(), throwAway: true });
    adminUrl = embedded.url.replace(/\/pacta$/, '/postgres');
    stop = async () => {
      await embedded.stop();
      await fs.rm(dataDir, { recursive: true, force: true });
    };
  }
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query('drop database if exists pacta_template');
  await admin.query('create database pacta_template');
  await admin.end();
  const templateUrl = new URL(adminUrl);
  templateUrl.pathname = '/pacta_template';
  await migrate(templateUrl.toString(), { localBootstrap: true, seed: false });
  project.provide('pgAdminUrl', adminUrl);
  return stop;
}
