import { expect, test } from 'vitest';
import type { RxDocumentData } from 'rxdb';
import { prepareDocument } from '../../src/db/index.ts';
import type { PushRow, SyncDoc } from '../../src/db/sync-api.ts';
import { eventually, newId } from './sync-harness.ts';
import { syncTestFixture } from './sync-fixture.ts';

// RxDB's push step reads the documents to push, and reads their known server states only once the push
// before it is done (a push held up by a server restart can take seconds). A pull that overwrites a
// document in between (RxDB's pull does so only when the device holds no change of it) leaves a row
// carrying the older document against the newer server state. Sent, that row would write the older
// state back over the server's: a deletion made on another device would be undone, and the user's
// acknowledged deletion lost. The row is no change of this device: nothing may be sent for it.

const sync = syncTestFixture();

function withoutMeta(doc: RxDocumentData<SyncDoc>): SyncDoc {
  const { _meta: _m, _rev: _r, _attachments: _a, ...state } = doc;
  return state as SyncDoc;
}

test('a push row a pull superseded before it was sent is not sent: the deletion made on another device stays', async () => {
  const creator = await sync.server.createUser({ role: 'creator' });
  const device = await sync.client(creator, ['drafts']);
  const other = await sync.client(creator, ['drafts']);
  const id = newId();
  await other.db.drafts.insert(
    prepareDocument('drafts', { id, user_id: creator.id, kind: 'deal', title: 'Soon deleted' } as never),
  );
  await eventually(async () => (await device.db.drafts.findOne(id).exec())?.get('version') === 1);
  const storage = device.db.drafts.storageInstance;
  // What RxDB's push step read while another push was still in flight.
  const [read] = (await storage.findDocumentsById([id], true)) as RxDocumentData<SyncDoc>[];

  await (await other.db.drafts.findOne(id).exec())!.incrementalRemove();
  await other.replication.awaitInSync();
  await eventually(async () => (await device.db.drafts.findOne(id).exec()) === null);
  // The known server state it reads afterwards: the pulled deletion.
  const [pulled] = (await storage.findDocumentsById([id], true)) as RxDocumentData<SyncDoc>[];
  expect(pulled!._deleted).toBe(true);

  const pushesBefore = device.network.calls.filter((call) => call.url.includes('/push')).length;
  const rows: PushRow[] = [{ newDocumentState: withoutMeta(read!), assumedMasterState: withoutMeta(pulled!) }];
  const answer = await device.replication.states.get('drafts')!.push!.handler(rows as never);

  // Answered with the document as the pull wrote it (a conflict RxDB then finds already settled).
  expect(answer).toEqual([expect.objectContaining({ id, _deleted: true })]);
  expect(device.network.calls.filter((call) => call.url.includes('/push')).length).toBe(pushesBefore);
  const { rows: server } = await sync.server.db.pool.query<{ deleted: boolean }>(
    `select deleted from public.drafts where id = $1`,
    [id],
  );
  expect(server).toEqual([{ deleted: true }]);
});
