import type { PactaDatabase } from '../create-database.ts';
import { watchUploads } from './upload-store.ts';

/**
 * Runs the upload queue (upload-queue.ts) once the device holds a job for the user: most sessions send
 * no file, and the queue's code then stays off their first screen. A job queued offline still runs: the
 * service worker precaches the queue's code. A load that fails is tried again at the next change of
 * the jobs.
 */
export function runUploadsWhenQueued(db: PactaDatabase, userId: string): () => void {
  let stopped = false;
  let loading = false;
  let stopQueue: (() => void) | undefined;
  const sub = watchUploads(userId).subscribe((jobs) => {
    if (jobs.length === 0 || loading || stopQueue) return;
    loading = true;
    import('./upload-queue.ts').then(
      ({ runUploads }) => {
        if (!stopped) stopQueue = runUploads(db, userId);
      },
      () => (loading = false),
    );
  });
  return () => {
    stopped = true;
    sub.unsubscribe();
    stopQueue?.();
  };
}
