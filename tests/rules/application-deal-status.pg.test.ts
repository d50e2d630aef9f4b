import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { SYNC_PROTOCOL_VERSION } from '../../src/domain/collections/index.ts';
import { createDatabase } from '../../sync-server/db/database.ts';
import { migrate } from '../../sync-server/db/migrate.ts';
import { apply, asServer, asUser, expectRule, makeDeal, makeUser } from '../support/rules-fixtures.ts';
import { createTestDatabase } from '../support/test-database.ts';
import { startTestServer, type TestServer, type TestUser } from '../support/test-server.ts';
import { databaseFingerprint, newId } from '../sync/sync-harness.ts';

// applications.deal_status (20261124000200_application_deal_status.sql): the server's copy of the
// deal's status on each application, which a creator's My Deals pages and counts by. Set on insert,
// rewritten (and re-stamped, so devices pull it) when the deal's status changes, never a client's.

let server: TestServer;
let brand: TestUser;
let creator: TestUser;
let other: TestUser;
beforeAll(async () => {
  server = await startTestServer();
  [brand, creator, other] = await Promise.all([
    server.createUser({ role: 'brand' }),
    server.createUser({ role: 'creator' }),
    server.createUser({ role: 'creator' }),
  ]);
});
afterAll(() => server?.close());

const application = async (id: string) =>
  (
    await asServer(
      server.db,
      'select deal_status, version, change_xid::text as xid from public.applications where id = $1',
      [id],
    )
  ).rows[0] as {
    deal_status: string;
    version: number;
    xid: string;
  };

describe('the server keeps each application’s copy of its deal’s status', () => {
  test('a new application takes the deal’s status, whatever the client sent', async () => {
    const dealId = await makeDeal(server.db, brand.id);
    const id = newId();
    await asUser(
      server.db,
      creator.id,
      `insert into public.applications (id, deal_id, creator_id, deal_status) values ($1, $2, $3, 'completed')`,
      [id, dealId, creator.id],
    );
    expect((await application(id)).deal_status).toBe('open');
  });

  test('accepting, completing and cancelling rewrite every application of the deal, with a new version', async () => {
    const dealId = await makeDeal(server.db, brand.id);
    const [mine, theirs] = [await apply(server.db, creator.id, dealId), await apply(server.db, other.id, dealId)];
    const before = await application(theirs);

    // The brand accepts one creator: the deal is in progress, for both applications.
    await asUser(server.db, brand.id, `update public.applications set status = 'accepted' where id = $1`, [mine]);
    const accepted = await application(theirs);
    expect(accepted.deal_status).toBe('in_progress');
    expect(accepted.version).toBe(before.version + 1);
    expect(BigInt(accepted.xid)).toBeGreaterThan(BigInt(before.xid));
    expect((await application(mine)).deal_status).toBe('in_progress');

    await asUser(server.db, brand.id, `update public.deals set status = 'completed' where id = $1`, [dealId]);
    expect([(await application(mine)).deal_status, (await application(theirs)).deal_status]).toEqual([
      'completed',
      'completed',
    ]);

    const cancelled = await makeDeal(server.db, brand.id);
    const waiting = await apply(server.db, creator.id, cancelled);
    await asUser(server.db, brand.id, `update public.deals set status = 'cancelled' where id = $1`, [cancelled]);
    expect((await application(waiting)).deal_status).toBe('cancelled');
  });

  test('an edit of the deal that keeps its status leaves the applications alone', async () => {
    const dealId = await makeDeal(server.db, brand.id);
    const id = await apply(server.db, creator.id, dealId);
    const before = await application(id);
    await asUser(server.db, brand.id, `update public.deals set title = 'Renamed' where id = $1`, [dealId]);
    expect(await application(id)).toEqual(before);
  });

  test('no client may change it: neither the creator nor the brand', async () => {
    const dealId = await makeDeal(server.db, brand.id);
    const id = await apply(server.db, creator.id, dealId);
    for (const who of [creator.id, brand.id]) {
      const err = await expectRule(
        asUser(server.db, who, `update public.applications set deal_status = 'completed' where id = $1`, [id]),
        'server_owned_field',
        403,
      );
      expect(err.hint).toBe('deal_status');
    }
    expect((await application(id)).deal_status).toBe('open');
  });
});

describe('through sync', () => {
  const push = (user: TestUser, rows: unknown[]) =>
    fetch(`${server.url}/sync/v1/applications/push`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${user.accessToken}`,
        'x-pacta-protocol': String(SYNC_PROTOCOL_VERSION),
      },
      body: JSON.stringify({ rows }),
    });
  const pulled = async (user: TestUser, id: string) => {
    const res = await fetch(`${server.url}/sync/v1/applications/pull?limit=1000`, {
      headers: { authorization: `Bearer ${user.accessToken}`, 'x-pacta-protocol': String(SYNC_PROTOCOL_VERSION) },
    });
    const body = (await res.json()) as { documents: Record<string, unknown>[] };
    return body.documents.find((d) => d.id === id);
  };
  // A feed holds a row once every transaction older than it has ended (another one of the server's
  // may be open when the push commits): a pull right after may be a moment early.
  const pulledOnceFed = async (user: TestUser, id: string) => {
    let found: Awaited<ReturnType<typeof pulled>>;
    await expect.poll(async () => (found = await pulled(user, id))).toBeDefined();
    return found!;
  };

  test('a pushed application gets the deal’s status; a push changing it is refused whole and writes nothing', async () => {
    const dealId = await makeDeal(server.db, brand.id);
    const id = newId();
    const sent = {
      id,
      deal_id: dealId,
      creator_id: creator.id,
      status: 'pending',
      pitch: '',
      deal_status: 'cancelled',
      _deleted: false,
    };
    const res = await push(creator, [{ newDocumentState: sent }]);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ conflicts: [] });
    const master = await pulledOnceFed(creator, id);
    expect(master).toMatchObject({ id, deal_status: 'open' });

    const before = await databaseFingerprint(server.db);
    const refused = await push(creator, [
      { newDocumentState: { ...master, pitch: 'Edited', deal_status: 'completed' }, assumedMasterState: master },
    ]);
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ code: 'server_owned_field', field: 'deal_status' });
    expect(await databaseFingerprint(server.db)).toBe(before);

    // The brand completes the deal: the creator's next pull carries the new status.
    await asUser(server.db, brand.id, `update public.applications set status = 'accepted' where id = $1`, [id]);
    await asUser(server.db, brand.id, `update public.deals set status = 'completed' where id = $1`, [dealId]);
    await expect.poll(() => pulled(creator, id)).toMatchObject({ deal_status: 'completed', status: 'accepted' });
  });
});

test('the migration gives existing applications their deal’s status, with a new version', async () => {
  const database = await createTestDatabase();
  const db = createDatabase(database.url);
  try {
    // The database as it was before the migration.
    await db.asService(async (tx) => {
      await tx.query(`drop trigger y_applications_deal_status on public.deals`);
      await tx.query(`drop trigger c_deal_status on public.applications`);
      await tx.query(
        `drop function pacta_private.deal_status_to_applications(), pacta_private.applications_deal_status()`,
      );
      await tx.query(`alter table public.applications drop column deal_status`);
      await tx.query(`delete from supabase_migrations.schema_migrations where version = '20261124000200'`);
    });
    const [b, c] = [await makeUser(db, 'brand'), await makeUser(db, 'creator')];
    const [open, done] = [await makeDeal(db, b), await makeDeal(db, b)];
    const [stays, moves] = [await apply(db, c, open), await apply(db, c, done)];
    await asUser(db, b, `update public.applications set status = 'accepted' where id = $1`, [moves]);
    await asUser(db, b, `update public.deals set status = 'completed' where id = $1`, [done]);
    const versions = async () =>
      Object.fromEntries(
        (
          await asServer(db, 'select id, version, to_jsonb(a) ->> $1 as deal_status from public.applications a', [
            'deal_status',
          ])
        ).rows.map((r) => [r.id, r]),
      ) as Record<string, { version: number; deal_status: string | null }>;
    const before = await versions();

    expect((await migrate(database.url, { localBootstrap: true, seed: false })).migrations).toEqual([
      '20261124000200_application_deal_status.sql',
    ]);
    const after = await versions();
    expect(after[stays]).toEqual({ ...before[stays], deal_status: 'open' });
    expect(after[moves]).toEqual({ id: moves, version: before[moves]!.version + 1, deal_status: 'completed' });
  } finally {
    await db.close();
    await database.drop();
  }
});
