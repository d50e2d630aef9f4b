import { addRxPlugin, createRxDatabase, type RxCollection, type RxDatabase, type RxStorage } from 'rxdb';
import { RxDBLeaderElectionPlugin } from 'rxdb/plugins/leader-election';
import { RxDBMigrationSchemaPlugin } from 'rxdb/plugins/migration-schema';
import { COLLECTION_NAMES, type CollectionDocument, type CollectionName } from '../domain/collections/index.ts';
import { pactaDexieStorage } from './batched-reads.ts';
import { conflictHandlerFor } from './conflict-handler.ts';
import { withNewestFirstKeys } from './newest-first.ts';
import { rxSchemaFor } from './rx-schema.ts';
import { migrationStrategiesForCollection } from './schema-migration.ts';
import { withoutStorageNotice } from './storage-notice.ts';

export type PactaCollections = { [N in CollectionName]: RxCollection<CollectionDocument<N>> };
export type PactaDatabase = RxDatabase<PactaCollections>;

let pluginsAdded = false;

/** RxDB plugins every Pacta database needs: leader election (one tab replicates) and schema migration. */
export function addPactaPlugins(): void {
  if (pluginsAdded) return;
  addRxPlugin(RxDBLeaderElectionPlugin);
  addRxPlugin(RxDBMigrationSchemaPlugin);
  // Installed here, with RxDB itself, so pages that never open a database (the landing page) load
  // neither RxDB nor this filter. Production builds only (see storage-notice.ts).
  if (import.meta.env?.PROD) console.warn = withoutStorageNotice(console.warn.bind(console));
  pluginsAdded = true;
}

/** The name of a user's database on the device (one per user: signing out deletes it by this name). */
export function databaseNameFor(userId: string): string {
  return `pacta-${userId.toLowerCase()}`;
}

/**
 * The signed-in user's local database: one IndexedDB database per user (Dexie storage), holding
 * the collections this realm needs (all 12 by default; RxDB's open-source build allows 13 open per
 * realm, so tests and workers open only what they use). Created outside React.
 *
 * In Node, pass `storage: pactaDexieStorage({ indexedDB, IDBKeyRange })` from fake-indexeddb.
 */
export async function createPactaDatabase(opts: {
  userId: string;
  storage?: RxStorage<unknown, unknown>;
  collections?: readonly CollectionName[];
  /** Several tabs share one database and elect one leader to replicate. Default: in a browser. */
  multiInstance?: boolean;
  /** Overrides the database name (tests running two clients of one user in one process). */
  name?: string;
}): Promise<PactaDatabase> {
  addPactaPlugins();
  const multiInstance = opts.multiInstance ?? typeof window !== 'undefined';
  const db = await createRxDatabase<PactaCollections>({
    name: opts.name ?? databaseNameFor(opts.userId),
    // Every write derives the newest-first sort key the screens' indexes read (newest-first.ts).
    storage: withNewestFirstKeys((opts.storage ?? pactaDexieStorage()) as RxStorage<unknown, unknown>),
    multiInstance,
    eventReduce: true,
    closeDuplicates: true,
    // A count the indexes cannot answer alone (the deals list's total under a niche or amount filter)
    // reads the matching range instead of failing (QU14); every other count is index-only.
    allowSlowCount: true,
  });
  const names = opts.collections ?? COLLECTION_NAMES;
  await db.addCollections(
    Object.fromEntries(
      names.map((name) => [
        name,
        // Stored documents of an older schemaVersion are migrated before the collection opens.
        {
          schema: rxSchemaFor(name),
          migrationStrategies: migrationStrategiesForCollection(name),
          conflictHandler: conflictHandlerFor(name),
        },
      ]),
    ),
  );
  return db;
}
