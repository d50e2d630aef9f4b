import { v5 as uuidv5 } from 'uuid';
import type { SAVED_LIST_KINDS } from './collections/people.ts';

export type SavedListKind = (typeof SAVED_LIST_KINDS)[number];

/** Fixed namespace for saved-list ids (a random v4 chosen once; never change it: ids would split). */
const SAVED_LIST_NAMESPACE = '6f1d3c2a-8b4e-4f7a-9c1d-2e5b7a9f0c34';

/**
 * The id of a user's saved list of one kind. saved_lists is unique on (user_id, kind); deriving
 * the id from that pair means two devices that each create the list offline write the SAME row
 * (a conflict the server resolves), instead of two rows where the second insert is refused.
 */
export function savedListId(userId: string, kind: SavedListKind): string {
  return uuidv5(`${userId.toLowerCase()}:${kind}`, SAVED_LIST_NAMESPACE);
}

/** Adds an entry: trimmed, never empty, never a duplicate. Returns null when nothing changes. */
export function addSavedItem(items: readonly string[], entry: string): string[] | null {
  const value = entry.trim();
  if (!value || items.includes(value)) return null;
  return [...items, value];
}

export function removeSavedItem(items: readonly string[], entry: string): string[] | null {
  return items.includes(entry) ? items.filter((item) => item !== entry) : null;
}
