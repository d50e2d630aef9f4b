import type { RxStorage, RxStorageInstance, RxStorageInstanceCreationParams } from 'rxdb';
import { NEWEST_FIRST, OPEN_UNTIL } from '../domain/collections/index.ts';
import { lastOfferedDay } from '../domain/deal-deadline.ts';

/** The digits of a timestamp's fraction of a second (Postgres sends microseconds). */
const FRACTION = /\.(\d+)/;

/**
 * `created_at` as the newest-first sort key: minus the microseconds since 1970, so the newest
 * document has the smallest key and an ascending index walk meets it first. Postgres stamps
 * microseconds; two rows of one transaction share the key and fall back to their id.
 */
export function newestFirstKey(createdAt: string): number {
  const ms = Date.parse(createdAt);
  if (Number.isNaN(ms)) return -Date.now() * 1000;
  const micros = Number(`${FRACTION.exec(createdAt)?.[1] ?? ''}000000`.slice(3, 6));
  return -(ms * 1000 + micros);
}

type Doc = Record<string, unknown>;

/**
 * Gives a document about to be stored its sort key (and a `created_at` if it has none yet: "now").
 * A removal the server sent as `{ id, _deleted }` stays as it came: no list reads deleted documents,
 * and a date made up here would make it differ from the server's copy (and be pushed back).
 */
function stamp(doc: Doc): void {
  if (doc._deleted && typeof doc.created_at !== 'string') return;
  const createdAt = typeof doc.created_at === 'string' ? doc.created_at : (doc.created_at = new Date().toISOString());
  doc[NEWEST_FIRST] = newestFirstKey(createdAt);
}

/** Gives a deal about to be stored its last offered day (OPEN_UNTIL), from the deadline it now has. */
function stampOpenUntil(doc: Doc): void {
  if (doc._deleted && !('deadline' in doc)) return;
  doc[OPEN_UNTIL] = lastOfferedDay(typeof doc.deadline === 'string' ? doc.deadline : null);
}

/**
 * The storage every Pacta database runs on, deriving `newest_first` (and a deal's `open_until`) for
 * each document written to a collection whose schema has it: local writes, replicated pages and schema migrations all pass
 * through `bulkWrite`, so no write path can miss it (RxDB's collection hooks do not run for
 * replicated documents). The key is set on the document object RxDB passes in, not on a copy: RxDB
 * keeps that object as the document's state (its cache and the live queries' event-reduce sort by
 * the key), so a copy would leave those without it.
 */
export function withNewestFirstKeys<Internals, Options>(
  storage: RxStorage<Internals, Options>,
): RxStorage<Internals, Options> {
  const wrapped: RxStorage<Internals, Options> = Object.create(storage) as RxStorage<Internals, Options>;
  wrapped.createStorageInstance = async <RxDocType>(
    params: RxStorageInstanceCreationParams<RxDocType, Options>,
  ): Promise<RxStorageInstance<RxDocType, Internals, Options>> => {
    const instance = await storage.createStorageInstance(params);
    const stamps = [
      ...(NEWEST_FIRST in params.schema.properties ? [stamp] : []),
      ...(OPEN_UNTIL in params.schema.properties ? [stampOpenUntil] : []),
    ];
    if (stamps.length === 0) return instance;
    const bulkWrite = instance.bulkWrite.bind(instance);
    instance.bulkWrite = (rows, context) => {
      for (const row of rows) for (const derive of stamps) derive(row.document as Doc);
      return bulkWrite(rows, context);
    };
    return instance;
  };
  return wrapped;
}

/**
 * The sort of every "newest first" list: ascending on the derived key, which an index serves in
 * order, so a query with `limit` reads only the documents it returns. (`created_at: 'desc'` would be
 * re-sorted in memory after reading the whole range.)
 */
export const NEWEST_FIRST_SORT = [{ [NEWEST_FIRST]: 'asc' as const }];
