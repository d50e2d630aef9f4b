import './account.css';
import { useState } from 'react';
import { FormError } from '../../components/form-error.tsx';
import { useBrowserOnline } from '../../lib/use-online.ts';
import { downloadMyData, OFFLINE_TEXT } from './data/account-api.ts';

/** Settings → Privacy: download everything Pacta holds about the user, as one JSON file. */
export function DataExportCard() {
  const online = useBrowserOnline();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function download() {
    setBusy(true);
    setError(null);
    try {
      await downloadMyData();
    } catch (err) {
      setError(err instanceof Error ? err.message : 'Something went wrong. Please try again.');
    } finally {
      setBusy(false);
    }
  }

  return (
    <section className="card" aria-labelledby="export-title">
      <h2 id="export-title">Your data</h2>
      <p>
        Download a copy of everything Pacta holds about you: your profile, deals, applications, messages, tickets, the
        payments you are part of and the list of your files.
      </p>
      <button
        type="button"
        className="button button-secondary"
        disabled={busy || !online}
        onClick={() => void download()}
      >
        {busy ? 'Preparing…' : 'Download my data'}
      </button>
      {online ? null : <p className="muted field-help">{OFFLINE_TEXT}</p>}
      <FormError message={error} />
    </section>
  );
}
