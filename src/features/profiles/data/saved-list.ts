import type { PactaDatabase } from '../../../db/index.ts';
import { prepareDocument } from '../../../db/index.ts';
import { addSavedItem, removeSavedItem, savedListId, type SavedListKind } from '../../../domain/saved-lists.ts';

/**
 * Adds an entry to the user's saved list of a kind (creating the list on first use, with the id
 * derived from user and kind). Empty and duplicate entries are not added: returns false then.
 */
export async function addToSavedList(
  db: PactaDatabase,
  userId: string,
  kind: SavedListKind,
  entry: string,
): Promise<boolean> {
  const id = savedListId(userId, kind);
  const existing = await db.saved_lists.findOne(id).exec();
  if (!existing) {
    const items = addSavedItem([], entry);
    if (!items) return false;
    try {
      await db.saved_lists.insert(
        prepareDocument('saved_lists', { id, user_id: userId, kind, items, created_at: new Date().toISOString() }),
      );
      return true;
    } catch (err) {
      // The list arrived from another device meanwhile (same derived id): add to that one.
      if ((err as { code?: string }).code === 'CONFLICT') return addToSavedList(db, userId, kind, entry);
      throw err;
    }
  }
  let added = false;
  // incrementalModify re-reads the latest state, so two quick adds never lose one another.
  await existing.incrementalModify((doc) => {
    const items = addSavedItem(doc.items, entry);
    added = items !== null;
    return items ? { ...doc, items, sync_rejection: null } : doc;
  });
  return added;
}

export async function removeFromSavedList(
  db: PactaDatabase,
  userId: string,
  kind: SavedListKind,
  entry: string,
): Promise<void> {
  const existing = await db.saved_lists.findOne(savedListId(userId, kind)).exec();
  if (!existing) return;
  await existing.incrementalModify((doc) => {
    const items = removeSavedItem(doc.items, entry);
    return items ? { ...doc, items, sync_rejection: null } : doc;
  });
}
