import type { z } from 'zod';
import { collectionSpecs, type CollectionDocument, type CollectionName } from '../domain/collections/index.ts';

export type DocumentInput<N extends CollectionName> = z.input<(typeof collectionSpecs)[N]['schema']>;

/**
 * Validates a new or changed document with the collection's shared zod schema and fills its
 * defaults, ready for `collection.insert` / `upsert`. Named write operations go through this.
 */
export function prepareDocument<N extends CollectionName>(name: N, input: DocumentInput<N>): CollectionDocument<N> {
  return collectionSpecs[name].schema.parse(input) as CollectionDocument<N>;
}
