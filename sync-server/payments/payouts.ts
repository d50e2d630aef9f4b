import type Stripe from 'stripe';
import type { Tx } from '../db/database.ts';
import { HttpError } from '../http/errors.ts';
import { loadCaller, type PaymentsDeps } from './payments-deps.ts';
import { stripeMessage } from './stripe-client.ts';

/** Creator payouts: a Connect Express account per creator, onboarded through Stripe's account links. */
export function createPayouts(deps: PaymentsDeps) {
  const { stripe, db, config } = deps;

  const accountReady = (a: Stripe.Account) => Boolean(a.payouts_enabled) && a.capabilities?.transfers === 'active';

  async function startOnboarding(userId: string, returnPath: string): Promise<{ url: string }> {
    const { caller, accountId } = await db.asService(async (tx) => {
      const caller = await loadCaller(tx, userId);
      if (!caller || caller.role !== 'creator')
        throw new HttpError(403, 'creators_only', 'Only creators set up payouts.');
      const { rows } = await tx.query<{ stripe_account_id: string | null }>(
        `select stripe_account_id from public.billing_accounts where user_id = $1`,
        [userId],
      );
      return { caller, accountId: rows[0]?.stripe_account_id ?? undefined };
    });
    try {
      let account = accountId;
      if (!account) {
        const created = await stripe.accounts.create(
          {
            type: 'express',
            email: caller.email || undefined,
            capabilities: { transfers: { requested: true } },
            metadata: { user_id: userId },
          },
          { idempotencyKey: `pacta-payout-account-${userId}` },
        );
        account = created.id;
        await db.asService((tx) =>
          tx.query(
            `insert into public.billing_accounts (user_id, stripe_account_id) values ($1, $2)
             on conflict (user_id) do update
                set stripe_account_id = coalesce(public.billing_accounts.stripe_account_id, excluded.stripe_account_id),
                    updated_at = now()`,
            [userId, account],
          ),
        );
      }
      const back = (state: string) =>
        `${config.publicUrl}${returnPath}${returnPath.includes('?') ? '&' : '?'}payouts=${state}`;
      const link = await stripe.accountLinks.create({
        account,
        type: 'account_onboarding',
        return_url: back('done'),
        refresh_url: back('retry'),
      });
      return { url: link.url };
    } catch (err) {
      if (err instanceof HttpError) throw err;
      throw new HttpError(502, 'onboarding_failed', `Failed to start payout setup: ${stripeMessage(err)}`);
    }
  }

  /** The creator's payout state; asks Stripe again when not ready yet (the webhook may still be on its way). */
  async function status(userId: string) {
    const row = await db.asService(async (tx) => {
      const { rows } = await tx.query<{
        stripe_account_id: string | null;
        payouts_enabled: boolean;
        payout_details_submitted: boolean;
      }>(
        `select stripe_account_id, payouts_enabled, payout_details_submitted from public.billing_accounts where user_id = $1`,
        [userId],
      );
      return rows[0];
    });
    if (row?.stripe_account_id && !row.payouts_enabled) {
      try {
        const account = await stripe.accounts.retrieve(row.stripe_account_id);
        await db.asService((tx) => applyAccount(tx, account));
        return { hasAccount: true, ready: accountReady(account), detailsSubmitted: Boolean(account.details_submitted) };
      } catch (err) {
        deps.log.warn({ err }, 'account refresh failed');
      }
    }
    return {
      hasAccount: Boolean(row?.stripe_account_id),
      ready: Boolean(row?.payouts_enabled),
      detailsSubmitted: Boolean(row?.payout_details_submitted),
    };
  }

  async function applyAccount(tx: Tx, account: Stripe.Account): Promise<void> {
    await tx.query(
      `update public.billing_accounts set payouts_enabled = $2, payout_details_submitted = $3, updated_at = now() where stripe_account_id = $1`,
      [account.id, accountReady(account), Boolean(account.details_submitted)],
    );
  }

  return { startOnboarding, status, applyAccount };
}

export type Payouts = ReturnType<typeof createPayouts>;
