import { useState } from 'react';
import { isOwnPicture } from '../domain/pictures.ts';
import { storageSrc } from '../lib/storage-src.ts';

/**
 * A person's or brand's picture beside their name (decorative: the name is always next to it). Only
 * pictures on Pacta's own storage are shown, so a profile cannot make every visitor's browser call a
 * third party; anything else gets initials. `localCopy` is a picture picked on this device that has
 * not reached the server yet (an object URL of the upload queue's copy), shown in its place.
 */
export function Avatar({
  name,
  url,
  size = 48,
  square = false,
  localCopy = null,
}: {
  name: string;
  url: string | null | undefined;
  size?: number;
  square?: boolean;
  localCopy?: string | null;
}) {
  const style = { width: size, height: size, borderRadius: square ? size * 0.22 : '50%' };
  const src = localCopy ?? (isOwnPicture(url) ? storageSrc(url) : null);
  // A picture that cannot load (offline, and never loaded on this device) gives way to the initials.
  const [failed, setFailed] = useState<string | null>(null);
  if (src && src !== failed) {
    return (
      <img
        className="avatar"
        src={src}
        alt=""
        width={size}
        height={size}
        style={style}
        onError={() => setFailed(src)}
      />
    );
  }
  return (
    <span className="avatar avatar-initials" aria-hidden="true" style={{ ...style, fontSize: size * 0.38 }}>
      {initials(name)}
    </span>
  );
}

function initials(name: string): string {
  const words = name.trim().replace(/^@/, '').split(/\s+/).filter(Boolean);
  const first = words[0]?.[0] ?? '?';
  const last = words.length > 1 ? (words[words.length - 1]?.[0] ?? '') : '';
  return (first + last).toUpperCase();
}
