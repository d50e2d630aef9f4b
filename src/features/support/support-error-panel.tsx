import { useId, useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import { useDialogFocus } from '../../lib/use-dialog-focus.ts';

/** An error whose message says Pro users get more opens the upgrade dialog instead of the panel. */
function mentionsProUsers(message: string): boolean {
  return message.includes('Pro users');
}

/**
 * A support error: a panel with the reason and Retry. When the reason mentions 'Pro users' (the free
 * plan's limit on open tickets), the upgrade dialog opens instead; once dismissed the panel stays.
 */
export function SupportErrorPanel({
  title,
  message,
  onRetry,
}: {
  title: string;
  message: string;
  onRetry?: (() => void) | undefined;
}) {
  const [dismissed, setDismissed] = useState<string | null>(null);
  const dialogOpen = mentionsProUsers(message) && dismissed !== message;
  return (
    <>
      {dialogOpen ? <UpgradeDialog message={message} onClose={() => setDismissed(message)} /> : null}
      <div className="card support-error" role="alert">
        <h2>{title}</h2>
        <p>{message}</p>
        <div className="support-actions">
          {onRetry ? (
            <button type="button" className="button button-primary" onClick={onRetry}>
              Retry
            </button>
          ) : null}
          {mentionsProUsers(message) ? (
            <Link to="/pricing" className="button button-secondary">
              Upgrade to Pro
            </Link>
          ) : null}
        </div>
      </div>
    </>
  );
}

/** A modal offering Pro: focus goes to its first action and stays inside (Tab wraps, Escape closes). */
function UpgradeDialog({ message, onClose }: { message: string; onClose: () => void }) {
  const titleId = useId();
  const box = useRef<HTMLDivElement>(null);
  useDialogFocus(box, onClose);
  return (
    <div className="modal-backdrop">
      <div ref={box} className="card support-dialog" role="dialog" aria-modal="true" aria-labelledby={titleId}>
        <span className="ticket-badge ticket-pro">Pro</span>
        <h2 id={titleId}>Upgrade to Pro</h2>
        <p>{message}</p>
        <p className="muted">Pro members&apos; tickets are answered first, with no limit on open tickets.</p>
        <div className="support-actions">
          <Link to="/pricing" className="button button-primary">
            See Pro plans
          </Link>
          <button type="button" className="button button-secondary" onClick={onClose}>
            Not now
          </button>
        </div>
      </div>
    </div>
  );
}

/** The device's data could not open: the panel with Retry (opening again). */
export function LocalDataError({ message, onRetry }: { message: string | null; onRetry: () => void }) {
  return (
    <div className="page container narrow support">
      <SupportErrorPanel
        title="Support tickets could not load"
        message={message ?? 'The data on this device could not be opened.'}
        onRetry={onRetry}
      />
    </div>
  );
}
