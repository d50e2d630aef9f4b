import 'fake-indexeddb/auto';
import { randomUUID } from 'node:crypto';
import { afterEach, expect, test, vi } from 'vitest';
import type { PactaDatabase } from '../create-database.ts';
import { waitingJob } from './waiting-job.fixture.ts';
import { addUpload, removeUserUploads } from './upload-store.ts';
import { runUploadsWhenQueued } from './run-when-queued.ts';

const queue = vi.hoisted(() => ({ started: [] as string[], stopped: [] as string[] }));
vi.mock('./upload-queue.ts', () => ({
  runUploads: (_db: unknown, userId: string) => {
    queue.started.push(userId);
    return () => queue.stopped.push(userId);
  },
}));

const userId = randomUUID();
const db = {} as PactaDatabase;
afterEach(() => removeUserUploads(userId));

const job = () => waitingJob(userId);

test('the upload queue starts only once a job waits, once, and stops with the session', async () => {
  const stop = runUploadsWhenQueued(db, userId);
  await new Promise((resolve) => setTimeout(resolve, 50));
  expect(queue.started).toEqual([]);

  await addUpload(job(), new Blob(['png']));
  await vi.waitFor(() => expect(queue.started).toEqual([userId]));
  await addUpload(job(), new Blob(['png']));
  await new Promise((resolve) => setTimeout(resolve, 50));
  expect(queue.started).toEqual([userId]);

  stop();
  expect(queue.stopped).toEqual([userId]);
});
