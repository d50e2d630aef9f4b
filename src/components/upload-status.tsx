import { useId } from 'react';
import { cancelUpload, retryUpload } from '../db/uploads/upload-queue.ts';
import { percentSent, type UploadJob } from '../db/uploads/upload-jobs.ts';
import { useBrowserOnline } from '../lib/use-online.ts';

/** What a queued file is doing, in words (screen readers hear it in tens of percent, not every byte). */
export function uploadStatusText(job: UploadJob, online: boolean): string {
  if (job.state === 'failed') return job.error ?? 'The upload failed.';
  if (job.state === 'saving') return 'Uploaded. Saving…';
  if (!online) return 'Saved on this device. It uploads when you are back online.';
  if (job.state === 'waiting') return job.bytesSent > 0 ? 'Continuing the upload…' : 'Waiting to upload…';
  return `Uploading… ${Math.floor(percentSent(job) / 10) * 10}%`;
}

/**
 * A queued file's progress: a progress bar, the state in words (a polite live region), and after a
 * failure the reason with Retry and Remove. Used wherever a picked file waits: Settings, the
 * portfolio, a conversation.
 */
export function UploadStatus({ job, label }: { job: UploadJob; label: string }) {
  const online = useBrowserOnline();
  const id = useId();
  const percent = percentSent(job);
  const failed = job.state === 'failed';
  return (
    <div className="upload-status" data-testid="upload-status" data-state={job.state}>
      {failed ? null : (
        <progress id={`${id}-bar`} max={100} value={percent} aria-label={`${label}: ${percent}% uploaded`} />
      )}
      <p className={failed ? 'field-error' : 'muted upload-status-text'} role={failed ? 'alert' : 'status'}>
        {uploadStatusText(job, online)}
      </p>
      {failed ? (
        <div className="upload-status-actions">
          <button
            type="button"
            className="button button-secondary button-small"
            onClick={() => void retryUpload(job.id)}
          >
            Retry
          </button>
          <button type="button" className="button button-ghost button-small" onClick={() => void cancelUpload(job.id)}>
            Remove
          </button>
        </div>
      ) : null}
    </div>
  );
}
