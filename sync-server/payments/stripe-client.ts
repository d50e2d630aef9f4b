import Stripe from 'stripe';
import type { StripeSettings } from '../config.ts';

/**
 * The one stripe-node client. With `apiBase` (the local Stripe) it talks to that origin through
 * stripe-node's own host/port/protocol options, so the code under test is the production adapter.
 */
export function createStripeClient(settings: StripeSettings): Stripe {
  const base = settings.apiBase ? new URL(settings.apiBase) : undefined;
  return new Stripe(settings.secretKey, {
    maxNetworkRetries: 2,
    timeout: 20_000,
    appInfo: { name: 'Pacta' },
    ...(base
      ? {
          host: base.hostname,
          port: base.port || (base.protocol === 'https:' ? 443 : 80),
          protocol: base.protocol === 'https:' ? 'https' : 'http',
        }
      : {}),
  });
}

/** A Stripe API error's own message (card declined, capability missing…), or a generic one. */
export function stripeMessage(err: unknown): string {
  if (err instanceof Stripe.errors.StripeError) return err.message;
  return 'The payment provider could not be reached.';
}
