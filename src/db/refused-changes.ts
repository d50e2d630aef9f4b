import type { RxCollection } from 'rxdb';
import { COLLECTION_NAMES, type CollectionName } from '../domain/collections/index.ts';
import type { PactaDatabase } from './create-database.ts';

type Doc = Record<string, unknown> & { id: string };

function collectionOf(db: PactaDatabase, name: string): RxCollection<Doc> | null {
  if (!(COLLECTION_NAMES as readonly string[]).includes(name)) return null;
  return (db.collections[name as CollectionName] as unknown as RxCollection<Doc> | undefined) ?? null;
}

/** The refused document as this device holds it (what the sync status lists names it), or null. */
export async function readRefusedChange(db: PactaDatabase, collection: string, id: string): Promise<Doc | null> {
  const doc = await collectionOf(db, collection)?.findOne(id).exec();
  return doc ? (doc.toJSON() as Doc) : null;
}

/**
 * Discards a change the server refused, keeping what the server has. A refused change of a document
 * the server holds already came back as the server's copy with the refusal on it: clearing the marker
 * leaves that copy, and the push that follows equals the server's row, so nothing is written. A
 * refused new document (the server never stamped a version on it) exists only here: it is removed.
 */
export async function discardRefusedChange(db: PactaDatabase, collection: string, id: string): Promise<void> {
  const doc = await collectionOf(db, collection)?.findOne(id).exec();
  if (!doc || !doc.get('sync_rejection')) return;
  if (doc.get('version') == null) await doc.remove();
  else await doc.incrementalPatch({ sync_rejection: null });
}
