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

export function refusedText(count: number): string {
  return count === 1 ? '1 change could not be saved' : `${count} changes could not be saved`;
}

/** The navigation bar's short label for refused changes (the long one would push Sign Out away). */
export function refusedLabel(count: number): string {
  return `${count} not saved`;
}

/** The panel's line about waiting changes: never "All changes synced" beside a refused one. */
export function waitingLine(pending: number, refused: number): string {
  if (pending > 0) return waitingText(pending);
  return refused > 0 ? 'Nothing else is waiting to sync' : 'All changes synced';
}

type Doc = Record<string, unknown> | null;

const quoted = (text: unknown, max = 40) => {
  const t = typeof text === 'string' ? text.trim().replace(/\s+/g, ' ') : '';
  if (!t) return '';
  return ` “${t.length > max ? `${t.slice(0, max - 1)}…` : t}”`;
};
const str = (v: unknown) => (typeof v === 'string' && v ? v : null);

/**
 * Which change the server refused, in words, and where to mend it: read from the document as this
 * device holds it (null when it is gone). `href` is null when no page edits it.
 */
export function refusedChangeView(collection: string, id: string, doc: Doc): { what: string; href: string | null } {
  const d = doc ?? {};
  switch (collection) {
    case 'deals':
      return { what: `Deal${quoted(d.title)}`, href: `/deals/${id}/edit` };
    case 'applications':
      return { what: 'Your application', href: str(d.deal_id) && `/deals/${str(d.deal_id)}` };
    case 'reviews':
      return { what: 'Your review', href: str(d.deal_id) && `/deals/${str(d.deal_id)}` };
    case 'messages':
      return { what: `Message${quoted(d.body)}`, href: str(d.conversation_id) && `/inbox/${str(d.conversation_id)}` };
    case 'conversations':
      return { what: `Conversation${quoted(d.title)}`, href: `/inbox/${id}` };
    case 'support_tickets':
      return { what: `Support ticket${quoted(d.subject)}`, href: `/support/${id}` };
    case 'support_messages':
      return { what: 'Support reply', href: str(d.ticket_id) && `/support/${str(d.ticket_id)}` };
    case 'profiles':
      return { what: 'Your profile', href: '/profile/me' };
    case 'saved_lists':
      return { what: 'A saved list', href: '/dashboard' };
    case 'drafts':
      return { what: 'A campaign draft', href: '/campaign/new' };
    case 'notifications':
      return { what: 'A notification', href: '/notifications' };
    default:
      return { what: 'A change', href: null };
  }
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
  // A change the server refused is never hidden behind "Synced" (the panel lists the reasons).
  const refused = status.rejected?.length ?? 0;
  if (refused > 0) return { tone: 'error', label: refusedLabel(refused), error: null };
  if (!status.initialSync.complete) {
    return { tone: 'busy', label: `Syncing ${status.initialSync.done}/${status.initialSync.total}`, error: null };
  }
  if (status.pendingPush > 0) return { tone: 'busy', label: 'Syncing…', error: null };
  return { tone: 'ok', label: 'Synced', error: null };
}
