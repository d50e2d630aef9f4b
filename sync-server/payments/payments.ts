import type Stripe from 'stripe';
import type { FastifyBaseLogger } from 'fastify';
import type { ServerConfig, StripeSettings } from '../config.ts';
import type { Database } from '../db/database.ts';
import { createEscrow } from './escrow.ts';
import { createMoneyJobs } from './money-jobs.ts';
import { createPayouts } from './payouts.ts';
import { createStripeClient } from './stripe-client.ts';
import { createProPrices, createSubscriptions } from './subscriptions.ts';
import { createWebhookHandler } from './webhook.ts';

/** Pro subscriptions, deal escrow, creator payouts and the Stripe webhook, over one stripe-node client. */
export function createPayments(settings: StripeSettings, config: ServerConfig, db: Database, log: FastifyBaseLogger) {
  // Typed here so the declaration of `Payments` can name stripe-node's types.
  const stripe: Stripe = createStripeClient(settings);
  const deps = { stripe, settings, config, db, log };
  const prices = createProPrices(deps);
  const subscriptions = createSubscriptions(deps, prices);
  const escrow = createEscrow(deps);
  const payouts = createPayouts(deps);
  const jobs = createMoneyJobs(deps, escrow);
  return {
    stripe: deps.stripe,
    prices,
    subscriptions,
    escrow,
    payouts,
    jobs,
    handleWebhook: createWebhookHandler(deps, { subscriptions, escrow, payouts }),
  };
}

export type Payments = ReturnType<typeof createPayments>;
