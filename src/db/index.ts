/** What code outside src/db uses of the local database: opening it, replicating it, writing documents. */
export { createPactaDatabase, databaseNameFor, type PactaDatabase } from './create-database.ts';
export { pactaDexieStorage } from './batched-reads.ts';
export { startReplication, type PactaReplication } from './replication.ts';
export { prepareDocument } from './prepare-document.ts';
export { NEWEST_FIRST_SORT } from './newest-first.ts';
export { listFirst } from './list-first.ts';
