import type { LocalSyncView } from '../../db/sync-view.ts';

/** Pure wording of the sync status, so the component stays small and the texts are testable. */

export function waitingText(count: number): string {
  return count === 1 ? '1 change waiting to sync' : `${count} changes waiting to sync`;
}

export function lastSyncedText(at: number | null, now: number): string {
  if (at === null) return 'Not synced yet';
  const seconds = Math.max(0, Math.round((now - at) / 1000));
  if (seconds < 45) return 'Last synced just now';
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `Last synced ${minutes} min ago`;
  const hours = Math.round(minutes / 60);
  if (hours < 24) return `Last synced ${hours} h ago`;
  return `Last synced ${new Date(at).toLocaleDateString()}`;
}

export type SyncSummary = {
  tone: 'ok' | 'busy' | 'offline' | 'error';
  /** The short label in the navigation bar. */
  label: string;
  /** An error the user can act on (Retry), when there is one. */
  error: string | null;
};

const SESSION_CODES = new Set(['bad_jwt', 'no_authorization', 'session_not_found', 'http_401']);

/** What the user can do about a sync error, in words (the server's own text is technical). */
function errorText(error: { code: string; message: string }): string {
  if (SESSION_CODES.has(error.code)) return 'Sync could not verify your session. Retry, or sign out and sign in again.';
  if (/^http_5\d\d$/.test(error.code) || error.code === 'internal') return 'Server error. Please try again later.';
  return error.message || 'An unexpected error occurred. Please try again.';
}

export function summarise(view: LocalSyncView): SyncSummary {
  const status = view.status;
  const offline = !view.browserOnline || (status !== null && !status.online);
  if (offline) return { tone: 'offline', label: 'Offline', error: null };
  if (!status) return { tone: 'busy', label: 'Connecting…', error: null };
  if (status.lastError) {
    return { tone: 'error', label: 'Sync problem', error: errorText(status.lastError) };
  }
  if (!status.initialSync.complete) {
    return { tone: 'busy', label: `Syncing ${status.initialSync.done}/${status.initialSync.total}`, error: null };
  }
  if (status.pendingPush > 0) return { tone: 'busy', label: 'Syncing…', error: null };
  return { tone: 'ok', label: 'Synced', error: null };
}
