import type { PactaDatabase } from '../create-database.ts';
import { prepareDocument } from '../prepare-document.ts';
import { publicObjectPath } from '../../domain/pictures.ts';
import { PORTFOLIO_MAX_ITEMS, type PortfolioMediaItem } from '../../domain/media.ts';
import type { UploadJob } from './upload-jobs.ts';
import { listUploads } from './upload-store.ts';

/**
 * The file is on the server: the record that waited for it takes the server's address in place of the
 * local copy, and then syncs as any other change. Idempotent (a reload between the upload and this
 * write runs it again).
 */
export async function finishUpload(db: PactaDatabase, job: UploadJob): Promise<void> {
  const target = job.target;
  if (target.kind === 'avatar') {
    if (job.bucket !== 'avatars' && job.bucket !== 'brand-logos')
      throw new Error(`An avatar cannot be in ${job.bucket}`);
    const profile = await db.profiles.findOne(job.userId).exec();
    if (!profile) throw new Error('Profile not found');
    await profile.incrementalPatch({ avatar_url: publicObjectPath(job.bucket, job.objectName), sync_rejection: null });
    return;
  }
  if (target.kind === 'portfolio') {
    const profile = await db.profiles.findOne(job.userId).exec();
    if (!profile) throw new Error('Profile not found');
    const item: PortfolioMediaItem = {
      id: target.mediaId,
      url: publicObjectPath('portfolio', job.objectName),
      kind: target.mediaKind,
    };
    await profile.incrementalModify((p) => {
      const media = p.portfolio_media ?? [];
      if (media.some((m) => m.id === item.id)) return p;
      return { ...p, portfolio_media: [...media, item].slice(-PORTFOLIO_MAX_ITEMS), sync_rejection: null };
    });
    return;
  }
  if (target.kind === 'draft') {
    // The draft waits for its last file: until then it would name a file the server does not have.
    const others = (await listUploads(job.userId)).filter(
      (j) => j.id !== job.id && j.target.kind === 'draft' && j.target.draftId === target.draftId,
    );
    if (others.length > 0 || (await db.deal_events.findOne(target.draftId).exec())) return;
    await db.deal_events.insert(
      prepareDocument('deal_events', {
        id: target.draftId,
        application_id: target.applicationId,
        deal_id: target.dealId,
        author_id: job.userId,
        kind: 'draft',
        deliverable_id: target.deliverableId,
        note: target.note,
        links: target.links,
        files: target.files,
        created_at: new Date().toISOString(),
      }),
    );
    return;
  }
  if (await db.messages.findOne(target.messageId).exec()) return;
  await db.messages.insert(
    prepareDocument('messages', {
      id: target.messageId,
      conversation_id: target.conversationId,
      sender_id: job.userId,
      recipient_id: target.recipientId,
      body: target.body,
      attachments: [{ path: job.objectName, name: job.fileName, type: job.contentType, size: job.size }],
      seq: null,
      created_at: new Date().toISOString(),
    }),
  );
}
