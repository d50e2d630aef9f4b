import { createHash } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { fileTypeFromFile } from 'file-type';
import sharp from 'sharp';
import { IMAGE_MAX_SIDE, isImageType, THUMBNAIL_SIDE } from '../../src/domain/files.ts';
import { storageErrors } from './storage-errors.ts';

/** An image keeps its format when encoded again. */
const SHARP_FORMATS: Record<string, 'jpeg' | 'png' | 'webp'> = {
  'image/jpeg': 'jpeg',
  'image/png': 'png',
  'image/webp': 'webp',
};

/** A bucket's rules as its storage.buckets row states them. */
export type BucketLimits = { id: string; public: boolean; maxBytes: number; allowedTypes: string[] };

/**
 * Streams an upload's bytes into `tempPath`, never more than `maxBytes` of them: past the limit the
 * upload is refused (413) while it arrives, not after it was all stored. Memory holds one chunk at a time.
 */
export async function receive(source: Readable, tempPath: string, maxBytes: number): Promise<number> {
  let size = 0;
  const limit = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      size += chunk.length;
      if (size > maxBytes) done(storageErrors.entityTooLarge());
      else done(null, chunk);
    },
  });
  await pipeline(source, limit, fs.createWriteStream(tempPath, { flags: 'wx' }));
  return size;
}

/** An upload accepted for storing: the file to keep (and its thumbnail) and Storage's metadata of it. */
export type AcceptedFile = {
  path: string;
  thumbnailPath: string | undefined;
  /** Every temporary file made along the way (removed by the caller whatever happens). */
  temporaryPaths: string[];
  metadata: ObjectMetadata;
};

/** The metadata Supabase Storage keeps on each object (storage.objects.metadata). */
export type ObjectMetadata = {
  eTag: string;
  size: number;
  mimetype: string;
  cacheControl: string;
  lastModified: string;
  contentLength: number;
  httpStatusCode: number;
};

/**
 * Checks a received file against its bucket and makes what is stored of it. The type is read from
 * the content (`file-type`), never from the name or the declared type; only the bucket's types pass.
 * Images are decoded and encoded again by sharp: at most IMAGE_MAX_SIDE pixels on the longer side,
 * turned upright, and without any of the original's metadata (EXIF, GPS position, camera, XMP) —
 * sharp writes none unless asked. A thumbnail of at most THUMBNAIL_SIDE pixels goes beside it.
 */
export async function accept(
  receivedPath: string,
  bucket: BucketLimits,
  opts: { declaredType: string | undefined; cacheControl: string; tempPath: () => string },
): Promise<AcceptedFile> {
  const sniffed = await fileTypeFromFile(receivedPath);
  const type = sniffed?.mime;
  if (!type || !bucket.allowedTypes.includes(type)) {
    throw storageErrors.invalidMimeType(type ?? opts.declaredType ?? 'application/octet-stream');
  }
  const temporaryPaths: string[] = [];
  let path = receivedPath;
  let thumbnailPath: string | undefined;
  if (isImageType(type) && SHARP_FORMATS[type]) {
    path = opts.tempPath();
    thumbnailPath = opts.tempPath();
    temporaryPaths.push(path, thumbnailPath);
    try {
      await sharp(receivedPath, { failOn: 'error', limitInputPixels: 100_000_000 })
        .rotate()
        .resize({ width: IMAGE_MAX_SIDE, height: IMAGE_MAX_SIDE, fit: 'inside', withoutEnlargement: true })
        .toFormat(SHARP_FORMATS[type])
        .toFile(path);
      await sharp(path)
        .resize({ width: THUMBNAIL_SIDE, height: THUMBNAIL_SIDE, fit: 'inside', withoutEnlargement: true })
        .toFormat(SHARP_FORMATS[type])
        .toFile(thumbnailPath);
    } catch {
      // A file that starts like an image but is not one whole (truncated, corrupt, a decoder bomb).
      throw storageErrors.invalidImage();
    }
  }
  const { size } = await fsp.stat(path);
  const hash = createHash('md5');
  await pipeline(fs.createReadStream(path), hash);
  return {
    path,
    thumbnailPath,
    temporaryPaths,
    metadata: {
      eTag: `"${hash.digest('hex')}"`,
      size,
      mimetype: type,
      cacheControl: opts.cacheControl,
      lastModified: new Date().toUTCString(),
      contentLength: size,
      httpStatusCode: 200,
    },
  };
}

/** A Cache-Control value from what a client sent (`max-age=3600` or `3600`); anything else: one hour. */
export function cacheControlOf(value: string | undefined): string {
  const seconds = /^(?:max-age=)?(\d{1,9})$/.exec(value?.trim() ?? '')?.[1];
  return `max-age=${seconds ?? '3600'}`;
}
