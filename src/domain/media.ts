import { z } from 'zod';

/**
 * What a profile's portfolio and a message's attachments hold once their files are on Pacta's storage.
 * The database checks the same limits (pacta_private.portfolio_media_check, messages_check).
 */

/** A portfolio shows at most this many images and videos (a message carries at most 4 files, checked in SQL). */
export const PORTFOLIO_MAX_ITEMS = 12;

/** One image or short video of a creator's portfolio: its public address in the `portfolio` bucket. */
export const portfolioMediaItem = z.object({
  id: z.guid(),
  url: z.string(),
  kind: z.enum(['image', 'video']),
});
export type PortfolioMediaItem = z.infer<typeof portfolioMediaItem>;

/**
 * A file sent in a conversation: the object's name in the private `attachments` bucket (under the
 * conversation's id), read through a signed URL by the two members only.
 */
export const messageAttachment = z.object({
  path: z.string(),
  name: z.string(),
  type: z.string(),
  size: z.number().int().min(0),
});
export type MessageAttachment = z.infer<typeof messageAttachment>;

/** A size for people: "820 KB", "31.5 MB". */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  const mb = bytes / (1024 * 1024);
  return `${mb < 10 ? mb.toFixed(1) : Math.round(mb)} MB`;
}
