/**
 * The file queue's decisions, as functions of their inputs (the store and the network only wire them):
 * where a picked file goes on the server, which upload runs next, how far one got, and what a failure
 * means for the person who picked the file.
 */
import { objectPath } from '../../domain/files.ts';

export type UploadBucket = 'avatars' | 'brand-logos' | 'portfolio' | 'attachments' | 'deliverables';

/** What the finished upload becomes: the record that takes the server's address in place of the local copy. */
export type UploadTarget =
  | { kind: 'avatar' }
  | { kind: 'portfolio'; mediaId: string; mediaKind: 'image' | 'video' }
  | { kind: 'attachment'; conversationId: string; recipientId: string; messageId: string; body: string }
  /**
   * One file of a draft: every file of the draft carries the whole draft (`files`: all their object
   * names), and the last one uploaded writes it, so the draft never names a file not yet on the server.
   */
  | {
      kind: 'draft';
      draftId: string;
      applicationId: string;
      dealId: string;
      deliverableId: string;
      note: string;
      links: string[];
      files: string[];
    };

/**
 * waiting: queued, runs when online; uploading: bytes on their way; failed: the server refused it or
 * it broke while online (the error says why; Retry puts it back to waiting); saving: on the server,
 * the record is being written.
 */
export type UploadState = 'waiting' | 'uploading' | 'failed' | 'saving';

export type UploadJob = {
  id: string;
  userId: string;
  bucket: UploadBucket;
  /**
   * The object's name in its bucket: `<folder>/<job id>.<ext>` (the folder: the owner's id, or the
   * conversation's), or for a draft's file `<deal id>/<job id>-<file name>` (the brand sees the name).
   */
  objectName: string;
  fileName: string;
  contentType: string;
  size: number;
  target: UploadTarget;
  state: UploadState;
  bytesSent: number;
  error: string | null;
  createdAt: string;
};

const EXTENSIONS: Record<string, string> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/webp': 'webp',
  'image/gif': 'gif',
  'image/avif': 'avif',
  'video/mp4': 'mp4',
  'video/webm': 'webm',
  'video/quicktime': 'mov',
  'application/pdf': 'pdf',
};

/** The object name a job uploads to: unique per job, so a repeated upload only ever replaces its own bytes. */
export function objectNameFor(folder: string, jobId: string, contentType: string): string {
  return `${folder}/${jobId}.${EXTENSIONS[contentType] ?? 'bin'}`;
}

/**
 * The object name of a draft's file: the deal's folder, the job's id, then the file's own name (made
 * safe) ending in the extension of its type, so the brand sees what the creator called it.
 */
export function draftObjectName(dealId: string, jobId: string, fileName: string, contentType: string): string {
  const ext = EXTENSIONS[contentType] ?? 'bin';
  const stem = cleanFileName(fileName).replace(/\.[A-Za-z0-9]{1,5}$/, '');
  return objectPath(dealId, jobId, `${stem}.${ext}`);
}

/** A file name safe to show and to store with a message: no path, no control characters, at most 200 characters. */
export function cleanFileName(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  // eslint-disable-next-line no-control-regex
  const clean = base.replace(/[\u0000-\u001f\u007f]/g, '').trim();
  return (clean || 'file').slice(0, 200);
}

/** The next job to run: the oldest waiting one (a saving one first: its bytes are already on the server). */
export function nextJob(jobs: readonly UploadJob[]): UploadJob | undefined {
  const order = (j: UploadJob) => (j.state === 'saving' ? 0 : 1);
  return [...jobs]
    .filter((j) => j.state === 'waiting' || j.state === 'saving')
    .sort((a, b) => order(a) - order(b) || a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id))[0];
}

/** Whole percent sent (0–100). */
export function percentSent(job: Pick<UploadJob, 'bytesSent' | 'size'>): number {
  if (job.size <= 0) return 0;
  return Math.min(100, Math.floor((job.bytesSent / job.size) * 100));
}

/** Progress is written down only when the whole percent changes (a 30 MB upload: at most 100 writes). */
export function progressWorthSaving(job: Pick<UploadJob, 'bytesSent' | 'size'>, bytesSent: number): boolean {
  return percentSent({ bytesSent, size: job.size }) !== percentSent(job);
}

/** What an upload that stopped means: wait for the network (it resumes by itself), or a failure to explain. */
export type UploadOutcome = { state: 'waiting'; error: null } | { state: 'failed'; error: string };

/**
 * `status`: the HTTP status the server answered (0: no answer at all); `online`: the browser's view
 * at the time. No answer while offline is not a failure: the upload waits and resumes on reconnect.
 */
export function afterUploadError(status: number, online: boolean, serverMessage = ''): UploadOutcome {
  if (status === 0 && !online) return { state: 'waiting', error: null };
  if (status === 0)
    return { state: 'failed', error: 'The connection to Pacta broke off. Retry to continue where it stopped.' };
  if (status === 413) return { state: 'failed', error: 'This file is too large to upload here.' };
  if (status === 415) return { state: 'failed', error: 'This type of file cannot be uploaded here.' };
  if (status === 401 || status === 403)
    return { state: 'failed', error: 'You are not allowed to upload this file here. Sign in again, then retry.' };
  const detail = serverMessage.trim().slice(0, 200);
  if (status >= 400 && status < 500 && detail) return { state: 'failed', error: `The upload was refused: ${detail}` };
  return { state: 'failed', error: 'The upload did not go through. Retry to continue where it stopped.' };
}
