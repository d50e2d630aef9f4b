import { afterAll, beforeAll, expect, test } from 'vitest';
import { SYNC_PROTOCOL_VERSION } from '../../src/domain/collections/index.ts';
import { startTestServer, type TestServer, type TestUser } from '../support/test-server.ts';
import { eventually, newId } from './sync-harness.ts';

// A tab reloaded while its push was still being written pushes the same document again at once (the
// first push was never answered). A deletion that read no row yet would be answered as done (there is
// nothing to delete) and the insert would land after it: the user's deletion lost. Two pushes of one
// document take turns, so the second reads what the first wrote.

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
  // A slow insert, as on a busy server: a draft titled 'Slow draft' takes a second to write.
  await server.db.pool.query(`
    create function public.test_slow_draft() returns trigger language plpgsql as $$
    begin
      if new.title = 'Slow draft' then perform pg_sleep(1); end if;
      return new;
    end $$;
    create trigger zz_test_slow_draft before insert on public.drafts for each row execute function public.test_slow_draft();`);
});
afterAll(async () => {
  await server?.close();
});

type Doc = Record<string, unknown> & { id: string };

async function push(
  user: TestUser,
  rows: { newDocumentState: Doc; assumedMasterState?: Doc }[],
): Promise<{ status: number; conflicts: Doc[] }> {
  const res = await fetch(`${server.url}/sync/v1/drafts/push`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      authorization: `Bearer ${user.accessToken}`,
      'x-pacta-protocol': String(SYNC_PROTOCOL_VERSION),
    },
    body: JSON.stringify({ rows }),
  });
  return { status: res.status, conflicts: ((await res.json()) as { conflicts: Doc[] }).conflicts };
}

test('a deletion pushed while the same draft’s insert is still being written waits for it, and is not answered as done', async () => {
  const user = await server.createUser({ role: 'creator' });
  const id = newId();
  const draft = { id, user_id: user.id, kind: 'deal', title: 'Slow draft', payload: {}, _deleted: false };
  const insert = push(user, [{ newDocumentState: draft }]);
  await eventually(async () => {
    const { rows } = await server.db.pool.query(`select 1 from pg_stat_activity where wait_event = 'PgSleep'`);
    return rows.length > 0;
  });

  const deletion = await push(user, [{ newDocumentState: { ...draft, _deleted: true } }]);
  expect(await insert).toEqual({ status: 200, conflicts: [] });
  // The deletion read the inserted draft: it comes back as the server's state, not as done.
  expect(deletion.status).toBe(200);
  expect(deletion.conflicts).toMatchObject([{ id, title: 'Slow draft', _deleted: false }]);
  // On that state, the device's deletion is written.
  const master = deletion.conflicts[0]!;
  expect(
    (await push(user, [{ newDocumentState: { ...master, _deleted: true }, assumedMasterState: master }])).conflicts,
  ).toEqual([]);
  const { rows } = await server.db.pool.query(`select deleted from public.drafts where id = $1`, [id]);
  expect(rows).toEqual([{ deleted: true }]);
});
