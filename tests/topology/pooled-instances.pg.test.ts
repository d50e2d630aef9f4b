import fsp from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { SYNC_PROTOCOL_VERSION, type SyncCheckpoint } from '../../src/domain/collections/index.ts';
import { prepareDocument } from '../../src/db/index.ts';
import { openChangeStream } from '../../src/db/change-stream.ts';
import { createSyncApi } from '../../src/db/sync-api.ts';
import { eventually, newId, openTestStream } from '../sync/sync-harness.ts';
import {
  missingBinaries,
  startInstance,
  startPooledCluster,
  startRoundRobinProxy,
  type Instance,
  type PooledCluster,
} from './pooled-cluster.ts';

// Several `npm run serve` instances on one Postgres, requests through PgBouncer in transaction mode
// (how Supabase's pooled connection string behaves), LISTEN and migrations straight to Postgres:
// README "Deploying", docs/decisions/025-two-connection-strings.md.

const missing = missingBinaries();

describe.skipIf(missing)(`instances behind a transaction pooler${missing ? ` (skipped: ${missing})` : ''}`, () => {
  let cluster: PooledCluster;
  let balancer: { url: string; close(): void };
  let instances: Instance[] = [];
  let direct: pg.Pool;
  /** The storage folder every instance shares, as a deployment's shared volume. */
  let storageDir: string;
  let brand: User;
  let creator: User;
  const cleanups: (() => void)[] = [];

  beforeAll(async () => {
    cluster = await startPooledCluster();
    direct = new pg.Pool({ connectionString: cluster.directUrl, max: 3 });
    // Postgres stopping at the end ends its idle connections.
    direct.on('error', () => {});
    balancer = await startRoundRobinProxy(() => instances.filter(alive).map((i) => i.port));
    // The public URL every instance shares (tokens name it as their issuer). A deployment refuses a
    // loopback one, so it names a host of its own; requests still go to the balancer on 127.0.0.1.
    storageDir = await fsp.mkdtemp(path.join(os.tmpdir(), 'pacta-topology-storage-'));
    instances = await Promise.all(
      [1, 2, 3].map(() => startInstance(cluster, 'https://pacta.example.test', { STORAGE_DIR: storageDir })),
    );
    brand = await signUp(balancer.url, 'brand');
    creator = await signUp(balancer.url, 'creator');
    // Three server processes starting at once on a machine busy with the rest of the suite.
  }, 240_000);

  afterAll(async () => {
    cleanups.forEach((c) => c());
    balancer?.close();
    for (const instance of instances.filter(alive)) {
      instance.process.kill('SIGKILL');
      await instance.exited;
    }
    await direct?.end();
    await cluster?.stop();
    if (storageDir) await fsp.rm(storageDir, { recursive: true, force: true });
  });

  test('pulls, pushes and refusals through every instance; a write through one reaches the streams open on the others', async () => {
    const [a, b, c] = instances as [Instance, Instance, Instance];
    const streams = [await openTestStream(b.url, creator.token), await openTestStream(c.url, creator.token)];
    cleanups.push(...streams.map((s) => () => s.close()));
    await eventually(() => streams.every((s) => s.events.some((e) => e.event === 'hello')));

    const deal = newDeal(brand);
    expect(await push(a, brand, 'deals', [deal])).toEqual({ status: 200, body: { conflicts: [] } });
    await eventually(() => streams.every((s) => s.changes().includes('deals')));
    for (const instance of [b, c]) {
      const page = await pull(instance, creator, 'deals', null);
      expect(page.status).toBe(200);
      expect((page.body.documents as { id: string }[]).map((d) => d.id)).toContain(deal.id);
    }

    // Refusals roll their transaction back and leave the pooled connection as they found it.
    const rejected = await push(b, creator, 'deals', [newDeal(creator)]);
    expect(rejected.status).toBe(200);
    expect(rejected.body.conflicts).toMatchObject([{ sync_rejection: { code: 'only_brands_create_deals' } }]);
    const outOfScope = await push(a, creator, 'drafts', [newDraft(brand)]);
    expect({ status: outOfScope.status, code: outOfScope.body.code }).toEqual({ status: 403, code: 'out_of_scope' });
    const readOnly = await push(c, creator, 'growth', []);
    expect(readOnly.status).toBe(403);
    const badCheckpoint = await pull(a, creator, 'deals', {
      xid: String(2n ** 64n),
      id: deal.id,
      scope: null,
      horizon: '0',
    });
    expect({ status: badCheckpoint.status, code: badCheckpoint.body.code }).toEqual({
      status: 400,
      code: 'bad_checkpoint',
    });
    const draft = newDraft(creator);
    expect(await push(c, creator, 'drafts', [draft])).toEqual({ status: 200, body: { conflicts: [] } });
    const drafts = await pull(a, creator, 'drafts', null);
    expect((drafts.body.documents as { id: string }[]).map((d) => d.id)).toEqual([draft.id]);
  });

  test('96 pulls at once, fresh and from checkpoints, spread over the instances: none answers 500', async () => {
    const fresh = await pull(instances[0]!, creator, 'deals', null);
    const from = fresh.body.checkpoint as SyncCheckpoint;
    const answers = await Promise.all(
      Array.from({ length: 96 }, (_, i) =>
        pull(instances[i % instances.length]!, i % 2 ? brand : creator, i % 3 ? 'deals' : 'drafts', null).then(
          async (first) => (i % 4 === 0 ? await pull(instances[(i + 1) % 3]!, creator, 'deals', from) : first),
        ),
      ),
    );
    const failures = answers.filter((r) => r.status !== 200).map((r) => `${r.status} ${String(r.body.message)}`);
    expect(failures).toEqual([]);
  });

  test('a resumable upload retried on another instance while its first PATCH still writes: the retry has the first let go, waits for it, and the file is stored whole; the lock never goes through the pooler', async () => {
    const [a, b] = instances as [Instance, Instance, Instance];
    const video = mp4(2 * 1024 * 1024);
    const sent = 1024 * 1024;
    const name = `${creator.id}/${newId()}-reel.mp4`;
    const tus = { 'tus-resumable': '1.0.0', authorization: `Bearer ${creator.token}` };
    const b64 = (v: string) => Buffer.from(v).toString('base64');
    const created = await fetch(`${a.url}/storage/v1/upload/resumable`, {
      method: 'POST',
      headers: {
        ...tus,
        'upload-length': String(video.length),
        'upload-metadata': `bucketName ${b64('portfolio')},objectName ${b64(name)},contentType ${b64('video/mp4')}`,
      },
    });
    expect(created.status).toBe(201);
    const location = created.headers.get('location')!;
    const id = location.split('/').pop()!;

    // The first PATCH, on one instance: half the file, then the connection stays open (a client whose
    // connection dropped on its side while the server still reads it).
    const ended: string[] = [];
    const first = http.request(`${a.url}${location}`, {
      method: 'PATCH',
      headers: { ...tus, 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' },
    });
    const firstEnded = new Promise<void>((resolve) => {
      first.on('response', (res) => {
        res.resume();
        res.on('end', resolve);
      });
      first.on('error', () => resolve());
      first.on('close', () => resolve());
    }).then(() => ended.push('first'));
    cleanups.push(() => first.destroy());
    first.write(video.subarray(0, sent));
    const received = path.join(storageDir, 'resumable', id);
    await eventually(async () => (await fsp.stat(received)).size === sent);

    // Its lock is held on a connection of the instance's own, straight to Postgres: none of PgBouncer's.
    const { rows: holders } = await direct.query<{ pid: number }>(
      `select pid from pg_locks
        where locktype = 'advisory' and granted
          and classid::bigint = hashtext('pacta.upload')::bigint & 4294967295
          and objid::bigint = hashtext($1)::bigint & 4294967295`,
      [id],
    );
    expect(holders).toHaveLength(1);
    const admin = new pg.Client({ connectionString: cluster.adminUrl });
    await admin.connect();
    const servers = (await admin.query<{ remote_pid: string }>('show servers')).rows.map((r) => Number(r.remote_pid));
    await admin.end();
    expect(servers.length).toBeGreaterThan(0);
    expect(servers).not.toContain(holders[0]!.pid);

    // The retry, on the other instance, from where the server's bytes end.
    const second = await fetch(`${b.url}${location}`, {
      method: 'PATCH',
      headers: { ...tus, 'upload-offset': String(sent), 'content-type': 'application/offset+octet-stream' },
      body: new Uint8Array(video.subarray(sent)),
    });
    ended.push('second');
    expect([second.status, second.headers.get('upload-offset')]).toEqual([204, String(video.length)]);
    // The first request had been answered (asked to let go) before the retry could write.
    expect(ended).toEqual(['first', 'second']);
    await firstEnded;

    const stored = await fetch(`${a.url}/storage/v1/object/public/portfolio/${name}`);
    expect(stored.status).toBe(200);
    expect(Buffer.from(await stored.arrayBuffer()).equals(video)).toBe(true);
    expect(await fsp.readdir(path.join(storageDir, 'resumable'))).toEqual([]);
  }, 60_000);

  test('a request for an upload whose holder never lets go asks it to, then is answered 423 ResourceLocked rather than left hanging', async () => {
    const [a] = instances as [Instance, Instance, Instance];
    const tus = { 'tus-resumable': '1.0.0', authorization: `Bearer ${creator.token}` };
    const b64 = (v: string) => Buffer.from(v).toString('base64');
    const created = await fetch(`${a.url}/storage/v1/upload/resumable`, {
      method: 'POST',
      headers: {
        ...tus,
        'upload-length': '1000',
        'upload-metadata': `bucketName ${b64('portfolio')},objectName ${b64(`${creator.id}/${newId()}-clip.mp4`)},contentType ${b64('video/mp4')}`,
      },
    });
    expect(created.status).toBe(201);
    const location = created.headers.get('location')!;
    const id = location.split('/').pop()!;
    // A holder that hears the requests to let go and ignores them.
    const holder = await direct.connect();
    const asked: string[] = [];
    holder.on('notification', (msg) => asked.push(msg.payload ?? ''));
    await holder.query('listen pacta_upload_release');
    await holder.query(`select pg_advisory_lock(hashtext('pacta.upload'), hashtext($1))`, [id]);
    try {
      const refused = await fetch(`${a.url}${location}`, {
        method: 'PATCH',
        headers: { ...tus, 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' },
        body: new Uint8Array(mp4(1000)),
      });
      expect(refused.status).toBe(423);
      expect(await refused.json()).toMatchObject({ code: 'ResourceLocked', message: expect.any(String) });
      expect(asked).toContain(id);
    } finally {
      await holder.query('unlisten *; select pg_advisory_unlock_all()');
      holder.release();
    }
    const own = await fetch(`${a.url}${location}`, { method: 'HEAD', headers: tus });
    expect([own.status, own.headers.get('upload-offset')]).toEqual([200, '0']);
    expect((await fetch(`${a.url}${location}`, { method: 'DELETE', headers: tus })).status).toBe(204);
  }, 60_000);

  test('SIGTERM drains: no new connection, the push under way is answered and written, streams are told to reconnect and do, elsewhere', async () => {
    const [a, , c] = instances as [Instance, Instance, Instance];
    // The client's change stream through a load balancer that sends it to the leaving instance first.
    let route = [c.port, a.port];
    const pinned = await startRoundRobinProxy(() => route);
    cleanups.push(() => pinned.close());
    let hellos = 0;
    const changes: string[] = [];
    const client = openChangeStream(
      createSyncApi({ serverUrl: pinned.url, getAccessToken: () => creator.token }),
      {
        onHello: () => hellos++,
        onChange: (collection) => changes.push(collection),
        onConnectedChange: () => {},
        onError: () => {},
      },
      { maxBackoffMs: 500 },
    );
    cleanups.push(() => client.stop());
    await eventually(() => hellos === 1);
    route = [a.port, c.port];
    const raw = await openTestStream(c.url, creator.token);
    cleanups.push(() => raw.close());
    await eventually(() => raw.events.some((e) => e.event === 'hello'));

    // A push held inside its transaction: its document's turn lock is taken, as a concurrent push would.
    const draft = newDraft(creator);
    const holder = await direct.connect();
    await holder.query('begin');
    await holder.query(`select pg_advisory_xact_lock(7301, hashtext($1))`, [draft.id]);
    const answer = push(c, creator, 'drafts', [draft]);
    await eventually(async () => {
      const { rows } = await direct.query(
        `select 1 from pg_stat_activity where wait_event_type = 'Lock' and wait_event = 'advisory'`,
      );
      return rows.length > 0;
    });

    c.process.kill('SIGTERM');
    const farewell = await eventually(() => raw.events.find((e) => e.event === 'reconnect'));
    expect(JSON.parse(farewell.data)).toEqual({ within: expect.any(Number) });
    await eventually(() => raw.ended);
    // The instance no longer accepts connections while the push is still under way.
    await eventually(() =>
      fetch(`${c.url}/api/health`).then(
        () => false,
        () => true,
      ),
    );
    await holder.query('commit');
    holder.release();
    expect(await answer.catch((err: unknown) => `${String(err)}\n${c.output()}`)).toEqual({
      status: 200,
      body: { conflicts: [] },
    });
    expect(await c.exited, c.output()).toBe(0);
    const stored = await direct.query('select title from public.drafts where id = $1', [draft.id]);
    expect(stored.rows).toEqual([{ title: draft.title }]);

    // The client came back through the load balancer to an instance still serving, and hears its writes.
    await eventually(() => hellos === 2);
    expect(await push(a, creator, 'drafts', [newDraft(creator)])).toMatchObject({ status: 200 });
    await eventually(() => changes.includes('drafts'));
  });

  test('SIGKILL in the middle of pushes loses no acknowledged write; the client retries on another instance', async () => {
    const [a, b] = instances as [Instance, Instance];
    const acknowledged: string[] = [];
    const retried: string[] = [];
    let killed = false;
    const writer = async () => {
      for (let n = 0; n < 40; n++) {
        const draft = newDraft(creator);
        const through = await push(b, creator, 'drafts', [draft]).catch(() => undefined);
        if (through?.status === 200) {
          acknowledged.push(draft.id);
          if (acknowledged.length === 12 && !killed) {
            killed = true;
            b.process.kill('SIGKILL');
          }
          continue;
        }
        // No answer: the client pushes the same document again, through the load balancer.
        const again = await push(a, creator, 'drafts', [draft]);
        expect(again).toEqual({ status: 200, body: { conflicts: [] } });
        retried.push(draft.id);
        return;
      }
    };
    await Promise.all([writer(), writer(), writer(), writer()]);
    expect(await b.exited).toBe('SIGKILL');
    expect(retried.length).toBeGreaterThan(0);
    const { rows } = await direct.query<{ id: string }>('select id from public.drafts where id = any($1::uuid[])', [
      [...acknowledged, ...retried],
    ]);
    expect(rows.map((r) => r.id).sort()).toEqual([...acknowledged, ...retried].sort());
    // The instance left standing serves on.
    expect((await pull(a, creator, 'drafts', null)).status).toBe(200);
  });
});

type User = { id: string; token: string };

/** Bytes file-type reads as an MP4 video (an ISO base media `ftyp` box), then zeros. */
function mp4(bytes: number): Buffer {
  const video = Buffer.alloc(bytes, 0);
  Buffer.from('0000001c6674797069736f6d0000020069736f6d69736f32', 'hex').copy(video);
  return video;
}

const alive = (i: Instance) => i.process.exitCode === null && i.process.signalCode === null;

async function signUp(url: string, role: 'brand' | 'creator'): Promise<User> {
  const email = `${role}-${newId().slice(0, 8)}@example.test`;
  const password = 'a long enough password';
  const post = (path: string, body: unknown) =>
    fetch(`${url}/auth/v1/${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  const signedUp = await post('signup', { email, password, data: { role, full_name: `Test ${role}` } });
  expect(signedUp.status).toBe(200);
  const session = (await (await post('token?grant_type=password', { email, password })).json()) as {
    access_token: string;
    user: { id: string };
  };
  return { id: session.user.id, token: session.access_token };
}

const headers = (user: User) => ({
  authorization: `Bearer ${user.token}`,
  'x-pacta-protocol': String(SYNC_PROTOCOL_VERSION),
});

async function pull(instance: Instance, user: User, collection: string, checkpoint: SyncCheckpoint | null) {
  const query = checkpoint ? `?checkpoint=${encodeURIComponent(JSON.stringify(checkpoint))}` : '';
  const res = await fetch(`${instance.url}/sync/v1/${collection}/pull${query}`, { headers: headers(user) });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

async function push(instance: Instance, user: User, collection: string, docs: Record<string, unknown>[]) {
  const res = await fetch(`${instance.url}/sync/v1/${collection}/push`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers(user) },
    body: JSON.stringify({ rows: docs.map((newDocumentState) => ({ newDocumentState })) }),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

const newDeal = (owner: User) => ({
  ...prepareDocument('deals', {
    id: newId(),
    brand_id: owner.id,
    title: 'Launch video',
    description: 'A 60 s video',
    amount_cents: 120_000,
    niches: ['tech'],
  }),
  _deleted: false,
});

const newDraft = (owner: User) => ({
  id: newId(),
  user_id: owner.id,
  kind: 'deal',
  title: `Draft ${newId().slice(0, 8)}`,
  payload: {},
  _deleted: false,
});
