import { afterAll, beforeAll, expect, test } from 'vitest';
import { PRO_MONTHLY_PRICE_CENTS, PRO_YEARLY_PRICE_CENTS } from '../../src/domain/fees.ts';
import { startMoneyFixture, type MoneyFixture } from './money-fixture.ts';

let f: MoneyFixture;
beforeAll(async () => {
  f = await startMoneyFixture();
});
afterAll(() => f?.close());

const profile = async (id: string) =>
  (
    await f.server.db.pool.query(
      `select pro_tier, pro_since, pro_until, public.is_pro_user(id) as is_pro from public.profiles where id = $1`,
      [id],
    )
  ).rows[0];
const waitFor = async (check: () => Promise<boolean>) => {
  for (let i = 0; i < 200; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('condition never met');
};

test('Upgrade to Pro: a 7-day trial through Checkout; only for oneself; the prices come from the fee module by lookup key', async () => {
  const creator = await f.server.createUser({ role: 'creator' });
  const other = await f.server.createUser({ role: 'creator' });
  const forSomeoneElse = await f.api(creator, 'POST', '/api/create-checkout-session', {
    userId: other.id,
    tier: 'premium',
    interval: 'monthly',
    trigger: 'pro_page',
  });
  expect(forSomeoneElse.status).toBe(403);
  expect(
    (
      await f.api(undefined, 'POST', '/api/create-checkout-session', {
        userId: creator.id,
        tier: 'premium',
        interval: 'monthly',
      })
    ).status,
  ).toBe(401);
  expect(
    (await f.api(creator, 'POST', '/api/create-checkout-session', { userId: creator.id, interval: 'weekly' })).status,
  ).toBe(400);

  const started = await f.api(creator, 'POST', '/api/create-checkout-session', {
    userId: creator.id,
    tier: 'premium',
    interval: 'monthly',
    trigger: 'pro_page',
  });
  expect(started.status).toBe(200);
  const page = await (await fetch(String(started.body.url))).text();
  expect(page).toContain('7-day free trial');
  const prices = await f.stripe.prices.list({ lookup_keys: ['pacta_pro_monthly', 'pacta_pro_yearly'] });
  expect(prices.data.map((p) => p.unit_amount).sort()).toEqual(
    [PRO_MONTHLY_PRICE_CENTS, PRO_YEARLY_PRICE_CENTS].sort(),
  );

  const paid = await f.payOnHostedPage(String(started.body.url), '4242 4242 4242 4242');
  expect(paid.status).toBe(303);
  expect(paid.location).toMatch(/\/pro\/success\?session_id=cs_test_/);
  await waitFor(async () => (await profile(creator.id)).is_pro);
  const p = await profile(creator.id);
  expect(p.pro_tier).toBe('premium');
  const days = (p.pro_until.getTime() - Date.now()) / 86_400_000;
  expect(days).toBeGreaterThan(6.9);
  expect(days).toBeLessThanOrEqual(7);
  const state = await f.api(creator, 'GET', '/api/billing/subscription');
  expect(state.body).toMatchObject({
    status: 'trialing',
    interval: 'monthly',
    isPro: true,
    cancelAtPeriodEnd: false,
    canManage: true,
  });
  // A second subscription is refused: Manage subscription is the way.
  expect(
    (
      await f.api(creator, 'POST', '/api/create-checkout-session', {
        userId: creator.id,
        tier: 'premium',
        interval: 'yearly',
      })
    ).body,
  ).toMatchObject({
    code: 'already_subscribed',
  });
  // The prices are reused, not created again.
  expect((await f.stripe.prices.list({ lookup_keys: ['pacta_pro_monthly'] })).data).toHaveLength(1);
});

test('Manage subscription: cancelling at period end keeps Pro until then; the end moves the member to free and clears the dates', async () => {
  const brand = await f.server.createUser({ role: 'brand' });
  expect((await f.api(brand, 'POST', '/api/billing-portal', {})).body).toMatchObject({ code: 'no_subscription' });
  const started = await f.api(brand, 'POST', '/api/create-checkout-session', {
    userId: brand.id,
    tier: 'basic',
    interval: 'yearly',
    trigger: 'settings',
  });
  await f.payOnHostedPage(String(started.body.url), '4242424242424242');
  await waitFor(async () => (await profile(brand.id)).is_pro);
  expect((await profile(brand.id)).pro_tier).toBe('basic');

  const portal = await f.api(brand, 'POST', '/api/billing-portal', { returnTo: '/settings?section=pro' });
  expect(portal.status).toBe(200);
  const portalPage = await (await fetch(String(portal.body.url))).text();
  expect(portalPage).toContain('Cancel plan');
  const subscriptionId = /name="subscription" value="([^"]+)"/.exec(portalPage)![1]!;
  const cancelled = await fetch(String(portal.body.url), {
    method: 'POST',
    body: new URLSearchParams({ subscription: subscriptionId, do: 'cancel' }),
  });
  expect(await cancelled.text()).toContain('Cancels on');
  await waitFor(async () => Boolean((await f.api(brand, 'GET', '/api/billing/subscription')).body.cancelAtPeriodEnd));
  const stillPro = await profile(brand.id);
  expect(stillPro.is_pro).toBe(true);
  expect(stillPro.pro_until).not.toBeNull();

  // The period ends: Stripe deletes the subscription.
  await f.stripe.subscriptions.cancel(subscriptionId);
  await waitFor(async () => !(await profile(brand.id)).is_pro);
  expect(await profile(brand.id)).toEqual({ pro_tier: 'free', pro_since: null, pro_until: null, is_pro: false });
});

test('a declined card on the Pro checkout says so and starts nothing', async () => {
  const creator = await f.server.createUser({ role: 'creator' });
  const started = await f.api(creator, 'POST', '/api/create-checkout-session', {
    userId: creator.id,
    tier: 'premium',
    interval: 'monthly',
  });
  const declined = await f.payOnHostedPage(String(started.body.url), '4000000000000002');
  expect(declined.status).toBe(402);
  expect(declined.html).toContain('Your card was declined.');
  await f.localStripe.idle();
  expect((await profile(creator.id)).is_pro).toBe(false);
});

test('a referred member pays the referrer $10 once: not for the free trial, at the first paid (active) period; replays add nothing', async () => {
  const referrer = await f.server.createUser({ role: 'creator' });
  const referred = await f.server.createUser({ role: 'brand' });
  await f.server.db.asService((tx) =>
    tx.query(`insert into public.referrals (referrer_id, referred_user_id) values ($1, $2)`, [
      referrer.id,
      referred.id,
    ]),
  );
  const rewards = async () =>
    (
      await f.server.db.pool.query(
        `select reward_type, amount_cents, status from public.referral_rewards where referrer_id = $1 and not deleted`,
        [referrer.id],
      )
    ).rows;

  const started = await f.api(referred, 'POST', '/api/create-checkout-session', {
    userId: referred.id,
    tier: 'premium',
    interval: 'monthly',
  });
  expect((await f.payOnHostedPage(String(started.body.url), '4242424242424242')).status).toBe(303);
  await waitFor(async () => (await profile(referred.id)).is_pro);
  await f.localStripe.idle();
  // "$10 when a referred user starts a paid Pro subscription": the 7-day trial is not paid yet.
  expect((await f.api(referred, 'GET', '/api/billing/subscription')).body).toMatchObject({ status: 'trialing' });
  expect(await rewards()).toEqual([]);

  const { rows } = await f.server.db.pool.query(
    `select stripe_subscription_id from public.billing_accounts where user_id = $1`,
    [referred.id],
  );
  const subscriptionId = String(rows[0].stripe_subscription_id);
  const from = f.localStripe.events.length;
  // The trial ends: Stripe charges the first month and the subscription becomes active.
  expect((await f.stripe.subscriptions.update(subscriptionId, { trial_end: 'now' })).status).toBe('active');
  await waitFor(async () => (await rewards()).length > 0);
  await f.localStripe.idle();
  expect(await rewards()).toEqual([{ reward_type: 'pro_subscription', amount_cents: 1000, status: 'pending' }]);
  expect(
    (
      await f.server.db.pool.query(
        `select amount_cents from public.ledger_entries where user_id = $1 and kind = 'subscription'`,
        [referred.id],
      )
    ).rows,
  ).toEqual([{ amount_cents: PRO_MONTHLY_PRICE_CENTS }]);

  // The same events again, and a later change to the active subscription: still one reward.
  const ended = f.localStripe.events.slice(from);
  expect(ended.map((e) => e.type)).toEqual(['invoice.paid', 'customer.subscription.updated']);
  for (const event of ended) expect(await f.localStripe.deliver(event)).toBe(200);
  await f.stripe.subscriptions.update(subscriptionId, { metadata: { note: 'renamed' } });
  await f.localStripe.idle();
  expect(await rewards()).toHaveLength(1);
  const told = await f.server.db.pool.query(
    `select count(*)::int as n from public.notifications where user_id = $1 and type = 'referral_reward'`,
    [referrer.id],
  );
  expect(told.rows[0].n).toBe(1);
  const earned = await f.server.db.pool.query(
    `select earnings_cents from public.referrals where referred_user_id = $1`,
    [referred.id],
  );
  expect(earned.rows[0].earnings_cents).toBe(1000);
});

test('one free trial per customer: after a cancelled trial the next checkout has none and charges at once', async () => {
  const brand = await f.server.createUser({ role: 'brand' });
  const checkout = () =>
    f.api(brand, 'POST', '/api/create-checkout-session', { userId: brand.id, tier: 'premium', interval: 'monthly' });
  expect((await f.api(brand, 'GET', '/api/billing/subscription')).body).toMatchObject({ trialAvailable: true });
  const first = await checkout();
  expect(await (await fetch(String(first.body.url))).text()).toContain('7-day free trial');
  expect((await f.payOnHostedPage(String(first.body.url), '4242424242424242')).status).toBe(303);
  await waitFor(async () => (await profile(brand.id)).is_pro);
  const { rows } = await f.server.db.pool.query(
    `select stripe_subscription_id, stripe_customer_id from public.billing_accounts where user_id = $1`,
    [brand.id],
  );
  // Cancelled during the trial: Pro ends, and so does the offer of a trial.
  await f.stripe.subscriptions.cancel(String(rows[0].stripe_subscription_id));
  await waitFor(async () => !(await profile(brand.id)).is_pro);
  expect((await f.api(brand, 'GET', '/api/billing/subscription')).body).toMatchObject({ trialAvailable: false });

  const second = await checkout();
  expect(second.status).toBe(200);
  const page = await (await fetch(String(second.body.url))).text();
  expect(page).not.toContain('free trial');
  expect((await f.payOnHostedPage(String(second.body.url), '4242424242424242')).status).toBe(303);
  await waitFor(async () => (await profile(brand.id)).is_pro);
  expect((await f.api(brand, 'GET', '/api/billing/subscription')).body).toMatchObject({ status: 'active' });
  await f.localStripe.idle();
  expect(
    (
      await f.server.db.pool.query(
        `select amount_cents from public.ledger_entries where user_id = $1 and kind = 'subscription'`,
        [brand.id],
      )
    ).rows,
  ).toEqual([{ amount_cents: PRO_MONTHLY_PRICE_CENTS }]);
});

test("one free trial per Stripe customer, also when Pacta's own record of it is gone", async () => {
  const creator = await f.server.createUser({ role: 'creator' });
  const first = await f.api(creator, 'POST', '/api/create-checkout-session', {
    userId: creator.id,
    tier: 'premium',
    interval: 'yearly',
  });
  await f.payOnHostedPage(String(first.body.url), '4242424242424242');
  await waitFor(async () => (await profile(creator.id)).is_pro);
  const { rows } = await f.server.db.pool.query(
    `select stripe_subscription_id from public.billing_accounts where user_id = $1`,
    [creator.id],
  );
  await f.stripe.subscriptions.cancel(String(rows[0].stripe_subscription_id));
  await waitFor(async () => !(await profile(creator.id)).is_pro);
  // The customer stays; only the subscription id is forgotten (an older record, a restore): Stripe still knows.
  await f.server.db.asService((tx) =>
    tx.query(
      `update public.billing_accounts set stripe_subscription_id = null, subscription_status = null where user_id = $1`,
      [creator.id],
    ),
  );
  const again = await f.api(creator, 'POST', '/api/create-checkout-session', {
    userId: creator.id,
    tier: 'premium',
    interval: 'yearly',
  });
  expect(await (await fetch(String(again.body.url))).text()).not.toContain('free trial');
});
