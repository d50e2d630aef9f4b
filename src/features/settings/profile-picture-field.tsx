import { useId, useRef, useState, type ChangeEvent } from 'react';
import { Avatar } from '../../components/avatar.tsx';
import { UploadStatus } from '../../components/upload-status.tsx';
import { useLocalFileUrl, useUploads } from '../../db/hooks/use-uploads.ts';
import { queueUpload } from '../../db/uploads/upload-queue.ts';
import type { ProfileDocument } from '../../domain/collections/index.ts';
import { BUCKETS } from '../../domain/files.ts';
import { formatBytes } from '../../domain/media.ts';
import { cropToSquare } from '../../lib/square-crop.ts';

/** A picked picture is read on the device before it is cropped; larger ones are refused at once. */
const PICKED_MAX_BYTES = 20 * 1024 * 1024;

/**
 * The profile picture (a creator's avatar, a brand's logo): picked, cropped to its centred square on
 * the device, shown at once from the device's copy and uploaded when online (the upload queue). The
 * profile takes the stored picture's address when the upload is done.
 */
export function ProfilePictureField({ profile, role }: { profile: ProfileDocument; role: 'brand' | 'creator' }) {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [preparing, setPreparing] = useState(false);
  const job = useUploads(profile.id).findLast((j) => j.target.kind === 'avatar');
  const localCopy = useLocalFileUrl(job?.id);
  const noun = role === 'brand' ? 'logo' : 'profile picture';

  async function onPick(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    setProblem(null);
    // Any picture the browser can read is accepted here: the square saved is WebP (or PNG), within the bucket's limit.
    if (!file.type.startsWith('image/')) {
      setProblem('Choose a JPEG, PNG or WebP image.');
      return;
    }
    if (file.size > PICKED_MAX_BYTES) {
      setProblem(`Choose an image of at most ${formatBytes(PICKED_MAX_BYTES)}.`);
      return;
    }
    setPreparing(true);
    try {
      const square = await cropToSquare(file);
      await queueUpload({
        userId: profile.id,
        bucket: role === 'brand' ? 'brand-logos' : 'avatars',
        folder: profile.id,
        file: square,
        fileName: file.name,
        target: { kind: 'avatar' },
      });
    } catch (err) {
      setProblem(err instanceof Error ? err.message : 'This picture could not be prepared. Try another one.');
    } finally {
      setPreparing(false);
    }
  }

  return (
    <div className="field profile-picture-field">
      <span className="field-label" id={`${id}-label`}>
        {role === 'brand' ? 'Brand logo' : 'Profile picture'}
      </span>
      <div className="profile-picture-row">
        <Avatar
          name={profile.full_name || '?'}
          url={profile.avatar_url}
          size={72}
          square={role === 'brand'}
          localCopy={localCopy}
        />
        <div className="profile-picture-actions">
          <input
            ref={input}
            id={`${id}-file`}
            className="visually-hidden"
            type="file"
            tabIndex={-1}
            accept={BUCKETS.avatars.allowedTypes.join(',')}
            aria-labelledby={`${id}-label ${id}-choose`}
            aria-describedby={`${id}-help`}
            onChange={(e) => void onPick(e)}
            data-testid="profile-picture-input"
          />
          <button
            type="button"
            id={`${id}-choose`}
            className="button button-secondary button-small"
            onClick={() => input.current?.click()}
            disabled={preparing}
          >
            {preparing ? 'Preparing…' : profile.avatar_url || job ? `Change ${noun}` : `Upload ${noun}`}
          </button>
          <p className="muted field-help" id={`${id}-help`}>
            Cropped to a square and stored on Pacta only. Works offline: it uploads when you are back online.
          </p>
        </div>
      </div>
      {job ? <UploadStatus job={job} label={role === 'brand' ? 'Brand logo' : 'Profile picture'} /> : null}
      {problem ? (
        <p className="field-error" role="alert">
          {problem}
        </p>
      ) : null}
      {profile.sync_rejection?.code === 'external_picture' ? (
        <p className="field-error" role="alert">
          Your picture was not saved: {profile.sync_rejection.message}
        </p>
      ) : null}
    </div>
  );
}
