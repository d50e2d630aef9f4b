import { useId, useState, type FormEvent } from 'react';
import { toastSuccess } from '../../lib/toasts.ts';
import { changePassword } from './data/change-password.ts';
import { FormError } from '../../components/form-error.tsx';

/**
 * Security: password change, current, new and confirm (needs a connection: it goes to the auth
 * server, which checks the current password).
 */
export function SecuritySection() {
  const id = useId();
  const [current, setCurrent] = useState('');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    const result = await changePassword({ current, password, confirm });
    setBusy(false);
    if (!result.ok) {
      setError(result.message);
      return;
    }
    setCurrent('');
    setPassword('');
    setConfirm('');
    toastSuccess('Settings updated successfully');
  }

  return (
    <form
      className="form card settings-form"
      onSubmit={(e) => void onSubmit(e)}
      noValidate
      aria-labelledby={`${id}-title`}
    >
      <h2 id={`${id}-title`}>Change password</h2>
      <div className="field">
        <label htmlFor={`${id}-current`}>Current password</label>
        <input
          id={`${id}-current`}
          type="password"
          autoComplete="current-password"
          value={current}
          onChange={(e) => setCurrent(e.target.value)}
          required
        />
      </div>
      <div className="field">
        <label htmlFor={`${id}-new`}>New password</label>
        <input
          id={`${id}-new`}
          type="password"
          autoComplete="new-password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          required
          minLength={8}
        />
      </div>
      <div className="field">
        <label htmlFor={`${id}-confirm`}>Confirm new password</label>
        <input
          id={`${id}-confirm`}
          type="password"
          autoComplete="new-password"
          value={confirm}
          onChange={(e) => setConfirm(e.target.value)}
          required
        />
      </div>
      <FormError message={error} />
      <div>
        <button type="submit" className="button button-primary" disabled={busy}>
          {busy ? 'Updating...' : 'Update password'}
        </button>
      </div>
    </form>
  );
}
