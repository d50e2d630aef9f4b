/**
 * Pictures and media only from Pacta's own storage (the database holds the same rule,
 * pacta_private.is_storage_picture): the public address of an object in one of Pacta's public buckets,
 * under the folder of the person it belongs to — `/storage/v1/object/public/<bucket>/<user id>/<file>`,
 * as Supabase Storage serves it. A picture on another site would be fetched by every viewer's browser
 * and tell that site who looked; an inline data: URL would let anyone store megabytes in a profile row.
 */
export const PUBLIC_BUCKETS = ['avatars', 'brand-logos', 'portfolio'] as const;
export type PublicBucket = (typeof PUBLIC_BUCKETS)[number];

export const PICTURE_MAX_LENGTH = 2048;

const STORAGE_PREFIX = '/storage/v1/object/public/';
/** A folder is a user id (a UUID); a file name is plain: letters, digits, dot, dash, underscore. */
const OBJECT_PATH =
  /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\/[A-Za-z0-9_-][A-Za-z0-9._-]{0,199}$/;

/** Where supabase-js's getPublicUrl points for an object, as a path on Pacta's own origin. */
export function publicObjectPath(bucket: PublicBucket, objectName: string): string {
  return `${STORAGE_PREFIX}${bucket}/${objectName}`;
}

/** The bucket and owner of a public storage address, or null when it is not one. */
export function storagePicture(url: string | null | undefined): { bucket: PublicBucket; owner: string } | null {
  if (!url || url.length > PICTURE_MAX_LENGTH || !url.startsWith(STORAGE_PREFIX)) return null;
  const rest = url.slice(STORAGE_PREFIX.length);
  const slash = rest.indexOf('/');
  const bucket = rest.slice(0, slash) as PublicBucket;
  if (slash < 0 || !PUBLIC_BUCKETS.includes(bucket)) return null;
  const match = OBJECT_PATH.exec(rest.slice(slash + 1));
  return match ? { bucket, owner: match[1]! } : null;
}

/** True for a picture stored on Pacta (any public bucket, any owner): safe to show to anyone. */
export function isOwnPicture(url: string | null | undefined): url is string {
  return storagePicture(url) !== null;
}

/**
 * True when `url` may be saved as `owner`'s picture in `bucket`: an avatar in avatars (creators) or
 * brand-logos (brands), a portfolio item in portfolio, always in the owner's own folder.
 */
export function isPictureOf(url: string | null | undefined, owner: string, buckets: readonly PublicBucket[]): boolean {
  const picture = storagePicture(url);
  return !!picture && picture.owner === owner && buckets.includes(picture.bucket);
}
