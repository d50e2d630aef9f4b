import { useEffect, useState } from 'react';
import { goToStripe, moneyApi, type PayoutStatus } from './money-api.ts';
import { useOnline } from './use-online.ts';

/** A creator's payout account (Stripe Connect Express): set up once, then every released deal pays into it. */
export function PayoutSetup({ returnTo, compact = false }: { returnTo: string; compact?: boolean }) {
  const online = useOnline();
  const [status, setStatus] = useState<PayoutStatus | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (!online) return;
    let current = true;
    moneyApi.payoutStatus().then(
      (s) => current && setStatus(s),
      (err: unknown) => current && setError(err instanceof Error ? err.message : 'Could not read your payout status.'),
    );
    return () => {
      current = false;
    };
  }, [online]);

  async function start() {
    setBusy(true);
    setError(null);
    try {
      goToStripe((await moneyApi.startPayoutSetup(returnTo)).url);
    } catch (err) {
      setError(err instanceof Error ? err.message : 'Failed to start payout setup.');
      setBusy(false);
    }
  }

  if (!online) return <p className="muted">Payout setup needs a connection.</p>;
  if (!status) return error ? <p className="form-error" role="alert">{error}</p> : null;
  if (status.ready) {
    return (
      <p className="form-success" role="status">
        Payouts are set up: released deals are paid to your account.
      </p>
    );
  }
  return (
    <div className="money-action">
      {compact ? null : <p>Set up payouts once to be paid for your deals. It takes a couple of minutes with Stripe.</p>}
      <button type="button" className="button button-primary" disabled={busy} onClick={() => void start()}>
        {busy ? 'Opening…' : status.hasAccount ? 'Finish setting up payouts' : 'Set up payouts'}
      </button>
      {error ? (
        <p className="form-error" role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}
