import './account.css';
import { useEffect, useId, useState, type FormEvent } from 'react';
import { FormError } from '../../components/form-error.tsx';
import { DELETION_CONFIRMATION, type AccountDeletionCheck } from '../../domain/contracts/account.ts';
import { errorText, isErrorCode } from '../../domain/contracts/errors.ts';
import { getSessionManager } from '../../lib/session/session.ts';
import { toastSuccess } from '../../lib/toasts.ts';
import { useBrowserOnline } from '../../lib/use-online.ts';
import { AccountApiError, checkAccountDeletion, deleteMyAccount, OFFLINE_TEXT } from './data/account-api.ts';

const blockerText = (code: string) => (isErrorCode(code) ? errorText(code) : code);

/**
 * Settings → Privacy: delete the account. The server decides (money held or a deal in progress stops
 * it); this card asks first so the person sees why before typing, then confirms by typing DELETE
 * and, for an account with a password, the password. Once deleted, the device's copy goes too.
 */
export function DeleteAccountCard() {
  const id = useId();
  const online = useBrowserOnline();
  const [check, setCheck] = useState<AccountDeletionCheck | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [typed, setTyped] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [blockers, setBlockers] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (!online) return;
    let live = true;
    checkAccountDeletion().then(
      (answer) => {
        if (!live) return;
        setCheck(answer);
        setBlockers(answer.blockers);
        setLoadError(null);
      },
      (err: unknown) => live && setLoadError(err instanceof Error ? err.message : 'Something went wrong.'),
    );
    return () => {
      live = false;
    };
  }, [online]);

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (typed.trim() !== DELETION_CONFIRMATION) {
      setError(errorText('confirmation_required'));
      return;
    }
    if (check?.needs_password && !password) {
      setError('Enter your password.');
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await deleteMyAccount(typed, check?.needs_password ? password : undefined);
    } catch (err) {
      setBusy(false);
      if (err instanceof AccountApiError && err.blockers.length) setBlockers(err.blockers);
      else setError(err instanceof Error ? err.message : 'Something went wrong. Please try again.');
      return;
    }
    toastSuccess('Your account was deleted.');
    // The server ended every session; this also deletes what this device held of the account.
    await getSessionManager().signOut();
  }

  return (
    <section className="card delete-account" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Delete account</h2>
      <p>
        Deleting your account removes your profile, photos and files, drafts, saved lists and notifications, and signs
        you out on every device. It cannot be undone.
      </p>
      <p>
        Kept: messages you sent stay with the people you sent them to, shown as from “Deleted user”. Payments and their
        records stay, as the law and the ledger require, and so do your support tickets.
      </p>
      {!online ? (
        <p className="muted">{OFFLINE_TEXT}</p>
      ) : loadError ? (
        <FormError message={loadError} />
      ) : !check ? (
        <p className="muted" role="status">
          Checking your account…
        </p>
      ) : blockers.length > 0 ? (
        <div role="alert" className="delete-account-blockers">
          <p>
            <strong>Your account cannot be deleted yet:</strong>
          </p>
          <ul>
            {blockers.map((code) => (
              <li key={code}>{blockerText(code)}</li>
            ))}
          </ul>
        </div>
      ) : (
        <form className="form" onSubmit={(e) => void onSubmit(e)} noValidate>
          <div className="field">
            <label htmlFor={`${id}-typed`}>Type {DELETION_CONFIRMATION} to confirm</label>
            <input
              id={`${id}-typed`}
              value={typed}
              autoComplete="off"
              autoCapitalize="characters"
              spellCheck={false}
              onChange={(e) => setTyped(e.target.value)}
            />
          </div>
          {check.needs_password ? (
            <div className="field">
              <label htmlFor={`${id}-password`}>Your password</label>
              <input
                id={`${id}-password`}
                type="password"
                value={password}
                autoComplete="current-password"
                onChange={(e) => setPassword(e.target.value)}
              />
            </div>
          ) : null}
          <FormError message={error} />
          <div>
            <button type="submit" className="button button-danger" disabled={busy}>
              {busy ? 'Deleting…' : 'Delete my account'}
            </button>
          </div>
        </form>
      )}
    </section>
  );
}
