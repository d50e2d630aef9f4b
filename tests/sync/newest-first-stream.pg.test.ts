import { expect, test } from 'vitest';
import { createSyncApi } from '../../src/db/sync-api.ts';
import { FIRST_SNAPSHOT_PAGE, MAX_PULL_LIMIT } from '../../src/domain/collections/index.ts';
import type { TestUser } from '../support/test-server.ts';
import { eventually, insertDeals } from './sync-harness.ts';
import { syncTestFixture } from './sync-fixture.ts';

const sync = syncTestFixture();

/**
 * A fresh device's stream of deals, page by page, once no row is held back: a feed (and the newest rows
 * leading it) holds a row once every older transaction of the Postgres cluster has ended, and the test
 * files share one cluster.
 */
async function streamedPages(user: TestUser): Promise<string[][]> {
  const api = createSyncApi({ serverUrl: sync.server.url, getAccessToken: () => user.accessToken });
  return eventually(async () => {
    const pages: string[][] = [];
    let pending = false;
    for await (const page of api.snapshot('deals', MAX_PULL_LIMIT)) {
      pages.push(page.documents.map((d) => d.id));
      pending = page.pending === true;
    }
    return !pending && pages;
  });
}

test("a fresh device's first page holds the newest deals, its own or kept first; the whole feed follows", async () => {
  const brand = await sync.server.createUser({ role: 'brand' });
  const creator = await sync.server.createUser({ role: 'creator' });
  const other = await sync.server.createUser({ role: 'brand' });
  // 300 deals of the brand, created a minute apart in the order inserted (the last one newest), then
  // 150 of another brand, older than all of them.
  const ids = await insertDeals(sync.server.db, brand.id, 300, { createdMinutesAgo: 0 });
  const others = await insertDeals(sync.server.db, other.id, 150, { createdMinutesAgo: 1_000 });
  const kept = [ids[3]!, ids[1]!];
  await sync.server.db.asService(async (tx) => {
    // The creator kept two of the brand's oldest deals, the second one last.
    await tx.query(
      `insert into public.kept_deals (user_id, deal_id, kept_at) values ($1, $2, now() - interval '1 hour'), ($1, $3, now())`,
      [creator.id, kept[1], kept[0]],
    );
  });
  const newestFirst = [...ids].reverse();
  // ...and applied to two of them, the second one last (an application keeps its deal too).
  const applied = [ids[5]!, ids[7]!];
  await sync.server.db.asService(async (tx) => {
    const { rows } = await tx.query<{ id: string }>(
      `insert into public.applications (id, deal_id, creator_id, pitch)
       select gen_random_uuid(), d, $1, 'A pitch' from unnest($2::uuid[]) d returning id, deal_id`,
      [creator.id, applied],
    );
    await tx.query('set local session_replication_role = replica');
    await tx.query(
      `update public.applications set created_at = now() - case when deal_id = $2 then interval '0' else interval '1 minute' end
        where id = any($1::uuid[])`,
      [rows.map((r) => r.id), applied[0]],
    );
  });

  // The brand: its own deals, newest first, before the other brand's.
  const brandPages = await streamedPages(brand);
  expect(brandPages[0]).toEqual(newestFirst.slice(0, FIRST_SNAPSHOT_PAGE));
  // Then the whole feed in full pages, in which each deal is once.
  const brandFeed = brandPages.slice(1).flat();
  expect(brandPages.slice(1, -1).every((p) => p.length === MAX_PULL_LIMIT)).toBe(true);
  expect(new Set(brandFeed).size).toBe(brandFeed.length);
  expect(brandFeed).toEqual(expect.arrayContaining([...ids, ...others]));

  // The creator: the deals it applied to, newest application first, then the other deals it keeps,
  // most recently kept first, then the newest others.
  const creatorPages = await streamedPages(creator);
  expect(creatorPages[0]!.slice(0, 6)).toEqual([
    applied[0],
    applied[1],
    kept[0],
    kept[1],
    newestFirst[0],
    newestFirst[1],
  ]);
  expect(creatorPages[0]).toHaveLength(FIRST_SNAPSHOT_PAGE);
  expect(creatorPages.slice(1).flat()).toEqual(expect.arrayContaining([...ids, ...others]));

  // A device syncing from that stream holds each deal once, and its first sync ends with the feed.
  const c = await sync.client(creator, ['deals']);
  await c.replication.awaitInitialSync();
  expect(await c.db.deals.count().exec()).toBe(ids.length + others.length);
  expect(c.replication.syncStatus.initialSync.complete).toBe(true);
});
