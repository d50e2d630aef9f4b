import { randomBytes, randomUUID } from 'node:crypto';
import { pullDocument } from '../support/pull-to-end.ts';
import Stripe from 'stripe';
import { startLocalStripe, type LocalStripe } from '../../sync-server/payments/local-stripe/local-stripe.ts';
import { SYNC_PROTOCOL_VERSION } from '../../src/domain/collections/index.ts';
import { startTestServer, type TestServer, type TestUser } from '../support/test-server.ts';
import { freePort } from '../support/free-port.ts';

export type MoneyFixture = {
  server: TestServer;
  localStripe: LocalStripe;
  /** A stripe-node client on the local Stripe (what a test uses to act as Stripe's dashboard would). */
  stripe: Stripe;
  webhookSecret: string;
  api(
    user: TestUser | undefined,
    method: 'GET' | 'POST',
    path: string,
    body?: unknown,
  ): Promise<{ status: number; body: Record<string, unknown> }>;
  /** Submits the hosted checkout page with a card, as a person would. */
  payOnHostedPage(url: string, card: string): Promise<{ status: number; location: string | null; html: string }>;
  /** Completes the hosted Connect onboarding page. */
  completeOnboarding(url: string): Promise<{ status: number; location: string | null }>;
  /** A brand's deal of `amountCents` with `creator` accepted. */
  dealWithAcceptedCreator(brand: TestUser, creator: TestUser, amountCents: number): Promise<string>;
  /** Creator with a payout account ready (through the real onboarding page). */
  setUpPayouts(creator: TestUser): Promise<void>;
  /** Brand funds the deal with the 4242 card; resolves when the webhook marked it pending. */
  fundDeal(brand: TestUser, dealId: string): Promise<void>;
  escrowStatus(dealId: string): Promise<string>;
  /** A document as the user's device pulls it through /sync/v1 (undefined when out of the user's scope). */
  pulled(user: TestUser, collection: string, id: string): Promise<SyncDoc | undefined>;
  /** Pushes one document as the user's device does; resolves with the rule's code when it was refused. */
  pushed(user: TestUser, collection: string, doc: SyncDoc, assumed?: SyncDoc): Promise<string | undefined>;
  close(): Promise<void>;
};

export type SyncDoc = Record<string, unknown> & { id: string; _deleted: boolean };

export async function startMoneyFixture(): Promise<MoneyFixture> {
  const secretKey = `sk_test_${randomBytes(8).toString('hex')}`;
  const webhookSecret = `whsec_${randomBytes(16).toString('hex')}`;
  const port = await freePort();
  const localStripe = await startLocalStripe({
    secretKey,
    webhookSecret,
    webhookUrl: `http://127.0.0.1:${port}/api/stripe/webhook`,
  });
  const server = await startTestServer({
    port,
    env: { STRIPE_SECRET_KEY: secretKey, STRIPE_WEBHOOK_SECRET: webhookSecret, STRIPE_API_BASE: localStripe.url },
  });
  const base = new URL(localStripe.url);
  const stripe = new Stripe(secretKey, { host: base.hostname, port: base.port, protocol: 'http' });

  async function api(user: TestUser | undefined, method: 'GET' | 'POST', path: string, body?: unknown) {
    const response = await fetch(`${server.url}${path}`, {
      method,
      headers: {
        ...(user ? { authorization: `Bearer ${user.accessToken}` } : {}),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  }

  async function payOnHostedPage(url: string, card: string) {
    const response = await fetch(url, {
      method: 'POST',
      body: new URLSearchParams({ email: 'payer@example.test', card, exp: '12 / 34', cvc: '123' }),
      redirect: 'manual',
    });
    return { status: response.status, location: response.headers.get('location'), html: await response.text() };
  }

  async function completeOnboarding(url: string) {
    const page = await fetch(url);
    if (!(await page.text()).includes('Set up payouts')) throw new Error('onboarding page not shown');
    const response = await fetch(url, {
      method: 'POST',
      body: new URLSearchParams({
        name: 'Casey Creator',
        email: 'c@example.test',
        routing: '110000000',
        account: '000123456789',
      }),
      redirect: 'manual',
    });
    return { status: response.status, location: response.headers.get('location') };
  }

  const syncHeaders = (user: TestUser) => ({
    'content-type': 'application/json',
    authorization: `Bearer ${user.accessToken}`,
    'x-pacta-protocol': String(SYNC_PROTOCOL_VERSION),
  });

  async function pulled(user: TestUser, collection: string, id: string) {
    return (await pullDocument(server.url, syncHeaders(user), collection, id)) as SyncDoc | undefined;
  }

  async function pushed(user: TestUser, collection: string, doc: SyncDoc, assumed?: SyncDoc) {
    const res = await fetch(`${server.url}/sync/v1/${collection}/push`, {
      method: 'POST',
      headers: syncHeaders(user),
      body: JSON.stringify({ rows: [{ newDocumentState: doc, ...(assumed ? { assumedMasterState: assumed } : {}) }] }),
    });
    if (res.status !== 200) throw new Error(`push ${collection}: ${res.status}`);
    const body = (await res.json()) as { conflicts: SyncDoc[] };
    const rejection = body.conflicts[0]?.sync_rejection as { code: string } | undefined;
    if (body.conflicts.length && !rejection) throw new Error(`push ${collection}: a conflict, not a refusal`);
    return rejection?.code;
  }

  async function escrowStatus(dealId: string) {
    const { rows } = await server.db.pool.query(`select escrow_status from public.deals where id = $1`, [dealId]);
    return rows[0].escrow_status as string;
  }

  return {
    server,
    localStripe,
    stripe,
    webhookSecret,
    api,
    payOnHostedPage,
    completeOnboarding,
    escrowStatus,
    pulled,
    pushed,
    async dealWithAcceptedCreator(brand, creator, amountCents) {
      const dealId = randomUUID();
      await server.db.asService(async (tx) => {
        await tx.query(
          `insert into public.deals (id, brand_id, title, description, amount_cents, niches) values ($1, $2, 'Spring launch reel', 'One reel', $3, '{fitness}')`,
          [dealId, brand.id, amountCents],
        );
        const applicationId = randomUUID();
        await tx.query(`insert into public.applications (id, deal_id, creator_id, pitch) values ($1, $2, $3, 'Me!')`, [
          applicationId,
          dealId,
          creator.id,
        ]);
        await tx.query(`update public.applications set status = 'accepted' where id = $1`, [applicationId]);
      });
      return dealId;
    },
    async setUpPayouts(creator) {
      const start = await api(creator, 'POST', '/api/payouts/onboarding', {});
      if (start.status !== 200) throw new Error(`onboarding: ${JSON.stringify(start.body)}`);
      await completeOnboarding(String(start.body.url));
      for (let i = 0; i < 100; i++) {
        const status = await api(creator, 'GET', '/api/payouts/status');
        if (status.body.ready) return;
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error('payouts never became ready');
    },
    async fundDeal(brand, dealId) {
      const start = await api(brand, 'POST', `/api/deals/${dealId}/fund`);
      if (start.status !== 200) throw new Error(`fund: ${JSON.stringify(start.body)}`);
      const paid = await payOnHostedPage(String(start.body.url), '4242 4242 4242 4242');
      if (paid.status !== 303) throw new Error(`payment refused: ${paid.html}`);
      for (let i = 0; i < 100; i++) {
        if ((await escrowStatus(dealId)) === 'pending') return;
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error('escrow never became pending');
    },
    async close() {
      await localStripe.idle();
      await server.close();
      await localStripe.close();
    },
  };
}

export async function completeDeal(server: TestServer, dealId: string, completedDaysAgo = 0): Promise<void> {
  await server.db.asService(async (tx) => {
    await tx.query(`update public.deals set status = 'completed' where id = $1`, [dealId]);
    if (completedDaysAgo)
      await tx.query(`update public.deals set completed_at = now() - make_interval(days => $2) where id = $1`, [
        dealId,
        completedDaysAgo,
      ]);
  });
}
