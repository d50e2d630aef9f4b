import Stripe from 'stripe';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startMoneyFixture, type MoneyFixture } from './money-fixture.ts';

let f: MoneyFixture;
beforeAll(async () => {
  f = await startMoneyFixture();
});
afterAll(() => f?.close());

const count = async (sql: string, params: unknown[] = []) =>
  Number((await f.server.db.pool.query(sql, params)).rows[0].n);

async function postWebhook(payload: string, signature: string) {
  const response = await fetch(`${f.server.url}/api/stripe/webhook`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'stripe-signature': signature },
    body: payload,
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

async function subscribe(creator: { id: string; accessToken: string; email: string; role: string }) {
  const started = await f.api(creator, 'POST', '/api/create-checkout-session', {
    userId: creator.id,
    tier: 'premium',
    interval: 'monthly',
    trigger: 'test',
  });
  expect(started.status).toBe(200);
  const paid = await f.payOnHostedPage(String(started.body.url), '4242424242424242');
  expect(paid.status).toBe(303);
}

test('a webhook with a bad signature is refused with 400 and changes nothing', async () => {
  const creator = await f.server.createUser({ role: 'creator' });
  f.localStripe.setDelivery('manual');
  try {
    await subscribe(creator);
  } finally {
    f.localStripe.setDelivery('auto');
  }
  const event = f.localStripe.events.find(
    (e) =>
      e.type === 'customer.subscription.created' &&
      e.data.object.metadata &&
      (e.data.object.metadata as Record<string, string>).user_id === creator.id,
  )!;
  const payload = JSON.stringify(event);
  const forged = Stripe.webhooks.generateTestHeaderString({ payload, secret: 'whsec_not_the_right_one' });
  const refused = await postWebhook(payload, forged);
  expect(refused.status).toBe(400);
  expect(refused.body).toMatchObject({ code: 'invalid_signature', message: expect.any(String) });
  // Tampered body with a signature made for the original one:
  const good = Stripe.webhooks.generateTestHeaderString({ payload, secret: f.webhookSecret });
  expect((await postWebhook(payload.replace('"trialing"', '"active"'), good)).status).toBe(400);
  expect((await postWebhook(payload, '')).status).toBe(400);
  expect(await count(`select count(*) as n from public.stripe_events where id = $1`, [event.id])).toBe(0);
  const { rows } = await f.server.db.pool.query(`select pro_tier from public.profiles where id = $1`, [creator.id]);
  expect(rows[0].pro_tier).toBe('free');

  // The same event, properly signed, is accepted.
  const accepted = await postWebhook(payload, good);
  expect(accepted.status).toBe(200);
  const after = await f.server.db.pool.query(`select pro_tier from public.profiles where id = $1`, [creator.id]);
  expect(after.rows[0].pro_tier).toBe('premium');
});

test('the same event delivered twice changes nothing the second time', async () => {
  const brand = await f.server.createUser({ role: 'brand' });
  const creator = await f.server.createUser({ role: 'creator' });
  const dealId = await f.dealWithAcceptedCreator(brand, creator, 20_000);
  await f.fundDeal(brand, dealId);
  await f.localStripe.idle();
  const succeeded = f.localStripe.events.find(
    (e) =>
      e.type === 'payment_intent.succeeded' && (e.data.object.metadata as Record<string, string>).deal_id === dealId,
  )!;
  const snapshot = async () => ({
    ledger: await count(`select count(*) as n from public.ledger_entries where deal_id = $1`, [dealId]),
    notifications: await count(`select count(*) as n from public.notifications where data->>'deal_id' = $1`, [dealId]),
    version: await count(`select version as n from public.deals where id = $1`, [dealId]),
  });
  const before = await snapshot();
  expect(before.ledger).toBe(2); // charge + fee
  const payload = JSON.stringify(succeeded);
  const again = await postWebhook(
    payload,
    Stripe.webhooks.generateTestHeaderString({ payload, secret: f.webhookSecret }),
  );
  expect(again.status).toBe(200);
  expect(again.body).toEqual({ received: true, duplicate: true });
  expect(await snapshot()).toEqual(before);
  expect(await f.escrowStatus(dealId)).toBe('pending');
});

test('events delivered out of order end in the state Stripe holds now', async () => {
  const creator = await f.server.createUser({ role: 'creator' });
  f.localStripe.setDelivery('manual');
  const from = f.localStripe.events.length;
  try {
    await subscribe(creator);
    const created = f.localStripe.events.slice(from).find((e) => e.type === 'customer.subscription.created')!;
    await f.stripe.subscriptions.cancel(created.data.object.id);
  } finally {
    f.localStripe.setDelivery('auto');
  }
  const events = f.localStripe.events.slice(from);
  expect(events.map((e) => e.type)).toEqual([
    'customer.subscription.created',
    'invoice.paid',
    'checkout.session.completed',
    'customer.subscription.deleted',
  ]);
  // Newest first: the deletion arrives before the creation and the checkout.
  for (const event of [...events].reverse()) expect(await f.localStripe.deliver(event)).toBe(200);
  const { rows } = await f.server.db.pool.query(
    `select p.pro_tier, p.pro_since, p.pro_until, b.subscription_status from public.profiles p join public.billing_accounts b on b.user_id = p.id where p.id = $1`,
    [creator.id],
  );
  expect(rows[0]).toEqual({ pro_tier: 'free', pro_since: null, pro_until: null, subscription_status: 'canceled' });

  // A payment failure that arrives after the success leaves the deal funded.
  const brand = await f.server.createUser({ role: 'brand' });
  const payee = await f.server.createUser({ role: 'creator' });
  const dealId = await f.dealWithAcceptedCreator(brand, payee, 10_000);
  f.localStripe.setDelivery('manual');
  const mark = f.localStripe.events.length;
  try {
    const start = await f.api(brand, 'POST', `/api/deals/${dealId}/fund`);
    expect((await f.payOnHostedPage(String(start.body.url), '4000000000000002')).status).toBe(402);
    expect((await f.payOnHostedPage(String(start.body.url), '4242424242424242')).status).toBe(303);
  } finally {
    f.localStripe.setDelivery('auto');
  }
  const paymentEvents = f.localStripe.events.slice(mark);
  for (const event of [...paymentEvents].reverse()) expect(await f.localStripe.deliver(event)).toBe(200);
  expect(await f.escrowStatus(dealId)).toBe('pending');
  const view = await f.api(brand, 'GET', `/api/deals/${dealId}/payment`);
  expect(view.body).toMatchObject({ escrowStatus: 'pending', lastPaymentError: null });
});
