import type { DBCore, DBCoreGetManyRequest, DBCoreTable, Middleware } from 'dexie';
import { getRxStorageDexie } from 'rxdb/plugins/storage-dexie';
import { withKeyRangeChanges } from './changes-since.ts';

/** Below this many keys a read is left as it is: a few single reads cost less than the range checks. */
const BATCH_FROM_KEYS = 32;
/**
 * When the key range holds more than this many stored documents per key asked for, reading the
 * range's keys would cost more than asking for each key; the read is left as it is.
 */
const MAX_KEYS_IN_RANGE_PER_KEY = 8;
/** DBCoreRangeType.Range (a `const enum` in Dexie's types, not a value at run time). */
const RANGE = 2;

/**
 * Reads many documents by id with a few IndexedDB requests instead of one request per id.
 *
 * RxDB reads every document of a pulled page by id up to four times before writing it (the local
 * copy, the replication's record of the server state, and the storage's own check before each of the
 * two writes): on a first sync those are 40,000 `get` requests for 10,000 deals, almost all for ids
 * not stored yet, and in Chromium they cost about as much as writing the documents. Here a read of
 * many ids first counts the stored documents between the smallest and the largest id, then reads
 * only their keys (one request), then fetches only the ids that exist. The answer is the same as
 * Dexie's own `getMany` (values in the order of the keys, `undefined` where there is none), read in
 * the same transaction.
 */
export const batchedReads: Middleware<DBCore> = {
  stack: 'dbcore',
  name: 'PactaBatchedReads',
  create: (down) => ({
    ...down,
    table(name: string): DBCoreTable {
      const table = down.table(name);
      const primaryKey = table.schema.primaryKey;
      if (primaryKey.outbound || primaryKey.compound || !primaryKey.extractKey) return table;
      return { ...table, getMany: (req) => getMany(table, req) };
    },
  }),
};

function getMany(table: DBCoreTable, req: DBCoreGetManyRequest): Promise<unknown[]> {
  const keys = req.keys;
  if (keys.length < BATCH_FROM_KEYS || !keys.every((k) => typeof k === 'string')) return table.getMany(req);
  let lower = keys[0] as string;
  let upper = lower;
  for (const key of keys as string[]) {
    if (key < lower) lower = key;
    else if (key > upper) upper = key;
  }
  const query = {
    index: table.schema.primaryKey,
    range: { type: RANGE, lower, upper, lowerOpen: false, upperOpen: false },
  };
  return table.count({ trans: req.trans, query }).then((stored) => {
    if (stored === 0) return keys.map(() => undefined);
    if (stored > keys.length * MAX_KEYS_IN_RANGE_PER_KEY) return table.getMany(req);
    return table.query({ trans: req.trans, query, values: false }).then(({ result }) => {
      const present = new Set(result as string[]);
      const found = [...new Set((keys as string[]).filter((k) => present.has(k)))];
      if (found.length === 0) return keys.map(() => undefined);
      return table.getMany({ ...req, keys: found }).then((values) => {
        const byKey = new Map(found.map((k, i) => [k, values[i]]));
        return (keys as string[]).map((k) => byKey.get(k));
      });
    });
  });
}

/**
 * The Dexie storage every Pacta database uses, with batched reads and changed documents read by key
 * range (changes-since.ts). In Node, pass fake-indexeddb's
 * `{ indexedDB, IDBKeyRange }`.
 */
export function pactaDexieStorage(settings: Parameters<typeof getRxStorageDexie>[0] = {}) {
  return withKeyRangeChanges(
    getRxStorageDexie({
      ...settings,
      onCreate: async (db, name) => {
        // RxDB bundles its own copy of Dexie (same major version, same DBCore): its `use` takes this middleware.
        db.use(batchedReads as unknown as Parameters<typeof db.use>[0]);
        await settings.onCreate?.(db, name);
      },
    }),
  );
}
