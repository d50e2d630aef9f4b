import 'fake-indexeddb/auto';
import { randomUUID } from 'node:crypto';
import { firstValueFrom, filter } from 'rxjs';
import { afterEach, expect, test } from 'vitest';
import { waitingJob } from './waiting-job.fixture.ts';
import { addUpload, removeUserUploads, watchUploads } from './upload-store.ts';

const userId = randomUUID();
afterEach(() => removeUserUploads(userId));

const job = () => waitingJob(userId);

test('every watcher of the jobs sees the list now and at each change; one that comes later gets the last list at once', async () => {
  const first: number[] = [];
  const shared = watchUploads(userId);
  const a = watchUploads(userId).subscribe((jobs) => first.push(jobs.length));
  await firstValueFrom(watchUploads(userId));
  await addUpload(job(), new Blob(['abc']));
  await firstValueFrom(watchUploads(userId).pipe(filter((jobs) => jobs.length === 1)));

  const late: number[] = [];
  const b = watchUploads(userId).subscribe((jobs) => late.push(jobs.length));
  expect(late).toEqual([1]);
  await addUpload(job(), new Blob(['def']));
  await firstValueFrom(watchUploads(userId).pipe(filter((jobs) => jobs.length === 2)));
  expect(first).toEqual([0, 1, 2]);
  expect(late).toEqual([1, 2]);
  a.unsubscribe();
  b.unsubscribe();

  // With no watcher left the query ends and is let go; the next watcher reads the jobs afresh, not a kept list.
  expect(watchUploads(userId)).not.toBe(shared);
  await removeUserUploads(userId);
  expect(await firstValueFrom(watchUploads(userId))).toEqual([]);
});
