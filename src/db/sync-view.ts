import type { SyncStatus } from './sync-status.ts';

/**
 * What the sync status in the navigation shows. A dependency-free store (no RxDB, no rxjs) so the
 * always-loaded shell can read it; the data manager (loaded after sign-in) writes it.
 */
export type LocalSyncView = {
  /** This tab replicates (leader), shows the leader tab's status (follower), or has no replication yet. */
  role: 'leader' | 'follower' | 'none';
  status: SyncStatus | null;
  /** navigator.onLine: the browser's own view of the network. */
  browserOnline: boolean;
};

const browserOnline = () => (typeof navigator === 'undefined' ? true : navigator.onLine);

let view: LocalSyncView = { role: 'none', status: null, browserOnline: browserOnline() };
const listeners = new Set<() => void>();

export function getSyncView(): LocalSyncView {
  return view;
}

export function setSyncView(patch: Partial<LocalSyncView>): void {
  view = { ...view, ...patch };
  for (const listener of listeners) listener();
}

export function resetSyncView(): void {
  setSyncView({ role: 'none', status: null, browserOnline: browserOnline() });
}

export function subscribeSyncView(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
