import { useId, useRef, useState, type FormEvent } from 'react';
import { FormError } from '../../components/form-error.tsx';
import {
  REPORT_DETAILS_MAX,
  REPORT_REASON_TEXT,
  REPORT_REASONS,
  type ReportReason,
} from '../../domain/contracts/account.ts';
import { useDialogFocus } from '../../lib/use-dialog-focus.ts';
import { toastSuccess } from '../../lib/toasts.ts';
import { sendReport } from './data/account-api.ts';

export type ReportTarget = { target: 'user' | 'deal'; id: string; name: string };

/** Report a person or a deal to Pacta staff: a reason and, if they like, what happened. */
export function ReportDialog({ about, onClose }: { about: ReportTarget; onClose: () => void }) {
  const id = useId();
  const box = useRef<HTMLFormElement>(null);
  const [reason, setReason] = useState<ReportReason | ''>('');
  const [details, setDetails] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  useDialogFocus(box, busy ? undefined : onClose);

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (!reason) {
      setError('Choose what is wrong.');
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await sendReport({ target: about.target, target_id: about.id, reason, details });
      toastSuccess('Thank you. Pacta staff will look into it; you will find their answer under Support.');
      onClose();
    } catch (err) {
      setError(err instanceof Error ? err.message : 'Something went wrong. Please try again.');
    } finally {
      setBusy(false);
    }
  }

  const noun = about.target === 'deal' ? 'deal' : 'person';
  return (
    <div className="modal-backdrop">
      <form
        ref={box}
        className="card confirm-dialog report-dialog"
        role="dialog"
        aria-modal="true"
        aria-labelledby={`${id}-title`}
        onSubmit={(e) => void onSubmit(e)}
        noValidate
      >
        <h2 id={`${id}-title`}>Report {about.target === 'deal' ? 'this deal' : about.name}</h2>
        <p className="muted">Only Pacta staff see reports. The {noun} you report is not told who sent it.</p>
        <fieldset className="field">
          <legend>What is wrong?</legend>
          <div className="report-reasons">
            {REPORT_REASONS.map((r) => (
              <label key={r} className="report-reason">
                <input
                  type="radio"
                  name={`${id}-reason`}
                  value={r}
                  checked={reason === r}
                  onChange={() => setReason(r)}
                />
                {REPORT_REASON_TEXT[r]}
              </label>
            ))}
          </div>
        </fieldset>
        <div className="field">
          <label htmlFor={`${id}-details`}>
            What happened? <span className="muted">(optional)</span>
          </label>
          <textarea
            id={`${id}-details`}
            value={details}
            maxLength={REPORT_DETAILS_MAX}
            rows={4}
            onChange={(e) => setDetails(e.target.value)}
          />
          <p className="muted field-help">
            {details.length}/{REPORT_DETAILS_MAX}
          </p>
        </div>
        <FormError message={error} />
        <div className="confirm-dialog-actions">
          <button type="button" className="button button-ghost" disabled={busy} onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="button button-primary" disabled={busy}>
            {busy ? 'Sending…' : 'Send report'}
          </button>
        </div>
      </form>
    </div>
  );
}
