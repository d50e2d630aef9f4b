import 'fake-indexeddb/auto';
import { randomUUID } from 'node:crypto';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { getRxStorageDexie } from 'rxdb/plugins/storage-dexie';
import { afterEach, expect, test, vi } from 'vitest';
import { createPactaDatabase, type PactaDatabase } from '../create-database.ts';
import { finishUpload } from './finish-upload.ts';
import { cancelUpload, queueDraft } from './upload-queue.ts';
import { listUploads, removeUpload, removeUserUploads } from './upload-store.ts';

// A draft with files: its files wait in the upload queue, and the draft is written only once the
// last of them is on the server, naming them all; giving up one file gives up the draft.

let db: PactaDatabase | undefined;
const userId = randomUUID();
afterEach(async () => {
  await db?.remove();
  db = undefined;
  await removeUserUploads(userId);
});

async function open(): Promise<PactaDatabase> {
  vi.spyOn(console, 'warn').mockImplementation(() => {}); // RxDB's open-core storage notice
  return createPactaDatabase({
    userId,
    name: `unit-${randomUUID()}`,
    storage: getRxStorageDexie({ indexedDB: new IDBFactory(), IDBKeyRange }),
    multiInstance: false,
  });
}

const draft = (files: File[]) => ({
  userId,
  applicationId: randomUUID(),
  dealId: randomUUID(),
  deliverableId: 'd1',
  note: 'First cut',
  links: ['https://video.example/cut-1'],
  files,
});

test('the draft is written when its last file is uploaded, naming every file in the deal folder', async () => {
  db = await open();
  const input = draft([
    new File(['a'], 'Cover frame.PNG', { type: 'image/png' }),
    new File(['b'], 'script.pdf', { type: 'application/pdf' }),
  ]);
  const draftId = await queueDraft(input);
  const jobs = await listUploads(userId);
  expect(jobs.map((j) => j.bucket)).toEqual(['deliverables', 'deliverables']);
  const names = jobs.map((j) => j.objectName);
  expect(names).toEqual([
    `${input.dealId}/${jobs[0]!.id}-Cover-frame.png`,
    `${input.dealId}/${jobs[1]!.id}-script.pdf`,
  ]);

  // The first file is on the server: nothing is written yet.
  await finishUpload(db, jobs[0]!);
  await removeUpload(jobs[0]!.id);
  expect(await db.deal_events.findOne(draftId).exec()).toBeNull();

  // The last one: the draft, with both files. Doing it again (a reload in between) writes nothing new.
  await finishUpload(db, jobs[1]!);
  await finishUpload(db, jobs[1]!);
  const written = await db.deal_events.findOne(draftId).exec();
  expect(written?.toJSON()).toMatchObject({
    kind: 'draft',
    application_id: input.applicationId,
    deal_id: input.dealId,
    author_id: userId,
    deliverable_id: 'd1',
    note: 'First cut',
    links: ['https://video.example/cut-1'],
    files: names,
  });
});

test("removing one of a draft's waiting files gives up the whole draft", async () => {
  db = await open();
  await queueDraft(
    draft([new File(['a'], 'a.png', { type: 'image/png' }), new File(['b'], 'b.png', { type: 'image/png' })]),
  );
  const other = await queueDraft(draft([new File(['c'], 'c.png', { type: 'image/png' })]));
  const [first] = await listUploads(userId);
  await cancelUpload(first!.id);
  const left = await listUploads(userId);
  expect(left.map((j) => (j.target.kind === 'draft' ? j.target.draftId : null))).toEqual([other]);
});
