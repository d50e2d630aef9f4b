import { IDBFactory } from 'fake-indexeddb';
import { afterAll, expect, test } from 'vitest';
import { prepareDocument } from '../../src/db/index.ts';
import { freePort } from '../support/free-port.ts';
import { createTestDatabase } from '../support/test-database.ts';
import { startTestServer, type TestServer, type TestUser } from '../support/test-server.ts';
import { createTestClient, eventually, newId, type TestClient } from '../sync/sync-harness.ts';

// A seeded, randomized convergence test: several real RxDB clients (devices of one user, each with its
// own IndexedDB) create, edit and delete drafts at random, go offline and back, reload, while the
// server restarts in between. Then everyone goes online: every client must hold exactly what the
// server holds, and every write the server acknowledged must be there (or superseded by a later one).
// Each client opens one collection, so all of them fit in one realm under RxDB's collection limit.
//
// `npm test` runs a short one; `npm run soak` runs CONVERGENCE_RUNS (1,000) runs. A failure prints its
// seed: CONVERGENCE_SEED=<seed> CONVERGENCE_RUNS=1 reproduces it.

const RUNS = Number(process.env.CONVERGENCE_RUNS ?? 2);
const FIRST_SEED = Number(process.env.CONVERGENCE_SEED ?? 1);
const STEPS = Number(process.env.CONVERGENCE_STEPS ?? 40);
const CLIENTS = 3;

/** A small seeded generator (mulberry32): the same seed replays the same run. */
function random(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (n: number) => Math.floor(next() * n),
    pick: <T>(items: T[]): T | undefined => items[Math.floor(next() * items.length)],
  };
}

type Device = { client: TestClient; idb: IDBFactory; name: string };
type Outcome = { divergences: number; lostAcknowledged: number; detail: string[] };

const cleanup: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const step of cleanup.reverse()) await step().catch(() => {});
});

async function serverDrafts(
  server: TestServer,
  userId: string,
): Promise<Map<string, { title: string; deleted: boolean }>> {
  const { rows } = await server.db.pool.query<{ id: string; title: string; deleted: boolean }>(
    'select id, title, deleted from public.drafts where user_id = $1',
    [userId],
  );
  return new Map(rows.map((r) => [r.id, { title: r.title, deleted: r.deleted }]));
}

async function localDrafts(client: TestClient): Promise<Map<string, string>> {
  const docs = await client.db.collections.drafts.find().exec();
  return new Map(docs.map((d) => [d.primary, d.get('title') as string]));
}

function live(all: Map<string, { title: string; deleted: boolean }>): Map<string, string> {
  return new Map([...all].filter(([, v]) => !v.deleted).map(([id, v]) => [id, v.title]));
}

const sameMap = (a: Map<string, string>, b: Map<string, string>) =>
  a.size === b.size && [...a].every(([k, v]) => b.get(k) === v);

/** `CONVERGENCE_CUT=1`: restarts also cut requests in flight (their transactions may still commit on the old instance). */
const CUT_REQUESTS = process.env.CONVERGENCE_CUT === '1';

/** Requests each server instance has not finished answering. */
const inFlight = new WeakMap<TestServer, Set<unknown>>();

async function startServer(databaseUrl: string, port: number): Promise<TestServer> {
  const server = await startTestServer({ databaseUrl, port });
  const open = new Set<unknown>();
  server.app.server.on('request', (_request, response) => {
    open.add(response);
    response.on('close', () => open.delete(response));
  });
  inFlight.set(server, open);
  return server;
}

/**
 * Stops the server as a restart does: requests in flight are answered first (unless CONVERGENCE_CUT),
 * then the connections left are closed (a client's connection without a request would otherwise hold
 * the close until the client's 4 s keep-alive timeout).
 */
async function stopServer(server: TestServer): Promise<void> {
  const closing = server.close({ keepDatabase: true });
  const open = inFlight.get(server)!;
  const sweep = setInterval(() => {
    if (CUT_REQUESTS || open.size === 0) server.app.server.closeAllConnections();
  }, 20);
  try {
    await closing;
  } finally {
    clearInterval(sweep);
  }
}

async function runOnce(seed: number, databaseUrl: string, port: number): Promise<Outcome> {
  const rnd = random(seed);
  const startedAt = Date.now();
  let server = await startServer(databaseUrl, port);
  const user: TestUser = await server.createUser({ role: 'creator' });
  const devices: Device[] = [];
  // Every state the server acknowledged (pushed without a conflict), by id: titles written, and deletions.
  const acknowledged = new Map<string, { titles: Set<string>; deleted: boolean }>();
  const written = new Map<string, Set<string>>();
  const deletedByUser = new Set<string>();

  const watch = (device: Device) => {
    device.client.replication.states.get('drafts')!.sent$.subscribe((doc) => {
      // A deletion the pull wrote (a reset removing what the feed no longer has) is answered without a
      // request (it is no local change): only a user's deletion is one the server acknowledged.
      if (doc._deleted && !deletedByUser.has(doc.id)) return;
      const entry = acknowledged.get(doc.id) ?? { titles: new Set<string>(), deleted: false };
      if (doc._deleted) entry.deleted = true;
      else entry.titles.add(String(doc.title));
      acknowledged.set(doc.id, entry);
    });
  };
  const open = async (idb = new IDBFactory(), name = `pacta-conv-${newId()}`): Promise<Device> => {
    const client = await createTestClient({ url: server.url }, user, ['drafts'], { idb, name });
    const device = { client, idb, name };
    watch(device);
    return device;
  };
  for (let i = 0; i < CLIENTS; i++) devices.push(await open());

  try {
    for (let step = 0; step < STEPS; step++) {
      const device = devices[rnd.int(devices.length)]!;
      const drafts = device.client.db.collections.drafts;
      const roll = rnd.next();
      if (roll < 0.3) {
        const id = newId();
        const title = `s${seed}-${step}-new`;
        written.set(id, new Set([title]));
        await drafts.insert(prepareDocument('drafts', { id, user_id: user.id, kind: 'deal', title } as never));
      } else if (roll < 0.55) {
        const doc = rnd.pick(await drafts.find().exec());
        if (doc) {
          const title = `s${seed}-${step}-edit`;
          const titles = written.get(doc.primary) ?? new Set<string>();
          written.set(doc.primary, titles.add(title));
          // A concurrent pull may have removed it meanwhile: then there is nothing to edit.
          await doc.incrementalPatch({ title }).catch(() => {});
        }
      } else if (roll < 0.65) {
        const doc = rnd.pick(await drafts.find().exec());
        if (doc) {
          deletedByUser.add(doc.primary);
          await doc.incrementalRemove().catch(() => {});
        }
      } else if (roll < 0.8) {
        device.client.network.online = !device.client.network.online;
        if (device.client.network.online) device.client.replication.reSync();
      } else if (roll < 0.9) {
        // A reload: the tab goes away (mid-sync or not) and opens the same local database again.
        const index = devices.indexOf(device);
        const wasOnline = device.client.network.online;
        await device.client.close();
        const reopened = await open(device.idb, device.name);
        reopened.client.network.online = wasOnline;
        devices[index] = reopened;
      } else if (roll < 0.95) {
        // The server restarts between requests; clients retry on their own.
        await stopServer(server);
        server = await startServer(databaseUrl, port);
      } else {
        await new Promise((r) => setTimeout(r, rnd.int(200)));
      }
    }

    const stepsDoneAt = Date.now();
    // Everyone online: all must converge on the server's state.
    for (const d of devices) {
      d.client.network.online = true;
      d.client.replication.reSync();
    }
    const detail: string[] = [];
    let divergences = 0;
    try {
      await eventually(async () => {
        const truth = live(await serverDrafts(server, user.id));
        for (const d of devices) if (!sameMap(await localDrafts(d.client), truth)) return false;
        return true;
      }, 60_000);
    } catch {
      const truth = live(await serverDrafts(server, user.id));
      const all = await serverDrafts(server, user.id);
      for (const [i, d] of devices.entries()) {
        const local = await localDrafts(d.client);
        if (!sameMap(local, truth)) {
          divergences++;
          detail.push(`client ${i}: ${local.size} drafts locally, ${truth.size} on the server`);
          // Which documents differ, and how (the first few), so a failing seed says where to look.
          const ids = new Set([...local.keys(), ...truth.keys()]);
          const differing = [...ids].filter((id) => local.get(id) !== truth.get(id)).slice(0, 5);
          for (const id of differing) {
            const doc = (await d.client.db.collections.drafts.findOne(id).exec())?.toJSON() as
              Record<string, unknown> | undefined;
            detail.push(
              `  ${id}: local ${doc ? JSON.stringify({ title: doc.title, version: doc.version, sync_rejection: doc.sync_rejection }) : 'absent'}, server ${JSON.stringify(all.get(id) ?? 'absent')}, acknowledged ${JSON.stringify(acknowledged.has(id) ? { titles: [...acknowledged.get(id)!.titles], deleted: acknowledged.get(id)!.deleted } : 'no')}, status ${JSON.stringify(d.client.replication.syncStatus.lastError ?? null)}`,
            );
          }
        }
      }
    }
    if (process.env.CONVERGENCE_TIMING)
      console.log(`seed ${seed}: steps ${stepsDoneAt - startedAt} ms, converged after ${Date.now() - stepsDoneAt} ms`);
    // Every acknowledged write is there: the row exists; a deletion stays deleted; a live row holds
    // one of the titles written to it (a later acknowledged write may supersede an earlier one). A
    // draft created and deleted before it ever reached the server is never written (nothing to
    // delete), so an acknowledged deletion of a row no title of which was acknowledged may be absent.
    const all = await serverDrafts(server, user.id);
    let lostAcknowledged = 0;
    for (const [id, ack] of acknowledged) {
      const row = all.get(id);
      const ok = ack.deleted
        ? row
          ? row.deleted
          : ack.titles.size === 0
        : row && (row.deleted || written.get(id)?.has(row.title));
      if (!ok) {
        lostAcknowledged++;
        detail.push(
          `acknowledged ${id} (${[...ack.titles].join(', ')}${ack.deleted ? ', deleted' : ''}) is ${row ? JSON.stringify(row) : 'missing'}`,
        );
      }
    }
    return { divergences, lostAcknowledged, detail };
  } finally {
    const t0 = Date.now();
    for (const d of devices) await d.client.close({ remove: true }).catch(() => {});
    const t1 = Date.now();
    await stopServer(server);
    if (process.env.CONVERGENCE_TIMING)
      console.log(`seed ${seed}: clients closed in ${t1 - t0} ms, server in ${Date.now() - t1} ms`);
  }
}

test(
  `${RUNS} seeded random runs of ${CLIENTS} devices converge, and no acknowledged write is lost`,
  async () => {
    const database = await createTestDatabase();
    cleanup.push(database.drop);
    const port = await freePort();
    let divergences = 0;
    let lost = 0;
    let runs = 0;
    const failedSeeds: number[] = [];
    const startedAt = Date.now();
    const figures = () =>
      `${runs} runs (seeds ${FIRST_SEED}–${FIRST_SEED + runs - 1}, ${STEPS} steps, ${CLIENTS} devices), ${divergences} divergences, ${lost} lost acknowledged writes${failedSeeds.length ? `, failing seeds: ${failedSeeds.join(' ')}` : ''}, ${Math.round((Date.now() - startedAt) / 1000)} s`;
    for (let seed = FIRST_SEED; seed < FIRST_SEED + RUNS; seed++) {
      const outcome = await runOnce(seed, database.url, port);
      runs++;
      divergences += outcome.divergences;
      lost += outcome.lostAcknowledged;
      if (outcome.divergences || outcome.lostAcknowledged) {
        failedSeeds.push(seed);
        console.log(`convergence seed ${seed} failed:\n  ${outcome.detail.slice(0, 10).join('\n  ')}`);
      }
      // A long soak says how far it got (it may be stopped before the end).
      if (RUNS > 10 && runs % 10 === 0 && runs < RUNS) console.log(`convergence progress: ${figures()}`);
    }
    console.log(`convergence: ${figures()}`);
    expect({ divergences, lost, failedSeeds }).toEqual({ divergences: 0, lost: 0, failedSeeds: [] });
  },
  Math.max(600_000, RUNS * 60_000),
);
