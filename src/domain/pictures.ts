/**
 * Pictures only from Pacta itself (the database holds the same rule, pacta_private.is_own_picture): a
 * path on Pacta's own origin or an inline data:image/ URL. A picture on another site would be fetched
 * by every viewer's browser and tell that site who looked. A path may not start with // or /\ and
 * holds no spaces or control characters (browsers drop tabs and newlines, so "/\t/host" is "//host").
 */
const OWN_PATH = /^\/[^/\\\s\p{Cc}][^\\\s\p{Cc}]*$/u;
const INLINE_PICTURE = /^data:image\/(png|jpeg|gif|webp|avif|svg\+xml)[;,][^\p{Cc}]*$/u;

export const PICTURE_MAX_LENGTH = 2048;

export function isOwnPicture(url: string | null | undefined): url is string {
  return !!url && url.length <= PICTURE_MAX_LENGTH && (OWN_PATH.test(url) || INLINE_PICTURE.test(url));
}
