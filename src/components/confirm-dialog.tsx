import { useId, useRef, useState, type ReactNode } from 'react';
import { useDialogFocus } from '../lib/use-dialog-focus.ts';

/**
 * A second look before an action that moves money or closes a deal: a modal alert dialog that says
 * what will move where, with the action and Cancel. Focus starts on Cancel (the safe choice) and stays
 * inside; Escape cancels. `onConfirm` may be async: the dialog stays open, busy, until it settles.
 */
export function ConfirmDialog({
  title,
  children,
  confirmLabel,
  busyLabel,
  onConfirm,
  onCancel,
}: {
  title: string;
  children: ReactNode;
  confirmLabel: string;
  busyLabel?: string;
  onConfirm: () => unknown;
  onCancel: () => void;
}) {
  const titleId = useId();
  const bodyId = useId();
  const box = useRef<HTMLDivElement>(null);
  const [busy, setBusy] = useState(false);
  useDialogFocus(box, busy ? undefined : onCancel);

  async function confirm() {
    setBusy(true);
    try {
      await onConfirm();
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="modal-backdrop">
      <div
        ref={box}
        className="card confirm-dialog"
        role="alertdialog"
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={bodyId}
      >
        <h2 id={titleId}>{title}</h2>
        <div id={bodyId}>{children}</div>
        <div className="confirm-dialog-actions">
          <button type="button" className="button button-ghost" disabled={busy} onClick={onCancel}>
            Cancel
          </button>
          <button type="button" className="button button-primary" disabled={busy} onClick={() => void confirm()}>
            {busy ? (busyLabel ?? confirmLabel) : confirmLabel}
          </button>
        </div>
      </div>
    </div>
  );
}
