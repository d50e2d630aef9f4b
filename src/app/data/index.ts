export { DataProvider } from './data-provider.tsx';
export { useDatabase, useLocalData } from './use-database.ts';
export { useSyncStatus, usePendingChanges, retrySync } from './use-sync-status.ts';
export type { LocalDataValue, LocalDataStatus } from './data-context.ts';
export type { LocalSyncView } from './sync-view.ts';
