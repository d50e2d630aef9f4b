import { afterAll, beforeAll, expect, test } from 'vitest';
import { SYNC_PROTOCOL_VERSION, type SyncCheckpoint } from '../../src/domain/collections/index.ts';
import { startTestServer, type TestServer, type TestUser } from '../support/test-server.ts';
import { eventually, insertDeals, openTestStream } from './sync-harness.ts';

// What one signed-in user can take from the sync endpoints beyond their own data and their share of
// the server: ids of deals they may not read, server errors, sockets.

let server: TestServer;
const streams: { close(): void }[] = [];
beforeAll(async () => {
  server = await startTestServer({ env: { SYNC_STREAMS_PER_USER: '3' } });
});
afterAll(async () => {
  streams.forEach((s) => s.close());
  await server?.close();
});

const headers = (u: TestUser) => ({
  authorization: `Bearer ${u.accessToken}`,
  'x-pacta-protocol': String(SYNC_PROTOCOL_VERSION),
});

async function pull(user: TestUser, collection: string, checkpoint: SyncCheckpoint | null) {
  const query = checkpoint ? `?checkpoint=${encodeURIComponent(JSON.stringify(checkpoint))}&limit=1000` : '?limit=1000';
  const res = await fetch(`${server.url}/sync/v1/${collection}/pull${query}`, { headers: headers(user) });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

/** A deals pull once no older transaction holds rows back (`pending`): it has read past every commit so far. */
const settled = (user: TestUser, checkpoint: SyncCheckpoint | null) =>
  eventually(async () => {
    const { body } = await pull(user, 'deals', checkpoint);
    return body.pending !== true && body;
  });

test('a made-up catalog checkpoint restarts the feed instead of listing the ids of deals the user may not read', async () => {
  const brand = await server.createUser({ role: 'brand' });
  const other = await server.createUser({ role: 'brand' });
  const creator = await server.createUser({ role: 'creator' });
  const [visible] = (await insertDeals(server.db, brand.id, 1)) as [string];
  // Deals the creator may not read: another brand's deal already taken, and a Pro-only one.
  const [taken] = (await insertDeals(server.db, other.id, 1)) as [string];
  await server.db.asService((tx) => tx.query(`update public.deals set status = 'cancelled' where id = $1`, [taken]));
  const [proOnly] = (await insertDeals(server.db, other.id, 1, { pro_only: true })) as [string];

  // Test files run side by side on one Postgres, so another file's open transaction may hold these
  // rows back for a moment: read each page once nothing is pending.
  const first = await settled(creator, null);
  const issued = first.checkpoint as SyncCheckpoint;
  const ids = (body: Record<string, unknown>) => (body.documents as { id: string }[]).map((d) => d.id);
  expect(ids(first)).toContain(visible);

  // The position moved back to the beginning of time, the rest of the checkpoint as issued.
  const madeUp = await settled(creator, { ...issued, xid: '1' });
  expect(madeUp.reset).toBe(true);
  expect(ids(madeUp)).not.toContain(taken);
  expect(ids(madeUp)).not.toContain(proOnly);
  expect(ids(madeUp)).toContain(visible);
  // Without the seal, the scope as the server spells it, and another user's checkpoint: the same.
  const bare = await pull(creator, 'deals', { ...issued, xid: '1', scope: 'creator:free' });
  expect(bare.body.reset).toBe(true);
  expect(ids(bare.body)).not.toContain(taken);
  const stranger = await server.createUser({ role: 'creator' });
  const borrowed = await pull(stranger, 'deals', issued);
  expect(borrowed.body.reset).toBe(true);

  // The checkpoint the server issued still continues the feed: a deal leaving the creator's scope
  // reaches them as a removal.
  await server.db.asService((tx) => tx.query(`update public.deals set status = 'cancelled' where id = $1`, [visible]));
  const next = await settled(creator, issued);
  expect(next.reset).toBeUndefined();
  expect(next.documents).toContainEqual({ id: visible, _deleted: true });
});

test('a pull from an issued checkpoint names no deal the user could never have held, and still removes the ones they held', async () => {
  const brand = await server.createUser({ role: 'brand' });
  const creator = await server.createUser({ role: 'creator' });
  const pro = await server.createUser({ role: 'creator' });
  await server.db.asService((tx) =>
    tx.query(
      `update public.profiles set pro_tier = 'basic', pro_since = now(), pro_until = now() + interval '30 days' where id = $1`,
      [pro.id],
    ),
  );
  const [held] = (await insertDeals(server.db, brand.id, 1)) as [string];
  const [heldByPro] = (await insertDeals(server.db, brand.id, 1, { pro_only: true })) as [string];
  const issued = (await settled(creator, null)).checkpoint as SyncCheckpoint;
  const issuedToPro = (await settled(pro, null)).checkpoint as SyncCheckpoint;

  // After the checkpoint: a Pro-only deal (then edited), a deal cancelled before the creator pulled, and
  // one the creator sees, which moves their position past the other two.
  const [proOnly] = (await insertDeals(server.db, brand.id, 1, { pro_only: true })) as [string];
  const [gone] = (await insertDeals(server.db, brand.id, 1)) as [string];
  await server.db.asService(async (tx) => {
    await tx.query(`update public.deals set status = 'cancelled' where id = $1`, [gone]);
    await tx.query(`update public.deals set title = 'Pro launch' where id = $1`, [proOnly]);
  });
  const [later] = (await insertDeals(server.db, brand.id, 1)) as [string];
  const next = await settled(creator, issued);
  expect(next.reset).toBeUndefined();
  expect(next.documents).toEqual([expect.objectContaining({ id: later, _deleted: false })]);
  // Neither as a removal nor as the position the checkpoint carries.
  expect(JSON.stringify(next)).not.toContain(proOnly);
  expect(JSON.stringify(next)).not.toContain(gone);

  // Both change again after the creator's position passed them: still nothing of the Pro-only one.
  await server.db.asService((tx) =>
    tx.query(`update public.deals set title = 'Pro launch, again' where id = any($1::uuid[])`, [[proOnly, gone]]),
  );
  const again = await settled(creator, next.checkpoint as SyncCheckpoint);
  expect(JSON.stringify(again)).not.toContain(proOnly);
  // The cancelled deal was listed to everyone before the position the creator now holds: a device could
  // have held it then, so it is a removal (naming nothing the creator's scope was not shown).
  expect(again.documents).toEqual([{ id: gone, _deleted: true }]);

  // A deal the creator held, and a Pro-only one a Pro member held, leave their scope: removals.
  await server.db.asService((tx) =>
    tx.query(`update public.deals set status = 'cancelled' where id = any($1::uuid[])`, [[held, heldByPro]]),
  );
  const removal = await settled(creator, again.checkpoint as SyncCheckpoint);
  expect(removal.documents).toEqual([{ id: held, _deleted: true }]);
  const proRemovals = await settled(pro, issuedToPro);
  expect(proRemovals.documents).toContainEqual({ id: held, _deleted: true });
  expect(proRemovals.documents).toContainEqual({ id: heldByPro, _deleted: true });
});

test('pulls answered together carry each user’s own sealed checkpoint, every device of a user the same one', async () => {
  const brand = await server.createUser({ role: 'brand' });
  const [first, second] = [await server.createUser({ role: 'creator' }), await server.createUser({ role: 'creator' })];
  await insertDeals(server.db, brand.id, 2);
  const issued = async (u: TestUser) =>
    (
      await eventually(async () => {
        const page = await pull(u, 'deals', null);
        return page.body.pending !== true && page;
      })
    ).body.checkpoint as SyncCheckpoint;
  const [fromFirst, fromSecond] = [await issued(first), await issued(second)];
  const [fresh] = (await insertDeals(server.db, brand.id, 1)) as [string];

  // Same role, same position, more pulls at once than reads run at once: the later ones are read
  // together, one answer for devices of both users.
  const devices = Array.from({ length: 20 }, (_, i) =>
    i % 2 ? { user: second, from: fromSecond } : { user: first, from: fromFirst },
  );
  const pages = await eventually(async () => {
    const got = await Promise.all(devices.map((d) => pull(d.user, 'deals', d.from)));
    return got.every((p) => (p.body.documents as { id: string }[]).some((d) => d.id === fresh)) && got;
  });
  const [a, b] = [pages[0]!.body, pages[1]!.body];
  expect(b.documents).toEqual(a.documents);
  pages.forEach((page, i) => expect(page.body).toEqual(i % 2 ? b : a));
  const [nextFirst, nextSecond] = [a.checkpoint as SyncCheckpoint, b.checkpoint as SyncCheckpoint];
  expect(nextSecond.scope).not.toBe(nextFirst.scope);
  // Each continues its own user's feed and no one else's.
  expect((await pull(first, 'deals', nextFirst)).body.reset).toBeUndefined();
  expect((await pull(second, 'deals', nextSecond)).body.reset).toBeUndefined();
  expect((await pull(second, 'deals', nextFirst)).body.reset).toBe(true);
  expect((await pull(first, 'deals', nextSecond)).body.reset).toBe(true);
});

test('a checkpoint whose transaction id is 2^64 or more answers 400 bad_checkpoint, not 500', async () => {
  const creator = await server.createUser({ role: 'creator' });
  const issued = (await pull(creator, 'applications', null)).body.checkpoint as SyncCheckpoint;
  for (const checkpoint of [
    { ...issued, xid: String(2n ** 64n) },
    { ...issued, xid: '99999999999999999999' },
    { ...issued, horizon: String(2n ** 64n) },
  ]) {
    const res = await pull(creator, 'applications', checkpoint);
    expect({ status: res.status, code: res.body.code }).toEqual({ status: 400, code: 'bad_checkpoint' });
    expect(typeof res.body.message).toBe('string');
  }
  // The largest xid8 is still a position.
  expect((await pull(creator, 'applications', { ...issued, xid: String(2n ** 64n - 1n) })).status).toBe(200);
});

test('one user holds at most SYNC_STREAMS_PER_USER change streams; past it 429 with Retry-After', async () => {
  const user = await server.createUser({ role: 'creator' });
  const open = await Promise.all([1, 2, 3, 4, 5].map(() => openTestStream(server.url, user.accessToken)));
  streams.push(...open);
  expect(open.map((s) => s.status).sort()).toEqual([200, 200, 200, 429, 429]);
  const refused = open.find((s) => s.status === 429)!;
  expect(Number(refused.response.headers.get('retry-after'))).toBeGreaterThan(0);
  const body = (await refused.response.json()) as { code: string; message: string };
  expect(body.code).toBe('too_many_streams');
  expect(typeof body.message).toBe('string');

  // Another user is not affected, and a closed stream frees its place.
  const other = await server.createUser({ role: 'creator' });
  const theirs = await openTestStream(server.url, other.accessToken);
  streams.push(theirs);
  expect(theirs.status).toBe(200);
  open.find((s) => s.status === 200)!.close();
  await eventually(async () => {
    const again = await openTestStream(server.url, user.accessToken);
    streams.push(again);
    return again.status === 200;
  });
});
