import { IDBFactory } from 'fake-indexeddb';
import { expect, test } from 'vitest';
import { prepareDocument } from '../../src/db/index.ts';
import { eventually, newId, switchableFetch } from './sync-harness.ts';
import { syncTestFixture } from './sync-fixture.ts';

// A draft created and deleted on a device before it reached the server is deleted there by writing
// nothing. But the push of its creation may still be on its way: a tab reloaded while that request was
// held up pushes the deletion from the reopened tab, and the older request can land after it. The
// deletion the server acknowledged must stand.

const sync = syncTestFixture();

test('an insert landing after the same user’s deletion of that draft (pushed before the server had it) does not bring the draft back', async () => {
  const creator = await sync.server.createUser({ role: 'creator' });
  const idb = new IDBFactory();
  const name = `pacta-late-insert-${newId()}`;
  // The first tab's pushes are held up until the test lets them go (a slow network, a server restart).
  const slow = switchableFetch();
  const plainFetch = slow.fetch;
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  const late: Promise<Response>[] = [];
  slow.fetch = (input, init) => {
    if (!String(input).includes('/drafts/push')) return plainFetch(input, init);
    const response = held.then(() => plainFetch(input, init));
    late.push(response);
    return response;
  };
  const first = await sync.client(creator, ['drafts'], { idb, name, network: slow });
  const id = newId();
  await first.db.drafts.insert(
    prepareDocument('drafts', { id, user_id: creator.id, kind: 'deal', title: 'Created, then deleted' } as never),
  );
  await eventually(() => late.length === 1);
  // Deleted while its creation is still on the way; then the tab reloads.
  await (await first.db.drafts.findOne(id).exec())!.incrementalRemove();
  await sync.closeClient(first, { remove: false });

  const reopened = await sync.client(creator, ['drafts'], { idb, name });
  const acknowledged: boolean[] = [];
  reopened.replication.states.get('drafts')!.sent$.subscribe((doc) => doc.id === id && acknowledged.push(doc._deleted));
  await eventually(() => acknowledged.includes(true));

  // Now the first tab's request lands.
  release();
  expect((await late[0]!).status).toBe(200);
  const { rows } = await sync.server.db.pool.query<{ deleted: boolean }>(
    `select deleted from public.drafts where id = $1`,
    [id],
  );
  expect(rows.filter((r) => !r.deleted)).toEqual([]);
  await reopened.replication.awaitInSync();
  expect(await reopened.db.drafts.findOne(id).exec()).toBeNull();
});
