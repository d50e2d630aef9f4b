import { Dexie, liveQuery, type EntityTable } from 'dexie';
import { finalize, from, shareReplay, type Observable } from 'rxjs';
import type { UploadJob } from './upload-jobs.ts';

/**
 * Files waiting to upload, kept on the device until the server has them (docs/decisions/029): one
 * IndexedDB database beside RxDB's, with the jobs in one table and their bytes in another (a list of
 * jobs never reads the files). Every tab sees the same queue; Dexie's live queries tell each tab
 * when another one changed it.
 */
type StoredFile = { id: string; blob: Blob };

class UploadDatabase extends Dexie {
  jobs!: EntityTable<UploadJob, 'id'>;
  files!: EntityTable<StoredFile, 'id'>;
  constructor() {
    super('pacta-uploads');
    this.version(1).stores({ jobs: 'id, userId', files: 'id' });
  }
}

let database: UploadDatabase | undefined;
const db = () => (database ??= new UploadDatabase());

export async function addUpload(job: UploadJob, blob: Blob): Promise<void> {
  await db().transaction('rw', db().jobs, db().files, async () => {
    await db().files.put({ id: job.id, blob });
    await db().jobs.put(job);
  });
}

/** Several jobs at once, or none of them (a draft's files: a reload never leaves half a draft queued). */
export async function addUploads(items: readonly { job: UploadJob; blob: Blob }[]): Promise<void> {
  await db().transaction('rw', db().jobs, db().files, async () => {
    await db().files.bulkPut(items.map(({ job, blob }) => ({ id: job.id, blob })));
    await db().jobs.bulkPut(items.map(({ job }) => job));
  });
}

export function readUploadFile(id: string): Promise<Blob | undefined> {
  return db()
    .files.get(id)
    .then((f) => f?.blob);
}

export function listUploads(userId: string): Promise<UploadJob[]> {
  return db().jobs.where('userId').equals(userId).toArray();
}

const watched = new Map<string, Observable<UploadJob[]>>();

/**
 * The user's jobs, now and at every change. One query serves every watcher of a tab (the queue, the
 * count the sign-out warning reads, the uploads list): a new watcher gets the last list at once, and
 * the query ends with its last watcher, and so does its entry here (a tab that signs in as many users
 * keeps none of theirs).
 */
export function watchUploads(userId: string): Observable<UploadJob[]> {
  const kept = watched.get(userId);
  if (kept) return kept;
  const jobs: Observable<UploadJob[]> = from(liveQuery(() => listUploads(userId))).pipe(
    finalize(() => {
      if (watched.get(userId) === jobs) watched.delete(userId);
    }),
    shareReplay({ bufferSize: 1, refCount: true }),
  );
  watched.set(userId, jobs);
  return jobs;
}

export async function patchUpload(id: string, patch: Partial<UploadJob>): Promise<void> {
  await db().jobs.update(id, patch);
}

/** Removes a job and its file (done, or given up by its owner). */
export async function removeUpload(id: string): Promise<void> {
  await db().transaction('rw', db().jobs, db().files, async () => {
    await db().jobs.delete(id);
    await db().files.delete(id);
  });
}

/** Gives up a job and every job of the same draft, in one go (a draft goes out whole or not at all). */
export async function removeUploadWithDraft(id: string): Promise<void> {
  await db().transaction('rw', db().jobs, db().files, async () => {
    const job = await db().jobs.get(id);
    const target = job?.target;
    const ids =
      job && target?.kind === 'draft'
        ? (await db().jobs.where('userId').equals(job.userId).toArray())
            .filter((j) => j.target.kind === 'draft' && j.target.draftId === target.draftId)
            .map((j) => j.id)
        : [id];
    await db().jobs.bulkDelete(ids);
    await db().files.bulkDelete(ids);
  });
}

/** Sign-out: nothing of the user's files stays on the device. */
export async function removeUserUploads(userId: string): Promise<void> {
  const ids = (await listUploads(userId)).map((j) => j.id);
  await db().transaction('rw', db().jobs, db().files, async () => {
    await db().jobs.bulkDelete(ids);
    await db().files.bulkDelete(ids);
  });
  // Signing out leaves nothing of the user on the device: with no one else's files waiting, the
  // queue's database itself goes too.
  if ((await db().jobs.count()) === 0) {
    const emptied = db();
    database = undefined;
    await emptied.delete();
  }
}
