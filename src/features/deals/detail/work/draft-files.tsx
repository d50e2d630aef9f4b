import { useState } from 'react';
import { UploadStatus } from '../../../../components/upload-status.tsx';
import { useLocalFileUrl, type UploadJob } from '../../../../db/hooks/use-uploads.ts';
import { isImageType, shownFileKind, shownFileName } from '../../../../domain/files.ts';
import { formatBytes } from '../../../../domain/media.ts';
import { useDraftFileUrls, type DraftFileUrls } from '../../data/use-draft-files.ts';

/**
 * A draft's files as the brand reviews them (and the creator sees them): an image as a thumbnail that
 * opens the full picture, a video in a player, a PDF or other file as a link. Private files, through
 * signed addresses; offline, only their names.
 */
export function DraftFiles({ paths }: { paths: readonly string[] }) {
  const urls = useDraftFileUrls(paths);
  if (paths.length === 0) return null;
  return (
    <ul className="work-files" data-testid="draft-files">
      {paths.map((path) => (
        <li key={path}>
          <StoredFile path={path} urls={urls[path]} />
        </li>
      ))}
    </ul>
  );
}

function StoredFile({ path, urls }: { path: string; urls: DraftFileUrls | undefined }) {
  const name = shownFileName(path);
  const kind = shownFileKind(path);
  const [broken, setBroken] = useState(false);
  if (!urls) return <span className="muted">{name}</span>;
  if (kind === 'image' && !broken) {
    return (
      <a href={urls.url} target="_blank" rel="noreferrer" className="work-file-image">
        <img src={urls.thumbnail ?? urls.url} alt={name} loading="lazy" onError={() => setBroken(true)} />
      </a>
    );
  }
  if (kind === 'video') {
    return (
      <figure className="work-file-video">
        {/* Starts muted, as the portfolio's videos do (a draft has no captions); the controls turn the sound on. */}
        <video controls muted playsInline preload="metadata" src={urls.url} aria-label={name} />
        <figcaption className="muted">{name}</figcaption>
      </figure>
    );
  }
  return (
    <a href={urls.url} target="_blank" rel="noreferrer" download={name}>
      {name}
    </a>
  );
}

/**
 * A draft whose files are still on their way: shown from the device's copies, each with its progress
 * (and after a failure the reason, Retry and Remove; removing a file gives up the whole draft).
 */
export function PendingDraft({ jobs }: { jobs: readonly UploadJob[] }) {
  const target = jobs[0]?.target;
  if (target?.kind !== 'draft') return null;
  return (
    <div className="work-submission" data-testid="pending-draft">
      <p className="muted">
        Draft waiting to upload <span className="badge badge-pending">Not sent yet</span>
      </p>
      {target.note ? <blockquote className="work-note">{target.note}</blockquote> : null}
      {target.links.length ? (
        <ul className="work-links">
          {target.links.map((l) => (
            <li key={l}>{l}</li>
          ))}
        </ul>
      ) : null}
      <ul className="work-files">
        {jobs.map((job) => (
          <li key={job.id}>
            <PendingFile job={job} />
          </li>
        ))}
      </ul>
      <p className="muted">It is sent to the brand once every file is uploaded.</p>
    </div>
  );
}

function PendingFile({ job }: { job: UploadJob }) {
  const url = useLocalFileUrl(job.id);
  return (
    <div className="work-file-pending">
      {isImageType(job.contentType) && url ? (
        <img className="work-file-image" src={url} alt={job.fileName} />
      ) : (
        <p>
          {job.fileName} <span className="muted">{formatBytes(job.size)}</span>
        </p>
      )}
      <UploadStatus job={job} label={job.fileName} />
    </div>
  );
}
