import type { PactaDatabase } from '../../../db/index.ts';
import { prepareDocument } from '../../../db/index.ts';
import { addSavedItem, removeSavedItem, savedListId } from '../../../domain/saved-lists.ts';

/**
 * Blocks a person: their id joins the user's own list of kind `blocked_users` (saved on the device,
 * synced later; the list's id comes from user and kind, so two devices write the same row). The
 * server refuses messages between the two and the person's applications to the user's deals.
 */
export async function blockPerson(db: PactaDatabase, userId: string, personId: string): Promise<void> {
  if (personId === userId) return;
  const id = savedListId(userId, 'blocked_users');
  const existing = await db.saved_lists.findOne(id).exec();
  if (!existing) {
    try {
      await db.saved_lists.insert(
        prepareDocument('saved_lists', {
          id,
          user_id: userId,
          kind: 'blocked_users',
          items: [personId],
          created_at: new Date().toISOString(),
        }),
      );
      return;
    } catch (err) {
      // The list arrived from another device meanwhile: add to that one.
      if ((err as { code?: string }).code !== 'CONFLICT') throw err;
      return blockPerson(db, userId, personId);
    }
  }
  await existing.incrementalModify((doc) => {
    const items = addSavedItem(doc.items, personId);
    return items ? { ...doc, items, sync_rejection: null } : doc;
  });
}

export async function unblockPerson(db: PactaDatabase, userId: string, personId: string): Promise<void> {
  const existing = await db.saved_lists.findOne(savedListId(userId, 'blocked_users')).exec();
  await existing?.incrementalModify((doc) => {
    const items = removeSavedItem(doc.items, personId);
    return items ? { ...doc, items, sync_rejection: null } : doc;
  });
}
