export { createPactaDatabase, type PactaCollections, type PactaDatabase } from './create-database.ts';
export { startReplication, type PactaReplication, type ReplicationOptions } from './replication.ts';
export type { SyncStatus } from './sync-status.ts';
export { SyncHttpError } from './sync-api.ts';
export { rxSchemaFor } from './rx-schema.ts';
export { conflictHandlerFor, mergeConflict } from './conflict-handler.ts';
export { prepareDocument, type DocumentInput } from './prepare-document.ts';
