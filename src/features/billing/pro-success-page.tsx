import { useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import { PageHeader } from '../../components/page-header.tsx';
import { useAuth } from '../../lib/session/auth-context.ts';
import { usePageTitle } from '../../lib/use-page-title.ts';
import { formatDate } from './format.ts';
import { moneyApi, type SubscriptionState } from './data/money-api.ts';

const POLL_MS = 1_500;
const GIVE_UP_MS = 90_000;

/**
 * /pro/success — back from Checkout. Stripe confirms the subscription by webhook, a moment later than
 * the redirect: the page waits for it (and for the Pro badge to sync) and says so.
 */
export function ProSuccessPage() {
  usePageTitle('Welcome to Pro');
  const auth = useAuth();
  const [state, setState] = useState<SubscriptionState | null>(null);
  const [gaveUp, setGaveUp] = useState(false);
  const confirmed = Boolean(state?.isPro);

  useEffect(() => {
    if (confirmed) return;
    let stopped = false;
    const started = Date.now();
    async function poll() {
      while (!stopped) {
        try {
          const next = await moneyApi.subscription();
          if (stopped) return;
          setState(next);
          if (next.isPro) return;
        } catch {
          // offline or a hiccup: keep waiting
        }
        if (Date.now() - started > GIVE_UP_MS) {
          setGaveUp(true);
          return;
        }
        await new Promise((r) => setTimeout(r, POLL_MS));
      }
    }
    void poll();
    return () => {
      stopped = true;
    };
  }, [confirmed]);

  const badgeSynced = Boolean(auth.user?.isPro);
  return (
    <div className="page container narrow">
      <PageHeader title={confirmed ? 'Welcome to Pro!' : 'Confirming your subscription…'} />
      <section className="card detail-section" aria-live="polite">
        {confirmed ? (
          <>
            <p className="form-success" role="status">
              Your Pro subscription is confirmed
              {state?.status === 'trialing' && state.currentPeriodEnd
                ? `: your free trial runs until ${formatDate(state.currentPeriodEnd)}.`
                : '.'}
            </p>
            <p className="muted">
              {badgeSynced ? (
                <>
                  <span className="badge badge-pro">Pro</span> Your Pro badge and Pro-only deals are ready.
                </>
              ) : (
                'Your Pro badge appears as soon as your profile syncs.'
              )}
            </p>
            <div className="form-actions">
              <Link to="/deals" className="button button-primary">
                Browse deals
              </Link>
              <Link to="/settings?section=pro" className="button button-secondary">
                Manage subscription
              </Link>
            </div>
          </>
        ) : gaveUp ? (
          <p className="form-error" role="alert">
            We have not heard back from the payment provider yet. Your card is not charged twice: check Settings → Pro
            in a few minutes, or contact support.
          </p>
        ) : (
          <p role="status">
            Payment received. Waiting for Stripe to confirm your subscription — this takes a few seconds…
          </p>
        )}
      </section>
    </div>
  );
}
