import { afterAll, beforeAll, expect, test } from 'vitest';
import { SYNC_PROTOCOL_VERSION, type SyncCheckpoint } from '../../src/domain/collections/index.ts';
import { startTestServer, type TestServer, type TestUser } from '../support/test-server.ts';
import { createTestClient, eventually, newId, type TestClient } from './sync-harness.ts';

// A device holds a bounded working set of the catalogue, decided by the server: the deals its user is
// party to, always, and the open deals that matter most to them (their niches first, then the newest)
// up to the limit. Deals leave it as removals; a deal entering it reaches the device even unchanged.

const LIMIT = 10;
let server: TestServer;
const clients: TestClient[] = [];

beforeAll(async () => {
  server = await startTestServer({ env: { DEVICE_DEALS_LIMIT: String(LIMIT) } });
});
afterAll(async () => {
  for (const c of clients) await c.close({ remove: true }).catch(() => {});
  await server?.close();
});

type Doc = { id: string; _deleted: boolean; title?: string };
type Page = { documents: Doc[]; checkpoint: SyncCheckpoint | null; reset?: boolean; pending?: boolean };
/** What a device holds and where its feed stands, as the client keeps them. */
type Device = { checkpoint: SyncCheckpoint | null; held: Map<string, Doc> };

async function pull(user: TestUser, checkpoint: SyncCheckpoint | null): Promise<Page> {
  const params = new URLSearchParams({ limit: '4' });
  if (checkpoint) params.set('checkpoint', JSON.stringify(checkpoint));
  const res = await fetch(`${server.url}/sync/v1/deals/pull?${params}`, {
    headers: { authorization: `Bearer ${user.accessToken}`, 'x-pacta-protocol': String(SYNC_PROTOCOL_VERSION) },
  });
  expect(res.status).toBe(200);
  return (await res.json()) as Page;
}

/**
 * Follows the feed to its end as the client does (small pages, so a page boundary falls inside the
 * set): removals go, and after a reset every held deal the restarted feed did not bring goes too.
 */
async function follow(user: TestUser, device: Device): Promise<{ reset: boolean }> {
  let reset = false;
  let inFeed = new Set<string>();
  const deadline = Date.now() + 20_000;
  for (;;) {
    const page = await pull(user, device.checkpoint);
    if (page.reset) {
      reset = true;
      inFeed = new Set();
    }
    for (const d of page.documents) {
      if (d._deleted) device.held.delete(d.id);
      else device.held.set(d.id, d);
      inFeed.add(d.id);
    }
    device.checkpoint = page.checkpoint ?? device.checkpoint;
    if (page.documents.length === 0 && !page.pending) break;
    if (Date.now() > deadline) throw new Error('the deals feed did not end');
  }
  if (reset) for (const id of [...device.held.keys()]) if (!inFeed.has(id)) device.held.delete(id);
  return { reset };
}

/** One open deal in a transaction of its own, so each is newer than the one before. */
async function newDeal(brand: TestUser, niches: string[], status = 'open'): Promise<string> {
  const id = newId();
  await server.db.asService((tx) =>
    tx.query(
      `insert into public.deals (id, brand_id, title, description, amount_cents, niches, status)
       values ($1, $2, $3, 'A sponsorship deal', 50000, $4, $5)`,
      [id, brand.id, `Deal ${niches.join(' ')} ${id.slice(0, 4)}`, niches, status],
    ),
  );
  return id;
}

const keep = (user: TestUser, id: string) =>
  fetch(`${server.url}/api/deals/${id}/keep`, {
    method: 'POST',
    headers: { authorization: `Bearer ${user.accessToken}` },
  });

let brand: TestUser;
let creator: TestUser;
const device: Device = { checkpoint: null, held: new Map() };
const early: string[] = [];
const travel: string[] = [];
const fitness: string[] = [];

test('while every deal fits, the device holds them all and its checkpoint carries no bound', async () => {
  brand = await server.createUser({ role: 'brand' });
  creator = await server.createUser({ role: 'creator' });
  await server.db.asService((tx) =>
    tx.query(`update public.profiles set niches = '{travel}' where id = $1`, [creator.id]),
  );
  for (let i = 0; i < 4; i++) early.push(await newDeal(brand, ['fitness']));
  await follow(creator, device);
  expect([...device.held.keys()].sort()).toEqual([...early].sort());
  expect(device.checkpoint!.scope).not.toContain('|');
});

test('past the limit: the deals the user is party to, then their niches, then the newest, at most the limit', async () => {
  // The creator saved the oldest deal: party to it, it stays whatever the ranking says.
  await server.db.asService((tx) =>
    tx.query(`insert into public.saved_lists (id, user_id, kind, items) values ($1, $2, 'saved_campaigns', $3)`, [
      newId(),
      creator.id,
      [early[0]],
    ]),
  );
  for (let i = 0; i < 3; i++) travel.push(await newDeal(brand, ['travel', 'food']));
  for (let i = 0; i < 12; i++) fitness.push(await newDeal(brand, ['fitness']));
  // A cancelled deal is never shown to the creator at all.
  await newDeal(brand, ['travel'], 'cancelled');

  const { reset } = await follow(creator, device);
  expect(reset).toBe(true); // the device held the whole catalogue; it now holds a set
  // 90% of the limit, refilled: the saved deal, the three in the creator's niche, the 5 newest others.
  const expected = [early[0]!, ...travel, ...fitness.slice(-5)];
  expect([...device.held.keys()].sort()).toEqual(expected.sort());
  expect(device.held.size).toBeLessThanOrEqual(LIMIT);
  expect(device.checkpoint!.scope).toContain('|');

  // A fresh device of the same user gets the same set.
  const fresh: Device = { checkpoint: null, held: new Map() };
  await follow(creator, fresh);
  expect([...fresh.held.keys()].sort()).toEqual(expected.sort());
});

test('opening a deal outside the set keeps it: the next pull brings it though it did not change', async () => {
  const outside = fitness[0]!;
  expect(device.held.has(outside)).toBe(false);
  const res = await keep(creator, outside);
  expect(res.status).toBe(200);
  expect(await res.json()).toEqual({ kept: true });

  const { reset } = await follow(creator, device);
  expect(reset).toBe(false); // joining the set is not a restart of the feed
  expect(device.held.has(outside)).toBe(true);
  expect(device.held.size).toBeLessThanOrEqual(LIMIT);
});

test('a deal the user may not read cannot be kept, and says no more than a missing one', async () => {
  const cancelled = await newDeal(brand, ['travel'], 'cancelled');
  const cancelledAnswer = await keep(creator, cancelled);
  const missingAnswer = await keep(creator, newId());
  expect(cancelledAnswer.status).toBe(404);
  expect(missingAnswer.status).toBe(404);
  const bodyOf = async (res: Response) => {
    const { code, message } = (await res.json()) as { code: string; message: string };
    return { code, message };
  };
  expect(await bodyOf(cancelledAnswer)).toEqual(await bodyOf(missingAnswer));
  const bad = await keep(creator, 'not-a-uuid');
  expect(bad.status).toBe(400);
  // Nor through a saved list, whose entries are whatever the device wrote.
  await server.db.asService((tx) =>
    tx.query(
      `update public.saved_lists set items = items || $2::text where user_id = $1 and kind = 'saved_campaigns'`,
      [creator.id, cancelled],
    ),
  );
  const rows = await server.db.asService((tx) =>
    tx.query('select 1 from public.kept_deals where user_id = $1 and deal_id = $2', [creator.id, cancelled]),
  );
  expect(rows.rowCount).toBe(0);
});

test('new deals past the limit push the least important out as removals; party deals stay', async () => {
  const client = await createTestClient(server, creator, ['deals'], { pullBatchSize: 4, snapshot: false });
  clients.push(client);
  await client.replication.awaitInitialSync();
  // A device that starts now gets a bound of its own (refilled to 90%), so it may hold fewer.
  const first = (await client.db.deals.find().exec()).map((d) => d.id);
  expect(first.length).toBeLessThanOrEqual(LIMIT);
  expect(first).toEqual(expect.arrayContaining([early[0]!, fitness[0]!, ...travel]));

  // In one transaction, so every device sees the three arrive at once (a device that pulled between
  // them would keep its bound one deal longer: the set moves in steps, not deal by deal).
  const newest = [newId(), newId(), newId()];
  await server.db.asService((tx) =>
    tx.query(
      `insert into public.deals (id, brand_id, title, description, amount_cents, niches, status)
       select id, $2, 'Newest deal', 'A sponsorship deal', 50000, '{fitness}', 'open' from unnest($1::uuid[]) id`,
      [newest, brand.id],
    ),
  );
  const { reset } = await follow(creator, device);
  expect(reset).toBe(true);
  // Party: the saved deal and the opened one. Then the niche's three, then the newest four.
  const expected = [early[0]!, fitness[0]!, ...travel, ...newest, fitness.at(-1)!];
  expect([...device.held.keys()].sort()).toEqual(expected.sort());
  expect(device.held.size).toBeLessThanOrEqual(LIMIT);

  // A real device (RxDB, following change notices) ends with the same set: the others were removed.
  await eventually(async () => {
    const ids = (await client.db.deals.find().exec()).map((d) => d.id).sort();
    return JSON.stringify(ids) === JSON.stringify([...expected].sort());
  });
});

test('applying to a deal, being messaged or invited about one keeps it for the creator', async () => {
  const applied = fitness[1]!;
  const messaged = fitness[2]!;
  const invited = fitness[3]!;
  await server.db.asService(async (tx) => {
    await tx.query(`insert into public.applications (id, deal_id, creator_id) values ($1, $2, $3)`, [
      newId(),
      applied,
      creator.id,
    ]);
    await tx.query(`insert into public.conversations (id, user1_id, user2_id, deal_id) values ($1, $2, $3, $4)`, [
      newId(),
      brand.id,
      creator.id,
      messaged,
    ]);
    await tx.query(
      `insert into public.saved_lists (id, user_id, kind, items) values ($1, $2, 'campaign_invites', $3)`,
      [newId(), brand.id, [`${invited}:${creator.id}`]],
    );
  });
  await follow(creator, device);
  for (const id of [applied, messaged, invited]) expect(device.held.has(id)).toBe(true);
});

test('a device may ask to hold fewer deals (or more, up to the maximum); its party deals stay', async () => {
  const small: Device = { checkpoint: null, held: new Map() };
  const deadline = Date.now() + 20_000;
  for (;;) {
    const res = await fetch(
      `${server.url}/sync/v1/deals/pull?limit=4&set=4${small.checkpoint ? `&checkpoint=${encodeURIComponent(JSON.stringify(small.checkpoint))}` : ''}`,
      {
        headers: { authorization: `Bearer ${creator.accessToken}`, 'x-pacta-protocol': String(SYNC_PROTOCOL_VERSION) },
      },
    );
    const page = (await res.json()) as Page;
    for (const d of page.documents) if (!d._deleted) small.held.set(d.id, d);
    small.checkpoint = page.checkpoint;
    if ((page.documents.length === 0 && !page.pending) || Date.now() > deadline) break;
  }
  // Party deals count first (here more of them than 4): the set is those only.
  const party = await server.db.asService((tx) =>
    tx.query<{ deal_id: string }>('select deal_id from public.kept_deals where user_id = $1', [creator.id]),
  );
  expect([...small.held.keys()].sort()).toEqual(party.rows.map((r) => r.deal_id).sort());

  for (const set of ['0', '100001', 'many']) {
    const res = await fetch(`${server.url}/sync/v1/deals/pull?set=${set}`, {
      headers: { authorization: `Bearer ${creator.accessToken}`, 'x-pacta-protocol': String(SYNC_PROTOCOL_VERSION) },
    });
    expect(res.status).toBe(400);
  }
});

test('a device cannot widen its set by forging a bound: the feed restarts on the set the server chooses', async () => {
  const scope = device.checkpoint!.scope!;
  const at = scope.indexOf('|');
  // A bound below every deal, with the seal kept: the seal no longer matches.
  const forged = {
    ...device.checkpoint!,
    xid: '1',
    scope: `${scope.slice(0, at)}|0,0,-infinity,00000000-0000-0000-0000-000000000000,x${scope.slice(scope.indexOf('~'))}`,
  };
  const page = await pull(creator, forged);
  expect(page.reset).toBe(true);
  const replay: Device = { checkpoint: forged, held: new Map() };
  await follow(creator, replay);
  expect(replay.held.size).toBeLessThanOrEqual(LIMIT);
  // Exactly what a new device of the user is given.
  const fresh: Device = { checkpoint: null, held: new Map() };
  await follow(creator, fresh);
  expect([...replay.held.keys()].sort()).toEqual([...fresh.held.keys()].sort());
});
