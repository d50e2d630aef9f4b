import { Link } from 'react-router-dom';
import { useAuth } from '../../lib/session/auth-context.ts';
import { FormError } from '../../components/form-error.tsx';
import { CHECKOUT_FAILED, moneyApi, type Interval } from './data/money-api.ts';
import { PaymentsUnavailable } from './payments-unavailable.tsx';
import { useOnline } from './use-online.ts';
import { usePaymentsAvailable } from './data/use-payments-available.ts';
import { useServerRedirect } from './data/use-server-redirect.ts';

/**
 * Upgrade to Pro: Processing…, then Stripe Checkout (7-day free trial). Failure says the spec's
 * 'Failed to start checkout. Please try again.'; offline, the button says checkout needs a connection.
 */
export function UpgradeButton({ interval, trigger }: { interval: Interval; trigger: string }) {
  const auth = useAuth();
  const online = useOnline();
  const checkout = useServerRedirect(CHECKOUT_FAILED);
  const payments = usePaymentsAvailable();

  if (payments === false) return <PaymentsUnavailable />;
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

  return (
    <div className="money-action">
      <button
        type="button"
        className="button button-primary"
        disabled={!online || checkout.pending}
        onClick={() =>
          void checkout.go(() => moneyApi.startProCheckout({ userId: user.id, tier: 'premium', interval, trigger }))
        }
      >
        {checkout.pending ? 'Processing…' : 'Upgrade to Pro'}
      </button>
      {!online ? (
        <p className="muted" role="status">
          Checkout needs a connection: you are offline.
        </p>
      ) : null}
      {/* The spec's words whatever went wrong, not the server's. */}
      <FormError message={checkout.error ? CHECKOUT_FAILED : null} />
    </div>
  );
}
