import { useState } from 'react';
import { goToStripe } from './money-api.ts';

/**
 * Ask the server for a page to go to (Stripe Checkout, the billing portal, payout onboarding), then
 * go there. `pending` from the click until the page is left; a failure ends it and gives `error`:
 * the server's message, or `fallback` when the failure carries none.
 */
export function useServerRedirect(fallback: string) {
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  async function go(request: () => Promise<{ url: string }>) {
    setPending(true);
    setError(null);
    try {
      goToStripe((await request()).url);
    } catch (err) {
      setError(err instanceof Error ? err.message : fallback);
      setPending(false);
    }
  }
  return { pending, error, go };
}
