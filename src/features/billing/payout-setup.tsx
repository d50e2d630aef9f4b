import { useEffect, useState } from 'react';
import { FormError } from '../../components/form-error.tsx';
import { moneyApi, type PayoutStatus } from './data/money-api.ts';
import { PaymentsUnavailable } from './payments-unavailable.tsx';
import { useOnline } from './use-online.ts';
import { usePaymentsAvailable } from './data/use-payments-available.ts';
import { useServerRedirect } from './data/use-server-redirect.ts';

/** A creator's payout account (Stripe Connect Express): set up once, then every released deal pays into it. */
export function PayoutSetup({ returnTo, compact = false }: { returnTo: string; compact?: boolean }) {
  const online = useOnline();
  const [status, setStatus] = useState<PayoutStatus | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const setup = useServerRedirect('Failed to start payout setup.');
  const error = setup.error ?? loadError;
  const payments = usePaymentsAvailable();

  useEffect(() => {
    if (!online || payments !== true) return;
    let current = true;
    moneyApi.payoutStatus().then(
      (s) => current && setStatus(s),
      (err: unknown) =>
        current && setLoadError(err instanceof Error ? err.message : 'Could not read your payout status.'),
    );
    return () => {
      current = false;
    };
  }, [online, payments]);

  if (payments === false) return <PaymentsUnavailable />;
  if (!online) return <p className="muted">Payout setup needs a connection.</p>;
  if (!status) return <FormError message={error} />;
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
      <button
        type="button"
        className="button button-primary"
        disabled={setup.pending}
        onClick={() => {
          setLoadError(null);
          void setup.go(() => moneyApi.startPayoutSetup(returnTo));
        }}
      >
        {setup.pending ? 'Opening…' : status.hasAccount ? 'Finish setting up payouts' : 'Set up payouts'}
      </button>
      <FormError message={error} />
    </div>
  );
}
