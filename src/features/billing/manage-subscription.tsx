import { useEffect, useState } from 'react';
import { formatDate } from './format.ts';
import { FormError } from '../../components/form-error.tsx';
import { moneyApi, type SubscriptionState } from './data/money-api.ts';
import { PaymentsUnavailable } from './payments-unavailable.tsx';
import { useOnline } from './use-online.ts';
import { usePaymentsAvailable } from './data/use-payments-available.ts';
import { useServerRedirect } from './data/use-server-redirect.ts';

/** Settings → Pro: the subscription as Stripe holds it, and Manage subscription (Stripe's customer portal). */
export function ManageSubscription() {
  const online = useOnline();
  const [state, setState] = useState<SubscriptionState | null>(null);
  const portal = useServerRedirect('Failed to open the billing portal.');
  const payments = usePaymentsAvailable();

  useEffect(() => {
    if (!online || payments !== true) return;
    let current = true;
    moneyApi.subscription().then(
      (s) => current && setState(s),
      () => current && setState(null),
    );
    return () => {
      current = false;
    };
  }, [online, payments]);

  if (payments === false) return <PaymentsUnavailable />;
  if (!online) return <p className="muted">Managing your subscription needs a connection.</p>;
  if (!state?.status) return null;
  const end = state.currentPeriodEnd ? formatDate(state.currentPeriodEnd) : null;
  const line =
    state.status === 'canceled'
      ? // One free trial per customer: say so before the member upgrades again.
        `Your subscription has ended.${state.trialAvailable ? '' : ' Upgrading again starts a paid plan at once: the free trial is once per member.'}`
      : state.cancelAtPeriodEnd
        ? `Cancelled: Pro stays active until ${end}.`
        : state.status === 'trialing'
          ? `Free trial until ${end}, then ${state.interval === 'yearly' ? 'yearly' : 'monthly'} billing.`
          : `Renews on ${end} (${state.interval === 'yearly' ? 'yearly' : 'monthly'}).`;
  return (
    <div className="money-action" data-testid="subscription-state">
      <p>{line}</p>
      {state.canManage ? (
        <button
          type="button"
          className="button button-secondary"
          disabled={portal.pending}
          onClick={() => void portal.go(() => moneyApi.openBillingPortal('/settings?section=pro'))}
        >
          {portal.pending ? 'Opening…' : 'Manage subscription'}
        </button>
      ) : null}
      <FormError message={portal.error} />
    </div>
  );
}
