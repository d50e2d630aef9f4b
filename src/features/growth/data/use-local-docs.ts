import { map } from 'rxjs';
import { useLiveQuery, type LiveResult } from '../../../db/hooks/use-live-query.ts';
import type { CollectionDocument, CollectionName } from '../../../domain/collections/index.ts';

/**
 * Every document of a local collection, live: the growth tools compute their figures on the device,
 * so they work offline and follow each synced change.
 */
export function useLocalDocs<N extends CollectionName>(name: N, enabled = true): LiveResult<CollectionDocument<N>[]> {
  return useLiveQuery(
    (db) =>
      enabled &&
      db.collections[name].find().$.pipe(map((docs) => docs.map((d) => d.toJSON() as CollectionDocument<N>))),
    [name, enabled],
  );
}
