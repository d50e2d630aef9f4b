import { useEffect, useId, useRef, useState } from 'react';
import { retrySync, useSyncStatus } from '../../db/hooks/use-sync-status.ts';
import { useDismiss } from '../../lib/use-dismiss.ts';
import { lastSyncedText, refusedText, summarise, waitingLine, waitingText } from './sync-status-text.ts';
import { RefusedChangeItem } from './refused-change-item.tsx';
import './sync-status.css';

/** Re-render every 30 s so "Last synced 2 min ago" stays true. */
function useNow(intervalMs = 30_000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs]);
  return now;
}

/**
 * The sync status in the navigation bar: online/offline, changes waiting to sync, and a details
 * panel with the last sync time, the initial sync progress and errors with Retry.
 */
export function SyncStatusIndicator() {
  const view = useSyncStatus();
  const now = useNow();
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const root = useRef<HTMLDivElement>(null);
  const summary = summarise(view);
  const status = view.status;
  const pending = status?.pendingPush ?? 0;
  const refused = status?.rejected ?? [];

  useDismiss(open, root, () => setOpen(false));

  return (
    <div className="sync-status" ref={root} data-tone={summary.tone}>
      <button
        type="button"
        className="sync-status-button"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen((o) => !o)}
      >
        <span className="sync-status-dot" aria-hidden="true" />
        <span
          className="sync-status-label"
          data-testid="sync-status-label"
          title={refused.length > 0 ? refusedText(refused.length) : undefined}
        >
          {summary.label}
        </span>
        {pending > 0 ? (
          <span className="sync-status-count" aria-label={waitingText(pending)}>
            {pending}
          </span>
        ) : null}
      </button>
      {/* Announced without opening the panel: offline, waiting changes, errors. */}
      <p className="visually-hidden" role="status" aria-live="polite">
        {summary.tone === 'offline' ? 'You are offline. Changes are saved on this device.' : ''}{' '}
        {pending > 0 ? waitingText(pending) : ''} {refused.length > 0 ? refusedText(refused.length) : ''}
      </p>
      <div id={panelId} className="sync-status-panel card" hidden={!open}>
        <p className="sync-status-line">
          <strong>{summary.tone === 'offline' ? 'Offline' : 'Online'}</strong>
          {summary.tone === 'offline' ? ' — your changes are saved on this device and sync when you reconnect.' : null}
        </p>
        <p className="sync-status-line" data-testid="sync-status-waiting">
          {waitingLine(pending, refused.length)}
        </p>
        <p className="sync-status-line">{lastSyncedText(status?.lastSyncedAt ?? null, now)}</p>
        {status && !status.initialSync.complete ? (
          <div className="sync-status-progress">
            <label htmlFor={`${panelId}-progress`}>
              First sync: {status.initialSync.done} of {status.initialSync.total}
            </label>
            <progress id={`${panelId}-progress`} max={status.initialSync.total} value={status.initialSync.done} />
          </div>
        ) : null}
        {refused.length > 0 ? (
          <div className="sync-status-refused" data-testid="sync-status-refused">
            <p className="sync-status-line">
              <strong>{refusedText(refused.length)}</strong>
            </p>
            <ul>
              {refused.slice(0, 5).map((r) => (
                <RefusedChangeItem key={`${r.collection}/${r.id}`} change={r} onNavigate={() => setOpen(false)} />
              ))}
            </ul>
            {refused.length > 5 ? <p className="sync-status-line muted">and {refused.length - 5} more</p> : null}
          </div>
        ) : null}
        {view.role === 'follower' ? <p className="sync-status-line muted">Syncing in another open tab.</p> : null}
        {summary.error || (summary.tone === 'offline' && pending > 0) ? (
          <div className="sync-status-error" role="alert">
            {summary.error ? <p>{summary.error}</p> : null}
            <button type="button" className="button button-secondary button-small" onClick={retrySync}>
              Retry
            </button>
          </div>
        ) : null}
      </div>
    </div>
  );
}
