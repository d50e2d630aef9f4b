/**
 * Files: the storage buckets, what each accepts, and where an object goes in it. The server enforces
 * these (the bucket rows of `storage.buckets` carry the same limits and types, so a hosted Supabase
 * Storage enforces them too); the client uses them to refuse a file before uploading it.
 */

const IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/webp'] as const;
const VIDEO_TYPES = ['video/mp4', 'video/webm', 'video/quicktime'] as const;
const PDF_TYPES = ['application/pdf'] as const;

export type FileType = (typeof IMAGE_TYPES)[number] | (typeof VIDEO_TYPES)[number] | (typeof PDF_TYPES)[number];

const MB = 1024 * 1024;

export type BucketRule = {
  /** Anyone may read its objects at their public URL; private buckets need a signed URL or a token. */
  public: boolean;
  /** Largest object accepted, in bytes (before images are re-encoded). */
  maxBytes: number;
  /** Types read from the content (never the name or the declared type). */
  allowedTypes: readonly FileType[];
  /** Whose folder the first path segment is: the owner's user id, a deal's id or a conversation's id. */
  folder: 'user' | 'deal' | 'conversation';
};

export const BUCKETS = {
  avatars: { public: true, maxBytes: 5 * MB, allowedTypes: IMAGE_TYPES, folder: 'user' },
  'brand-logos': { public: true, maxBytes: 5 * MB, allowedTypes: IMAGE_TYPES, folder: 'user' },
  // Portfolio media: images and short videos.
  portfolio: { public: true, maxBytes: 50 * MB, allowedTypes: [...IMAGE_TYPES, ...VIDEO_TYPES], folder: 'user' },
  deliverables: {
    public: false,
    maxBytes: 100 * MB,
    allowedTypes: [...IMAGE_TYPES, ...VIDEO_TYPES, ...PDF_TYPES],
    folder: 'deal',
  },
  attachments: {
    public: false,
    maxBytes: 25 * MB,
    allowedTypes: [...IMAGE_TYPES, ...VIDEO_TYPES, ...PDF_TYPES],
    folder: 'conversation',
  },
} as const satisfies Record<string, BucketRule>;

/** All the objects one user owns, in every bucket together, after images are re-encoded. */
export const DEFAULT_QUOTA_BYTES_PER_USER = 500 * MB;

/** Images are re-encoded to at most this many pixels on their longer side. */
export const IMAGE_MAX_SIDE = 2048;

/**
 * Every image also gets a thumbnail of at most this many pixels on its longer side. Ask for it with a
 * transform no larger than this (`getPublicUrl(path, { transform: { width: 320, height: 320 } })`):
 * hosted Supabase resizes on the fly, Pacta's own storage serves the thumbnail it made at upload.
 */
export const THUMBNAIL_SIDE = 320;

export function isImageType(type: string): boolean {
  return (IMAGE_TYPES as readonly string[]).includes(type);
}

/**
 * A file name fit for an object path: letters, digits, `.`, `-` and `_` only (accents dropped, anything
 * else becomes `-`), no leading dot, at most 100 characters, the extension kept. Empty names become `file`.
 */
export function safeFileName(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  const cleaned = base
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/-+/g, '-')
    .replace(/^[.-]+/, '')
    .replace(/\.{2,}/g, '.');
  if (!cleaned) return 'file';
  if (cleaned.length <= 100) return cleaned;
  const dot = cleaned.lastIndexOf('.');
  const ext = dot > 0 && cleaned.length - dot <= 10 ? cleaned.slice(dot) : '';
  return cleaned.slice(0, 100 - ext.length) + ext;
}

/**
 * The path of a new object: the folder its bucket is keyed by (the owner's user id, the deal's or the
 * conversation's id), then a unique id so two uploads never collide, then the sanitised file name.
 */
export function objectPath(folderId: string, uniqueId: string, fileName: string): string {
  return `${folderId}/${uniqueId}-${safeFileName(fileName)}`;
}

const UNIQUE_PREFIX = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}-/i;

/** The file name to show for an object made by `objectPath`: its last segment without the unique id. */
export function shownFileName(path: string): string {
  const last = path.split('/').pop() ?? '';
  return last.replace(UNIQUE_PREFIX, '') || last;
}

/**
 * How a stored file is shown, by the extension its uploader's device gave it (the server checked the
 * content against the bucket's types; a picture that does not load is shown as a link instead).
 */
export function shownFileKind(path: string): 'image' | 'video' | 'pdf' | 'other' {
  const ext = /\.([a-z0-9]+)$/i.exec(path)?.[1]?.toLowerCase();
  if (ext === 'jpg' || ext === 'jpeg' || ext === 'png' || ext === 'webp') return 'image';
  if (ext === 'mp4' || ext === 'webm' || ext === 'mov') return 'video';
  if (ext === 'pdf') return 'pdf';
  return 'other';
}
