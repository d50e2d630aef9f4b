import { useSyncExternalStore } from 'react';
import { loadLocalDataManager } from '../local-data-manager-loader.ts';
import { getSyncView, subscribeSyncView, type LocalSyncView } from '../sync-view.ts';

/** The sync status the navigation shows (online/offline, waiting changes, last synced, progress, errors). */
export function useSyncStatus(): LocalSyncView {
  return useSyncExternalStore(subscribeSyncView, getSyncView, getSyncView);
}

/** Local changes waiting to reach the server (0 when nothing waits or nothing replicates yet). */
export function usePendingChanges(): number {
  return useSyncStatus().status?.pendingPush ?? 0;
}

/** Try the server again now (Retry of the sync status). */
export function retrySync(): void {
  void loadLocalDataManager().then((m) => m.retrySync());
}
