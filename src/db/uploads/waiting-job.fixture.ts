import type { UploadJob } from './upload-jobs.ts';

/** A picture of `userId`'s waiting to upload, as the settings page queues one (for tests). */
export function waitingJob(userId: string): UploadJob {
  const id = crypto.randomUUID();
  return {
    id,
    userId,
    bucket: 'avatars',
    objectName: `${userId}/${id}.png`,
    fileName: 'me.png',
    contentType: 'image/png',
    size: 3,
    target: { kind: 'avatar' },
    state: 'waiting',
    bytesSent: 0,
    error: null,
    createdAt: new Date().toISOString(),
  };
}
