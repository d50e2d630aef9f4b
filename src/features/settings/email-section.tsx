import { useEffect, useState } from 'react';
import { FormError } from '../../components/form-error.tsx';
import type { DealEmailKind } from '../../domain/deal-emails.ts';
import type { EmailPreference } from '../../domain/contracts/email.ts';
import { emailPreferences, setEmailPreference } from './data/email-preferences.ts';

/**
 * Settings → Notifications: the e-mails for what waits on you, each on or off (the one-click link in
 * every e-mail turns off the same switch). Online only: the choice lives on the server, which sends them.
 */
export function EmailSection() {
  const [items, setItems] = useState<EmailPreference[] | null>(null);
  const [busy, setBusy] = useState<DealEmailKind | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let current = true;
    emailPreferences().then(
      (list) => current && setItems(list),
      (err: unknown) =>
        current && setError(err instanceof Error ? err.message : 'Could not read your e-mail settings.'),
    );
    return () => {
      current = false;
    };
  }, []);

  const show = (kind: DealEmailKind, enabled: boolean) =>
    setItems((list) => list?.map((i) => (i.kind === kind ? { ...i, enabled } : i)) ?? null);

  // The switch moves at once and moves back if the server did not take the change.
  async function toggle(kind: DealEmailKind, enabled: boolean) {
    setBusy(kind);
    setError(null);
    show(kind, enabled);
    try {
      await setEmailPreference(kind, enabled);
    } catch (err) {
      show(kind, !enabled);
      setError(err instanceof Error ? err.message : 'Failed to update settings. Please try again.');
    } finally {
      setBusy(null);
    }
  }

  return (
    <section className="card" aria-labelledby="email-title">
      <h2 id="email-title">E-mails</h2>
      <p className="muted">
        Besides the bell, Pacta e-mails you when something waits on you. Turn off what you do not need.
      </p>
      {items === null ? (
        error ? null : (
          <p className="muted">Loading your e-mail settings…</p>
        )
      ) : (
        <fieldset className="email-preferences">
          <legend className="visually-hidden">E-mail me when</legend>
          {items.map((i) => (
            <label key={i.kind} className="push-toggle">
              <input
                type="checkbox"
                checked={i.enabled}
                disabled={busy !== null}
                onChange={(e) => void toggle(i.kind, e.target.checked)}
              />
              {i.label}
            </label>
          ))}
        </fieldset>
      )}
      <FormError message={error} />
    </section>
  );
}
