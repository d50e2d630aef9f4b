import { randomBytes } from 'node:crypto';
import type { ServerConfig } from '../../config.ts';
import { startLocalStripe, type LocalStripe } from './local-stripe.ts';

/**
 * `npm start` on a developer's machine with no STRIPE_SECRET_KEY: starts the local Stripe beside the
 * server and points the payment adapter at it (fresh keys per start; its data lives in memory only).
 * Never in a deployment: its test card "pays" for Pro and funds escrow, and anyone could use it.
 */
export async function withLocalStripe(
  config: ServerConfig,
): Promise<{ config: ServerConfig; localStripe?: LocalStripe }> {
  if (config.stripe || config.mode !== 'development' || config.payments === 'off') return { config };
  const secretKey = `sk_test_local_${randomBytes(12).toString('hex')}`;
  const webhookSecret = `whsec_local_${randomBytes(16).toString('hex')}`;
  const serverHost = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host;
  const localStripe = await startLocalStripe({
    secretKey,
    webhookSecret,
    port: config.localStripePort,
    host: config.host,
    publicHostname: new URL(config.publicUrl).hostname,
    webhookUrl: `http://${serverHost}:${config.port}/api/stripe/webhook`,
  });
  return { config: { ...config, stripe: { secretKey, webhookSecret, apiBase: localStripe.url } }, localStripe };
}
