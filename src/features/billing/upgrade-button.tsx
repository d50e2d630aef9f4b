import { useState } from 'react';
import { Link } from 'react-router-dom';
import { useAuth } from '../../lib/session/auth-context.ts';
import { goToStripe, moneyApi, type Interval } from './money-api.ts';
import { useOnline } from './use-online.ts';

/**
 * Upgrade to Pro: Processing…, then Stripe Checkout (7-day free trial). Failure says the spec's
 * 'Failed to start checkout. Please try again.'; offline, the button says checkout needs a connection.
 */
export function UpgradeButton({ interval, trigger }: { interval: Interval; trigger: string }) {
  const auth = useAuth();
  const online = useOnline();
  const [state, setState] = useState<'idle' | 'processing' | 'failed'>('idle');

  if (auth.status !== 'signed_in' || !auth.user) {
    return (
      <Link to="/auth/signup" className="button button-primary">
        Sign up to upgrade
      </Link>
    );
  }
  if (auth.user.isPro) {
    return (
      <p className="form-success" role="status">
        You are a Pro member. <Link to="/settings?section=pro">Manage subscription</Link>
      </p>
    );
  }
  const user = auth.user;

  async function start() {
    setState('processing');
    try {
      const { url } = await moneyApi.startProCheckout({ userId: user.id, tier: 'premium', interval, trigger });
      goToStripe(url);
    } catch {
      setState('failed');
    }
  }

  return (
    <div className="money-action">
      <button type="button" className="button button-primary" disabled={!online || state === 'processing'} onClick={() => void start()}>
        {state === 'processing' ? 'Processing…' : 'Upgrade to Pro'}
      </button>
      {!online ? (
        <p className="muted" role="status">
          Checkout needs a connection: you are offline.
        </p>
      ) : null}
      {state === 'failed' ? (
        <p className="form-error" role="alert">
          Failed to start checkout. Please try again.
        </p>
      ) : null}
    </div>
  );
}
