import type { DetailedError, Upload } from 'tus-js-client';
import { v7 as uuidv7 } from 'uuid';
import type { PactaDatabase } from '../create-database.ts';
import { supabaseAnonKey, supabaseUrl } from '../../lib/config.ts';
import { getSessionManager } from '../../lib/session/session.ts';
import { finishUpload } from './finish-upload.ts';
import {
  afterUploadError,
  cleanFileName,
  draftObjectName,
  nextJob,
  objectNameFor,
  progressWorthSaving,
  type UploadBucket,
  type UploadJob,
  type UploadOutcome,
  type UploadTarget,
} from './upload-jobs.ts';
import {
  addUpload,
  addUploads,
  listUploads,
  patchUpload,
  readUploadFile,
  removeUpload,
  removeUploadWithDraft,
  watchUploads,
} from './upload-store.ts';

/** Supabase Storage's resumable uploads take 6 MB chunks (its documented tus-js-client set-up). */
const CHUNK_SIZE = 6 * 1024 * 1024;

/**
 * Queues a picked file: kept on the device at once (shown from there), uploaded when online. Works
 * offline. `folder` is the owner's id (avatars, logos, portfolio) or the conversation's (attachments).
 */
export async function queueUpload(input: {
  userId: string;
  bucket: UploadBucket;
  folder: string;
  file: Blob;
  fileName: string;
  target: UploadTarget;
}): Promise<UploadJob> {
  const id = uuidv7();
  const contentType = input.file.type || 'application/octet-stream';
  const job: UploadJob = {
    id,
    userId: input.userId,
    bucket: input.bucket,
    objectName: objectNameFor(input.folder, id, contentType),
    fileName: cleanFileName(input.fileName),
    contentType,
    size: input.file.size,
    target: input.target,
    state: 'waiting',
    bytesSent: 0,
    error: null,
    createdAt: new Date().toISOString(),
  };
  await addUpload(job, input.file);
  return job;
}

/**
 * Queues a draft with its files (to the deal's folder of the deliverables bucket): each file kept on
 * the device at once and uploaded when online; once the last is on the server, the draft is written
 * and syncs like any other step of the deal's work. Works offline.
 */
export async function queueDraft(input: {
  userId: string;
  applicationId: string;
  dealId: string;
  deliverableId: string;
  note: string;
  links: string[];
  files: readonly File[];
}): Promise<string> {
  const draftId = uuidv7();
  const createdAt = new Date().toISOString();
  const picked = input.files.map((file) => {
    const id = uuidv7();
    const contentType = file.type || 'application/octet-stream';
    return { id, file, contentType, objectName: draftObjectName(input.dealId, id, file.name, contentType) };
  });
  const target = {
    kind: 'draft' as const,
    draftId,
    applicationId: input.applicationId,
    dealId: input.dealId,
    deliverableId: input.deliverableId,
    note: input.note,
    links: input.links,
    files: picked.map((p) => p.objectName),
  };
  await addUploads(
    picked.map(({ id, file, contentType, objectName }) => ({
      blob: file,
      job: {
        id,
        userId: input.userId,
        bucket: 'deliverables',
        objectName,
        fileName: cleanFileName(file.name),
        contentType,
        size: file.size,
        target,
        state: 'waiting',
        bytesSent: 0,
        error: null,
        createdAt,
      },
    })),
  );
  return draftId;
}

/** Retry of a failed upload: it continues from the last byte the server holds. */
export async function retryUpload(id: string): Promise<void> {
  await patchUpload(id, { state: 'waiting', error: null });
}

/**
 * Gives up a waiting or failed upload: the local copy goes, nothing reaches the record. For a draft's
 * file the whole draft goes (it would name a file the server never got).
 */
export async function cancelUpload(id: string): Promise<void> {
  await removeUploadWithDraft(id);
}

/**
 * Runs the user's queue in this tab (only the tab that syncs calls it, so a file is never sent twice):
 * one upload at a time, oldest first, each resumable through tus-js-client. Its fingerprint is the
 * job's id, so after a dropped connection or a reload the upload asks the server how far it got and
 * continues from there. Returns the stop function.
 */
export function runUploads(db: PactaDatabase, userId: string): () => void {
  let stopped = false;
  let running = false;
  /** The upload in flight, aborted on stop. */
  const sending: Sending = { stopped: () => stopped, current: undefined };

  const kick = () => {
    if (running || stopped || !navigator.onLine) return;
    running = true;
    void (async () => {
      try {
        for (;;) {
          if (stopped || !navigator.onLine) break;
          const job = nextJob(await listUploads(userId));
          if (!job) break;
          await runJob(db, job, (blob) => sendFile(job, blob, sending));
        }
      } finally {
        running = false;
      }
    })();
  };

  // A drop while offline ends the request in flight on its own; the job then waits for `online`.
  const onOnline = () => kick();
  window.addEventListener('online', onOnline);
  let sub: { unsubscribe: () => void } | undefined;
  // An upload this tab or another was running when it closed (a reload, a tab that stopped syncing) waits again.
  void listUploads(userId)
    .then((jobs) =>
      Promise.all(jobs.filter((j) => j.state === 'uploading').map((j) => patchUpload(j.id, { state: 'waiting' }))),
    )
    .then(() => {
      if (!stopped) sub = watchUploads(userId).subscribe(() => kick());
    });
  return () => {
    stopped = true;
    sub?.unsubscribe();
    window.removeEventListener('online', onOnline);
    // Abort without terminating: the server keeps what it has, the next run resumes from there.
    void sending.current?.abort(false);
  };
}

/** Storage answers errors as JSON `{ statusCode, error, message }`; anything else is not shown. */
function serverMessage(body: string | undefined): string {
  if (!body) return '';
  try {
    const parsed = JSON.parse(body) as { message?: unknown };
    return typeof parsed.message === 'string' ? parsed.message : '';
  } catch {
    return '';
  }
}

/** What sending a file made of its job: sent, or the state (and message) the job is left in. */
type JobOutcome = 'done' | UploadOutcome;

/** The queue's run as the sending of one file sees it. */
type Sending = { stopped(): boolean; current: Upload | undefined };

/** One job: its file sent (unless already), then the record it belongs to updated; the job then goes. */
async function runJob(db: PactaDatabase, job: UploadJob, send: (blob: Blob) => Promise<JobOutcome>): Promise<void> {
  if (job.state !== 'saving') {
    const blob = await readUploadFile(job.id);
    if (!blob) {
      await patchUpload(job.id, {
        state: 'failed',
        error: 'The file is no longer on this device. Remove it and pick it again.',
      });
      return;
    }
    await patchUpload(job.id, { state: 'uploading', error: null });
    const outcome = await send(blob);
    if (outcome !== 'done') {
      await patchUpload(job.id, outcome);
      return;
    }
    await patchUpload(job.id, { state: 'saving', bytesSent: job.size });
  }
  try {
    await finishUpload(db, job);
    await removeUpload(job.id);
  } catch (err) {
    await patchUpload(job.id, {
      state: 'failed',
      error: `The file is uploaded but could not be saved here: ${err instanceof Error ? err.message : String(err)}`,
    });
  }
}

/** The file through tus-js-client, resuming where the server got to; resolves with what the job became. */
async function sendFile(job: UploadJob, blob: Blob, sending: Sending): Promise<JobOutcome> {
  // tus-js-client is a twentieth of the signed-in app's first script; it loads with the first file sent.
  // Offline it waits for the connection; online, a script that failed to load is a broken connection.
  const tus = await import('tus-js-client').catch(() => undefined);
  if (!tus) return afterUploadError(0, navigator.onLine);
  const { Upload } = tus;
  return new Promise<JobOutcome>((resolve) => {
    let saved = job.bytesSent;
    const upload = new Upload(blob, {
      endpoint: `${supabaseUrl()}/storage/v1/upload/resumable`,
      retryDelays: [0, 1000, 3000, 5000],
      chunkSize: CHUNK_SIZE,
      // The first chunk goes with the creation request: a file small enough for one chunk is one request.
      uploadDataDuringCreation: true,
      removeFingerprintOnSuccess: true,
      // The job's object name is its own (a new id per pick): replacing it is only ever a repeat of the same bytes.
      headers: { 'x-upsert': 'true', apikey: supabaseAnonKey() },
      metadata: {
        bucketName: job.bucket,
        objectName: job.objectName,
        contentType: job.contentType,
        cacheControl: '3600',
      },
      fingerprint: () => Promise.resolve(`pacta-upload:${job.id}`),
      onBeforeRequest: async (req) => {
        const session = await getSessionManager().currentSession();
        if (session) req.setHeader('authorization', `Bearer ${session.access_token}`);
      },
      onProgress: (bytesSent) => {
        if (!progressWorthSaving({ bytesSent: saved, size: job.size }, bytesSent)) return;
        saved = bytesSent;
        void patchUpload(job.id, { bytesSent });
      },
      onSuccess: () => resolve('done'),
      onError: (err) => {
        const detailed = err as DetailedError;
        const status = detailed.originalResponse?.getStatus() ?? 0;
        resolve(afterUploadError(status, navigator.onLine, serverMessage(detailed.originalResponse?.getBody())));
      },
    });
    sending.current = upload;
    void upload.findPreviousUploads().then((previous) => {
      if (sending.stopped()) return resolve({ state: 'waiting', error: null });
      if (previous[0]) upload.resumeFromPreviousUpload(previous[0]);
      upload.start();
    });
  }).finally(() => {
    sending.current = undefined;
  });
}
