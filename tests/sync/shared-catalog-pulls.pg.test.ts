import pg from 'pg';
import { afterEach, expect, test, vi } from 'vitest';
import type { PullResponse, SyncCheckpoint } from '../../src/domain/collections/index.ts';
import type { JwtClaims } from '../../sync-server/db/database.ts';
import { serverCollection } from '../../sync-server/sync/collections.ts';
import { pullChanges } from '../../sync-server/sync/pull.ts';
import { sharedCatalogPulls } from '../../sync-server/sync/shared-catalog-pulls.ts';
import type { TestUser } from '../support/test-server.ts';
import { eventually, insertDeals, newId } from './sync-harness.ts';
import { syncTestFixture } from './sync-fixture.ts';

// After a catalog notice every online device pulls `deals` from the same checkpoint. Those pulls are
// read together: one read-only snapshot, and under RLS once per group of users RLS shows the same rows.
// Each answer must be exactly the pull that user would have read alone.

const sync = syncTestFixture();
const deals = serverCollection('deals')!;
type Page = PullResponse<{ id: string; _deleted: boolean; title?: unknown }>;

afterEach(() => vi.restoreAllMocks());

const claimsOf = (user: TestUser): JwtClaims => ({ sub: user.id, role: 'authenticated' });
const alone = (user: TestUser, checkpoint: SyncCheckpoint | null) =>
  pullChanges(
    sync.server.db,
    claimsOf(user),
    deals,
    checkpoint,
    100,
    sync.server.config.deviceDealsLimit,
  ) as Promise<Page>;

/** The statements sent to Postgres while `work` runs: read transactions begun, and RLS identities taken. */
async function statementsDuring<T>(work: () => Promise<T>): Promise<{ result: T; reads: number; asUser: number }> {
  const spy = vi.spyOn(pg.Client.prototype, 'query');
  const result = await work();
  const calls = spy.mock.calls.map(([q, values], i) => ({
    client: spy.mock.contexts[i],
    text: typeof q === 'string' ? q : String((q as { text?: string }).text),
    name: typeof q === 'string' ? undefined : (q as { name?: string }).name,
    values: JSON.stringify((typeof q === 'string' ? values : (q as { values?: unknown }).values) ?? []),
  }));
  spy.mockRestore();
  // The server's own read of each catalogue notice (streamed-catalog-rows.ts) runs in this process too,
  // as a reader with no user id of their own: it is not one of the pulls counted here. Such a read is told
  // apart by the statement its connection sends after `begin` (one begun before the window is not counted).
  const lastBegin = new Map<unknown, number>();
  const streamedBegins = new Set<number>();
  calls.forEach((c, i) => {
    if (c.text.startsWith('begin isolation level repeatable read')) lastBegin.set(c.client, i);
    else if (c.name?.startsWith('streamed-rows-') && lastBegin.has(c.client))
      streamedBegins.add(lastBegin.get(c.client)!);
  });
  return {
    result,
    reads: calls.filter((c, i) => c.text.startsWith('begin isolation level repeatable read') && !streamedBegins.has(i))
      .length,
    asUser: calls.filter(
      (c) =>
        c.text.includes(`set_config('request.jwt.claims'`) &&
        !c.values.includes('00000000-0000-0000-0000-000000000000'),
    ).length,
  };
}

/** A checkpoint at the end of the feed as `user` sees it, once nothing is held back. */
async function caughtUp(user: TestUser, mustSee: string[] = []): Promise<SyncCheckpoint> {
  const page = await eventually(async () => {
    const p = await alone(user, null);
    return p.pending !== true && mustSee.every((id) => p.documents.some((d) => d.id === id)) && p;
  });
  return page.checkpoint!;
}

async function proCreator(): Promise<TestUser> {
  const user = await sync.server.createUser({ role: 'creator' });
  await sync.server.db.pool.query(
    `update public.profiles set pro_tier = 'basic', pro_since = now(), pro_until = now() + interval '30 days' where id = $1`,
    [user.id],
  );
  return user;
}

test('ten devices of the same scope pulling after one new deal cost one read and one read under RLS', async () => {
  const brand = await sync.server.createUser({ role: 'brand' });
  const creators = await Promise.all(Array.from({ length: 10 }, () => sync.server.createUser({ role: 'creator' })));
  await insertDeals(sync.server.db, brand.id, 3);
  const checkpoint = await caughtUp(creators[0]!);
  const [fresh] = (await insertDeals(sync.server.db, brand.id, 1)) as [string];
  await eventually(async () => (await alone(creators[0]!, checkpoint)).documents.some((d) => d.id === fresh));

  const pull = sharedCatalogPulls(sync.server.db);
  const together = await statementsDuring(() =>
    Promise.all(
      creators.map(
        (c) => pull(claimsOf(c), deals, checkpoint, 100, sync.server.config.deviceDealsLimit) as Promise<Page>,
      ),
    ),
  );
  expect(together.reads).toBe(1);
  expect(together.asUser).toBe(1);
  for (const page of together.result) expect(page.documents.map((d) => d.id)).toContain(fresh);

  // The same pulls one by one: a read each, as before.
  const oneByOne = await statementsDuring(() => Promise.all(creators.map((c) => alone(c, checkpoint))));
  expect(oneByOne.reads).toBe(10);
  expect(together.result).toEqual(oneByOne.result);
});

test('pulls read together get what RLS shows each of them: Pro-only deals, a brand’s own cancelled deal, an applicant’s', async () => {
  const brand = await sync.server.createUser({ role: 'brand' });
  const otherBrand = await sync.server.createUser({ role: 'brand' });
  const [free1, free2, applicant] = await Promise.all([1, 2, 3].map(() => sync.server.createUser({ role: 'creator' })));
  const [pro1, pro2] = [await proCreator(), await proCreator()];
  const admin = await sync.server.createUser({ role: 'admin' });
  const [open, appliedTo, cancelled] = (await insertDeals(sync.server.db, brand.id, 3)) as [string, string, string];
  await sync.server.db.asService((tx) =>
    tx.query(`insert into public.applications (id, deal_id, creator_id, pitch) values ($1, $2, $3, 'Count me in')`, [
      newId(),
      appliedTo,
      applicant!.id,
    ]),
  );
  const everyone = [free1!, free2!, applicant!, pro1, pro2, brand, otherBrand, admin];
  const checkpoints = new Map<string, SyncCheckpoint>();
  for (const user of everyone) checkpoints.set(user.id, await caughtUp(user, [open]));

  // One commit changes what RLS shows differently to each of them.
  const [proOnly] = (await insertDeals(sync.server.db, brand.id, 1, { pro_only: true })) as [string];
  await sync.server.db.asService(async (tx) => {
    await tx.query(`update public.deals set status = 'cancelled' where id = any($1::uuid[])`, [[appliedTo, cancelled]]);
  });
  await eventually(async () => (await alone(admin, checkpoints.get(admin.id)!)).documents.length >= 3);

  const pull = sharedCatalogPulls(sync.server.db);
  const together = await statementsDuring(() =>
    Promise.all(
      everyone.map(
        (u) =>
          pull(claimsOf(u), deals, checkpoints.get(u.id)!, 100, sync.server.config.deviceDealsLimit) as Promise<Page>,
      ),
    ),
  );
  const oneByOne = await Promise.all(everyone.map((u) => alone(u, checkpoints.get(u.id)!)));
  // Each answer is the user's own pull: nothing shared across a difference RLS makes.
  expect(together.result).toEqual(oneByOne);
  expect(together.reads).toBe(1);

  const seen = (user: TestUser) => {
    const page = together.result[everyone.indexOf(user)]!;
    return Object.fromEntries(page.documents.map((d) => [d.id, d._deleted ? 'removed' : 'seen']));
  };
  // A Pro-only deal created after their checkpoint is no removal for those who never could have held it.
  expect(seen(free1!)).toEqual({ [appliedTo]: 'removed', [cancelled]: 'removed' });
  expect(seen(pro1)).toEqual({ [proOnly]: 'seen', [appliedTo]: 'removed', [cancelled]: 'removed' });
  expect(seen(applicant!)).toEqual({ [appliedTo]: 'seen', [cancelled]: 'removed' });
  expect(seen(brand)).toEqual({ [proOnly]: 'seen', [appliedTo]: 'seen', [cancelled]: 'seen' });
  expect(seen(otherBrand)).toEqual({ [appliedTo]: 'removed', [cancelled]: 'removed' });
  expect(seen(admin)).toEqual({ [proOnly]: 'seen', [appliedTo]: 'seen', [cancelled]: 'seen' });
  // Under RLS once per group that sees the same rows — free creators, Pro creators, other brands,
  // admins — and once for each user with a reason of their own: the applicant and the deals' brand.
  expect(together.asUser).toBe(6);
});

test('a notice arriving while an older transaction is still open: pulls read together skip no row', async () => {
  const brand = await sync.server.createUser({ role: 'brand' });
  const otherBrand = await sync.server.createUser({ role: 'brand' });
  const creators = await Promise.all([1, 2, 3].map(() => sync.server.createUser({ role: 'creator' })));
  await insertDeals(sync.server.db, brand.id, 2);
  const checkpoint = await caughtUp(creators[0]!);
  const pull = sharedCatalogPulls(sync.server.db);
  const pullAll = (from: SyncCheckpoint[]) =>
    Promise.all(
      creators.map(
        (c, i) => pull(claimsOf(c), deals, from[i]!, 100, sync.server.config.deviceDealsLimit) as Promise<Page>,
      ),
    );

  const insert = `insert into public.deals (id, brand_id, title, description, amount_cents, niches)
                  values ($1, $2, 'Out of order', 'Out of order', 10000, '{tech}')`;
  const txA = await sync.server.db.pool.connect();
  const txB = await sync.server.db.pool.connect();
  const [idA, idB] = [newId(), newId()];
  try {
    await txA.query('begin');
    await txA.query(insert, [idA, brand.id]); // A has the older transaction id
    await txB.query('begin');
    await txB.query(insert, [idB, otherBrand.id]);
    await txB.query('commit'); // B commits first and its notice goes out

    const whileAOpen = await pullAll(creators.map(() => checkpoint));
    for (const page of whileAOpen) {
      expect(page.documents.map((d) => d.id)).not.toContain(idB);
      expect(page.pending).toBe(true);
    }
    await txA.query('commit');
    const after = await eventually(async () => {
      const pages = await pullAll(whileAOpen.map((p) => p.checkpoint!));
      return pages.every((p) => [idA, idB].every((id) => p.documents.some((d) => d.id === id))) && pages;
    });
    // Both, in the order their transactions began: A's row is not passed by B's checkpoint.
    for (const page of after)
      expect(page.documents.map((d) => d.id).filter((id) => id === idA || id === idB)).toEqual([idA, idB]);
  } finally {
    txA.release();
    txB.release();
  }
});

test('deals_read is the policy the shared read was written against', async () => {
  // The shared read relies on RLS showing a deal to a user only through their role, Pro membership,
  // and the deal's brand and applicants (PERSONAL_READERS in sync-server/sync/shared-catalog-pulls.ts).
  // A change to the policy must be read against that list before this expectation is updated.
  const { rows } = await sync.server.db.pool.query<{ policyname: string; qual: string }>(
    `select policyname, qual from pg_policies where schemaname = 'public' and tablename = 'deals' and cmd in ('SELECT', 'ALL')`,
  );
  expect(rows.map((r) => r.policyname)).toEqual(['deals_read']);
  expect(rows[0]!.qual.replace(/\s+/g, ' ')).toMatchInlineSnapshot(
    `"(((status = ANY (ARRAY['open'::text, 'completed'::text])) AND ((NOT pro_only) OR ( SELECT is_pro_user(( SELECT auth.uid() AS uid)) AS is_pro_user))) OR (brand_id = ( SELECT auth.uid() AS uid)) OR (id IN ( SELECT a.deal_id FROM applications a WHERE (a.creator_id = ( SELECT auth.uid() AS uid)))) OR ( SELECT is_admin() AS is_admin))"`,
  );
});

test('a user id written in capitals is the same user: a brand’s own cancelled deal is not answered from its group’s read', async () => {
  const brand = await sync.server.createUser({ role: 'brand' });
  const otherBrand = await sync.server.createUser({ role: 'brand' });
  const [deal] = (await insertDeals(sync.server.db, brand.id, 1)) as [string];
  const checkpoint = await caughtUp(brand, [deal]);
  const otherCheckpoint = await caughtUp(otherBrand, [deal]);
  expect(otherCheckpoint).toEqual(checkpoint);
  await sync.server.db.asService((tx) =>
    tx.query(`update public.deals set status = 'cancelled' where id = $1`, [deal]),
  );
  await eventually(async () => (await alone(brand, checkpoint)).documents.some((d) => d.id === deal));

  const pull = sharedCatalogPulls(sync.server.db);
  const [other, own] = await Promise.all([
    pull(claimsOf(otherBrand), deals, checkpoint, 100, sync.server.config.deviceDealsLimit) as Promise<Page>,
    pull(
      { sub: brand.id.toUpperCase(), role: 'authenticated' },
      deals,
      checkpoint,
      100,
      sync.server.config.deviceDealsLimit,
    ) as Promise<Page>,
  ]);
  expect(other.documents.find((d) => d.id === deal)).toEqual({ id: deal, _deleted: true });
  expect(own.documents.find((d) => d.id === deal)).toMatchObject({ id: deal, _deleted: false, status: 'cancelled' });
});
