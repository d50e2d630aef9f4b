import { useEffect, useState } from 'react';
import { FormError } from '../../components/form-error.tsx';
import { pushState, turnPushOff, turnPushOn, type PushState } from './data/push-notifications.ts';

const STATE_TEXT: Record<PushState, string> = {
  unsupported: 'This browser cannot receive push notifications. Install Pacta or use a browser that supports them.',
  blocked:
    'Notifications are blocked for Pacta in this browser. Allow them in the browser’s site settings, then turn them on here.',
  on: 'On: new messages and updates about your deals reach this device even when Pacta is closed.',
  off: 'Off: you see notifications in Pacta only.',
};

/** Settings → Notifications: Web Push on or off for this device. */
export function PushSection() {
  const [state, setState] = useState<PushState | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let current = true;
    void pushState().then((s) => current && setState(s));
    return () => {
      current = false;
    };
  }, []);

  async function toggle(on: boolean) {
    setBusy(true);
    setError(null);
    try {
      setState(await (on ? turnPushOn() : turnPushOff()));
    } catch (err) {
      setError(err instanceof Error ? err.message : 'Failed to update settings. Please try again.');
    } finally {
      setBusy(false);
    }
  }

  return (
    <section className="card" aria-labelledby="push-title">
      <h2 id="push-title">Push notifications on this device</h2>
      {state === null ? (
        <p className="muted">Checking this device…</p>
      ) : (
        <>
          <p>{STATE_TEXT[state]}</p>
          {state === 'unsupported' ? null : (
            <label className="push-toggle">
              <input
                type="checkbox"
                checked={state === 'on'}
                disabled={busy || state === 'blocked'}
                onChange={(e) => void toggle(e.target.checked)}
              />
              Push notifications on this device
            </label>
          )}
        </>
      )}
      <FormError message={error} />
    </section>
  );
}
