import { UploadStatus } from '../../components/upload-status.tsx';
import { useLocalFileUrl } from '../../db/hooks/use-uploads.ts';
import type { UploadJob } from '../../db/uploads/upload-jobs.ts';
import { formatBytes, type MessageAttachment } from '../../domain/media.ts';
import { isImageType } from '../../domain/files.ts';
import { useAttachmentUrl } from './data/use-attachment-url.ts';

/** A sent file: an image inline, anything else as a card to open. */
export function AttachmentView({ file }: { file: MessageAttachment }) {
  const url = useAttachmentUrl(file.path);
  return <FileView name={file.name} type={file.type} size={file.size} url={url} />;
}

/** A file waiting to upload with its message: shown from the device's copy, with its progress. */
export function PendingAttachment({ job }: { job: UploadJob }) {
  const url = useLocalFileUrl(job.id);
  const body = job.target.kind === 'attachment' ? job.target.body : '';
  return (
    <li className="message is-mine is-pending" data-testid="pending-attachment">
      {body ? <p className="message-body">{body}</p> : null}
      <FileView name={job.fileName} type={job.contentType} size={job.size} url={url} />
      <UploadStatus job={job} label={job.fileName} />
    </li>
  );
}

function FileView({ name, type, size, url }: { name: string; type: string; size: number; url: string | null }) {
  if (isImageType(type)) {
    return url ? <img className="message-image" src={url} alt={name} /> : <p className="message-file muted">{name}</p>;
  }
  return (
    <p className="message-file" data-testid="message-file">
      {url ? (
        <a href={url} target="_blank" rel="noreferrer" download={name}>
          {name}
        </a>
      ) : (
        <span>{name}</span>
      )}{' '}
      <span className="muted">{formatBytes(size)}</span>
    </p>
  );
}
