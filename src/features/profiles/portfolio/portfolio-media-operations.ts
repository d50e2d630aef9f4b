import type { PactaDatabase } from '../../../db/index.ts';
import { queueUpload } from '../../../db/uploads/upload-queue.ts';
import { BUCKETS } from '../../../domain/files.ts';
import { formatBytes, PORTFOLIO_MAX_ITEMS, type PortfolioMediaItem } from '../../../domain/media.ts';
import { v7 as uuidv7 } from 'uuid';

/** The list with one item moved by `step` places (kept within the list); pure, for the Move buttons. */
export function moveMedia(media: readonly PortfolioMediaItem[], id: string, step: -1 | 1): PortfolioMediaItem[] {
  const from = media.findIndex((m) => m.id === id);
  const to = from + step;
  if (from < 0 || to < 0 || to >= media.length) return [...media];
  const next = [...media];
  const [item] = next.splice(from, 1);
  next.splice(to, 0, item!);
  return next;
}

/** Why a picked file cannot join the portfolio, or null when it can (the server checks again from the content). */
export function portfolioFileProblem(file: { type: string; size: number }, itemsSoFar: number): string | null {
  const rule = BUCKETS.portfolio;
  if (itemsSoFar >= PORTFOLIO_MAX_ITEMS) return `A portfolio holds at most ${PORTFOLIO_MAX_ITEMS} images and videos.`;
  if (!(rule.allowedTypes as readonly string[]).includes(file.type))
    return 'Choose a JPEG, PNG or WebP image, or an MP4, WebM or QuickTime video.';
  if (file.size > rule.maxBytes) return `Choose a file of at most ${formatBytes(rule.maxBytes)}.`;
  return null;
}

/** Adds a picked image or video: kept on the device and shown at once, uploaded when online. */
export async function addPortfolioMedia(userId: string, file: File): Promise<void> {
  await queueUpload({
    userId,
    bucket: 'portfolio',
    folder: userId,
    file,
    fileName: file.name,
    target: { kind: 'portfolio', mediaId: uuidv7(), mediaKind: file.type.startsWith('video/') ? 'video' : 'image' },
  });
}

async function editMedia(
  db: PactaDatabase,
  userId: string,
  edit: (media: PortfolioMediaItem[]) => PortfolioMediaItem[],
): Promise<void> {
  const doc = await db.profiles.findOne(userId).exec();
  if (!doc) throw new Error('Profile not found');
  await doc.incrementalModify((p) => ({ ...p, portfolio_media: edit(p.portfolio_media ?? []), sync_rejection: null }));
}

export function movePortfolioMedia(db: PactaDatabase, userId: string, id: string, step: -1 | 1): Promise<void> {
  return editMedia(db, userId, (media) => moveMedia(media, id, step));
}

export function removePortfolioMedia(db: PactaDatabase, userId: string, id: string): Promise<void> {
  return editMedia(db, userId, (media) => media.filter((m) => m.id !== id));
}
