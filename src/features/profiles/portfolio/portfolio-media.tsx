import { useId, useRef, useState, type ChangeEvent } from 'react';
import { UploadStatus } from '../../../components/upload-status.tsx';
import { useDatabase } from '../../../db/hooks/use-database.ts';
import { useLocalFileUrl, useUploads } from '../../../db/hooks/use-uploads.ts';
import type { UploadJob } from '../../../db/uploads/upload-jobs.ts';
import { BUCKETS } from '../../../domain/files.ts';
import type { PortfolioMediaItem } from '../../../domain/media.ts';
import { isPictureOf } from '../../../domain/pictures.ts';
import { storageSrc } from '../../../lib/storage-src.ts';
import { toastError } from '../../../lib/toasts.ts';
import {
  addPortfolioMedia,
  movePortfolioMedia,
  portfolioFileProblem,
  removePortfolioMedia,
} from './portfolio-media-operations.ts';

/**
 * A creator's images and short videos. Everyone sees them; the creator adds (offline too: shown from
 * the device's copy while it uploads), reorders and removes them here.
 */
export function PortfolioMedia({
  ownerId,
  media,
  editable,
}: {
  ownerId: string;
  media: readonly PortfolioMediaItem[];
  editable: boolean;
}) {
  const db = useDatabase();
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const jobs = useUploads(editable ? ownerId : null).filter((j) => j.target.kind === 'portfolio');
  // Only media stored in the owner's own portfolio folder is ever shown.
  const shown = media.filter((m) => isPictureOf(m.url, ownerId, ['portfolio']));

  async function onPick(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    const refusal = portfolioFileProblem(file, shown.length + jobs.length);
    setProblem(refusal);
    if (!refusal) await addPortfolioMedia(ownerId, file);
  }

  const edit = (action: (database: NonNullable<typeof db>) => Promise<void>) => {
    if (!db) return;
    void action(db).catch(() => toastError('Your portfolio could not be changed. Please try again.'));
  };

  if (!editable && shown.length === 0) return null;
  return (
    <section className="card portfolio-section portfolio-media" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Portfolio</h2>
      {shown.length === 0 && jobs.length === 0 ? (
        <p className="empty-state">Show brands your work: add images and short videos.</p>
      ) : null}
      <ul className="portfolio-media-grid">
        {shown.map((m, index) => (
          <li key={m.id} className="portfolio-media-item" data-testid="portfolio-media">
            <MediaView kind={m.kind} src={storageSrc(m.url)} label={`Portfolio item ${index + 1}`} />
            {editable ? (
              <div className="portfolio-media-actions">
                <button
                  type="button"
                  className="button button-ghost button-small"
                  disabled={index === 0}
                  onClick={() => edit((d) => movePortfolioMedia(d, ownerId, m.id, -1))}
                  aria-label={`Move item ${index + 1} earlier`}
                >
                  ←
                </button>
                <button
                  type="button"
                  className="button button-ghost button-small"
                  disabled={index === shown.length - 1}
                  onClick={() => edit((d) => movePortfolioMedia(d, ownerId, m.id, 1))}
                  aria-label={`Move item ${index + 1} later`}
                >
                  →
                </button>
                <button
                  type="button"
                  className="button button-ghost button-small"
                  onClick={() => edit((d) => removePortfolioMedia(d, ownerId, m.id))}
                  aria-label={`Remove item ${index + 1}`}
                >
                  Remove
                </button>
              </div>
            ) : null}
          </li>
        ))}
        {jobs.map((job) => (
          <PendingMedia key={job.id} job={job} />
        ))}
      </ul>
      {editable ? (
        <div className="portfolio-media-add">
          <input
            ref={input}
            className="visually-hidden"
            type="file"
            tabIndex={-1}
            accept={BUCKETS.portfolio.allowedTypes.join(',')}
            aria-label="Add an image or video"
            onChange={(e) => void onPick(e)}
            data-testid="portfolio-media-input"
          />
          <button type="button" className="button button-secondary" onClick={() => input.current?.click()}>
            Add image or video
          </button>
          <p className="muted field-help">
            Images or videos up to 50 MB. Works offline: they upload when you are back online.
          </p>
          {problem ? (
            <p className="field-error" role="alert">
              {problem}
            </p>
          ) : null}
        </div>
      ) : null}
    </section>
  );
}

function PendingMedia({ job }: { job: UploadJob }) {
  const localCopy = useLocalFileUrl(job.id);
  const kind = job.target.kind === 'portfolio' ? job.target.mediaKind : 'image';
  return (
    <li className="portfolio-media-item portfolio-media-pending" data-testid="portfolio-media-pending">
      {localCopy ? (
        <MediaView kind={kind} src={localCopy} label={job.fileName} />
      ) : (
        <div className="portfolio-media-frame" />
      )}
      <UploadStatus job={job} label={job.fileName} />
    </li>
  );
}

/** Videos start muted (sound on from their controls): creators' clips come without captions. */
function MediaView({ kind, src, label }: { kind: 'image' | 'video'; src: string; label: string }) {
  return kind === 'video' ? (
    <video
      className="portfolio-media-frame"
      src={src}
      controls
      muted
      playsInline
      preload="metadata"
      aria-label={label}
    />
  ) : (
    <img className="portfolio-media-frame" src={src} alt={label} loading="lazy" />
  );
}
